"""Which operator a mutant puts in place of which, and how a mutant's words write each.

The swaps of :mod:`remora.code.testgen.mutants`: a comparison for its neighbour (``<``
for ``<=``, ``==`` for ``!=``, ``in`` for ``not in``), an arithmetic or bitwise operator
for another (``+`` for ``-``, ``*`` for ``/``), each written as the code writes it; a
constant for its neighbour (``True`` for ``False``, ``n + 1``, ``"XX…XX"`` around a text).
"""

from __future__ import annotations

import ast

__all__ = ["ARITHMETIC", "COMPARE", "SYMBOLS", "constant_edit"]

COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
ARITHMETIC: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitAnd,
}
SYMBOLS: dict[type[ast.AST], str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.And: "and",
    ast.Or: "or",
}


def constant_edit(node: ast.Constant) -> tuple[bool | int | float | str, str] | None:
    """The value a constant's mutant puts in its place, and the words for it (None for a
    constant of another kind)."""
    value = node.value
    if isinstance(value, bool):
        return (not value), f"{value} -> {not value}"
    if isinstance(value, int | float):
        return value + 1, f"{value!r} -> {value + 1!r}"
    if isinstance(value, str):
        return f"XX{value}XX", f"{value[:20]!r} -> {'XX' + value[:20] + 'XX'!r}"
    return None
