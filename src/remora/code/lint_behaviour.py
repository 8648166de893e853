"""Whether a rewrite keeps what the code does: the node called before and after, the same answers.

A model's rewrite can pass every static check (it parses, the finding is gone,
no call or read is lost) and still change what the code does: E711's
``if x == None`` rewritten ``if x is not None``, UP031's ``'%s{2,}' % sep``
rewritten ``f'{sep}{2,}'``. For a function or method that can be called from
outside, the same argument sets (derived from its parameters, as the sample
data agent derives them) are called in the command sandbox on the file as it
was and as rewritten (:func:`remora.code.calls.probe_argument_sets`, the project
read-only with the workspace's edited files over it: a copy of the whole project
per check was most of a lint run's host time on SQLAlchemy; a call that writes
into the project raises there, and is not compared); the
rewrite keeps what the code does only when every call that ran both times
returned an equal value (its repr, where the repr is a literal; else its type)
or raised the same exception. A rewrite no call could check is refused too:
leaving a finding for the reviewer costs less than a wrong fix.
"""

from __future__ import annotations

from typing import Any

from remora.code.calls import derived_argument_sets, node_call_target, probe_argument_sets
from remora.code.context import CodeContext
from remora.sandbox.envelope import ExternalRefused

__all__ = ["behaviour_change"]

SETS = 4


def _answer(row: dict[str, Any]) -> tuple[str, ...] | None:
    """What a call gave, comparable across two processes; None when it did not run."""
    raised = row.get("raised")
    if raised is not None:
        if raised.get("on_argument") or raised["type"] == "CallTimeout":
            return None
        if "Read-only file system" in raised["message"]:  # EROFS: only the sandbox's
            return None
        return ("raised", raised["module"], raised["type"], raised["message"])
    returned = row.get("returned")
    if returned is None:
        return None
    shown = returned["repr"] if returned["literal"] else ""
    return ("returned", returned["type_module"], returned["type"], shown)


async def behaviour_change(context: CodeContext, path: str, before: str, after: str) -> str:
    """Why ``after`` does not keep what the node does in ``before`` ('' when it does).

    The workspace holds ``before`` when called and ``after`` when this returns ''; on
    any other answer it holds ``before`` again. A node that cannot be called from
    outside (a file, a class, a nested function, test code) is not checked: ''.
    """
    if node_call_target(context)["reason"]:
        context.write_text(path, after)
        return ""
    sets = derived_argument_sets(context, SETS)
    try:
        old, _ = await probe_argument_sets(context, sets, read_only=True)
        context.write_text(path, after)
        new, _ = await probe_argument_sets(context, sets, read_only=True)
    except ExternalRefused as exc:
        context.write_text(path, before)
        return f"whether the rewrite keeps what the code does could not be checked: {exc}"
    compared = 0
    for was, now in zip(old, new, strict=True):
        then, later = _answer(was), _answer(now)
        if then is None or later is None:
            continue
        if then != later:
            context.write_text(path, before)
            return (
                f"the rewrite changes what the code does: called with {was['args']} it "
                f"{_said(then)} before and {_said(later)} after"
            )
        compared += 1
    if compared == 0:
        context.write_text(path, before)
        return (
            "no call of the code could check that the rewrite keeps what it does "
            "(no derived argument set ran both times)"
        )
    return ""


def _said(answer: tuple[str, ...]) -> str:
    kind, _, type_name, shown = answer
    if kind == "raised":
        return f"raised {type_name}: {shown}" if shown else f"raised {type_name}"
    return f"returned {shown}" if shown else f"returned a {type_name}"
