"""The fixes a lint run refused, and why: noted as they happen, read for the run's result."""

from __future__ import annotations

from typing import TypedDict

from remora.code.context import CodeContext
from remora.code.host_function import host_function

__all__ = ["LintRefusal", "lint_refusals", "refuse"]


class LintRefusal(TypedDict):
    """A fix of rule ``code`` this run refused, at ``line`` (0: none given), and why."""

    code: str
    line: int
    reason: str


def refuse(context: CodeContext, code: str, reason: str, line: int = 0) -> None:
    """Note a refused fix for the run's result (``lint_refusals``)."""
    refusal: LintRefusal = {"code": code, "line": line, "reason": reason}
    context.note("lint refused", refusal)


@host_function
def lint_refusals(context: CodeContext) -> list[LintRefusal]:
    """The fixes this run refused, oldest first: ``[{code, line, reason}]`` (line 0: none
    given). A drafted rewrite refused because no call ran the lines it replaces is here
    with that reason, whatever the tests would say."""
    return context.notes("lint refused")
