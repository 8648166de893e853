"""Which values beside a boundary tell the code from its mutants, first.

``n <= 10`` is told from ``n < 10`` by 10 and from ``n <= 11`` by 11; 9 tells it from no
mutant the other two leave alive. The test search sends only a few candidates beyond
those that add coverage to the mutation check (:mod:`remora.code.testgen.test_search`),
so each boundary's value at it goes first, then the one just outside it, and the
redundant side last: a function with four boundaries (two ranges) gets each of them
tried before the second value of any.
"""

from __future__ import annotations

import ast
from typing import Any

__all__ = ["ranked_sides"]

# Which side of ``subject op c`` (subject on the left) says nothing its other two do not:
# ``n <= c`` is told from its mutants (``<``, ``c + 1``) by c and c + 1, never c - 1.
_REDUNDANT_SIDE = {ast.Lt: "above", ast.LtE: "below", ast.Gt: "below", ast.GtE: "above"}
_FLIPPED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}


def ranked_sides(
    sides: list[tuple[Any, str]], op: ast.cmpop, left: bool
) -> list[tuple[int, Any, str]]:
    """Each side with its rank: the value at the boundary first (0), then the one just
    outside it (1), the one telling no mutant apart last (2): ``n <= 10`` -> 10, 11, 9."""
    kind = type(op) if left else _FLIPPED.get(type(op), type(op))
    redundant = _REDUNDANT_SIDE.get(kind, "")
    ranked = []
    for value, words in sides:
        side = "below" if "_below_" in words else "above" if "_above_" in words else "at"
        rank = 0 if side == "at" else 2 if side == redundant else 1
        ranked.append((rank, value, words))
    return ranked
