"""The fixes a lint run refused, and why: noted as they happen, read for the run's result."""

from __future__ import annotations

from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function

__all__ = ["lint_refusals", "refuse"]


def refuse(context: CodeContext, code: str, reason: str, line: int = 0) -> None:
    """Note a refused fix for the run's result (``lint_refusals``)."""
    context.note("lint refused", {"code": code, "line": line, "reason": reason})


@host_function
def lint_refusals(context: CodeContext) -> list[dict[str, Any]]:
    """The fixes this run refused, oldest first: ``[{code, line, reason}]`` (line 0: none
    given). A drafted rewrite refused because no call ran the lines it replaces is here
    with that reason, whatever the tests would say."""
    return context.notes("lint refused")
