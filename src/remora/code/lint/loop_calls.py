"""A finding whose fix puts a call in a loop where the code only compared is not offered.

Ruff's fix of PLR1730 turns ``if x < lo: lo = x`` into ``lo = min(lo, x)``: the same
result, but a builtin call on every pass where the ``if`` compared and mostly did
nothing. Inside a loop that is the loop's cost, and code written that way in a loop is
often written so on purpose: more-itertools' ``minmax`` compares pairs by hand, and a
blind reviewer, who measured the rewrite five times slower on a million floats, rejected
it. Such a finding is left out of the node's findings, so that neither ruff's fix nor a
drafted rewrite makes it; outside a loop the call costs nothing worth a maintainer's read
and the finding stands.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast

__all__ = ["call_in_a_loop"]

# Rules whose fix replaces a comparison with a call of min() or max().
_CALL_FOR_COMPARISON = frozenset({"PLR1730"})
_Loop = ast.For | ast.AsyncFor | ast.While


def _loop_rows(text: str) -> list[tuple[int, int]]:
    """The first and last rows of each loop's body in ``text`` (none when it does not
    parse)."""
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return []
    return [
        (loop.body[0].lineno, loop.body[-1].end_lineno or loop.body[-1].lineno)
        for loop in ast.walk(tree)
        if isinstance(loop, _Loop)
    ]


def call_in_a_loop(record: dict[str, Any], text: str) -> bool:
    """Whether fixing ``record`` (a ruff finding of ``text``) makes a comparison inside a
    loop a call."""
    if record.get("code") not in _CALL_FOR_COMPARISON:
        return False
    row = int((record.get("location") or {}).get("row") or 0)
    return any(first <= row <= last for first, last in _loop_rows(text))
