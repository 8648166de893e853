"""The parameter's value that gives an expression of it the value a comparison wants.

:func:`remora.code.values.input_search.boundary_values` reads the values on each side of
a comparison for the compared expression: ``year % 400 == 0`` wants ``year % 400`` at
0 and at 1. The argument is a value of the parameter that gives the expression that
value. For arithmetic of one parameter (``+ - * / // % **``, numbers, module constants)
folded with :func:`remora.code.values.input_sources.fold_constant` (the parameter bound
to an integer; nothing runs): a line (``n - 3``, no ``%``, ``//`` or ``**``) is solved
from two of its points; otherwise :class:`Solver` tries integers near the parameter's
typical value (``year``: 2024) and near the wanted value. Among the integers that
give the wanted value, the one meeting the fewest of the function's other equalities on
the same parameter is taken: for ``year % 100 == 0`` beside ``year % 400 == 0`` a year
like 2100, not 2000, which the other comparison has already; each nested rule is reached.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from remora.code.values.derived_sets import sample_value
from remora.code.values.input_sources import Scope, fold_constant, substitute

__all__ = ["Solver", "anchor_of", "is_arithmetic"]

_NEAR = 64  # how far from the wanted value a plain shift (``n + 1``) is looked for
_MAX_WINDOW = 1024  # how far from the typical value a residue is looked for
# Operators whose value steps or wraps: the search tries integers one by one; arithmetic
# without them is a line (``n - 3``), solved from two points.
_STEPPED = (ast.Mod, ast.FloorDiv, ast.Pow)


def anchor_of(name: str, kind: str | None) -> int:
    """The parameter's typical integer (``year``: 2024), where a solved value is looked for."""
    value = sample_value(name, "float" if kind == "float" else "int", 0, lambda _name: None)
    return int(value)


def is_arithmetic(node: ast.expr, name: str) -> bool:
    """Whether ``node`` is arithmetic of the parameter ``name`` and numbers alone
    (``year % 400``, ``n * 2 + 1``), not the bare parameter."""
    if isinstance(node, ast.Name):
        return False
    allowed = (ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.operator, ast.unaryop)
    uses = False
    for part in ast.walk(node):
        if not isinstance(part, allowed) and not isinstance(part, ast.expr_context):
            return False
        if isinstance(part, ast.Constant) and not _number(part.value):
            return False
        uses = uses or (isinstance(part, ast.Name) and part.id == name)
    return uses


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _largest_constant(node: ast.expr, constants: Mapping[str, Any]) -> int:
    found = [
        abs(int(n.value))
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, int | float)
    ]
    found += [
        abs(int(constants[n.id]))
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and _number(constants.get(n.id))
    ]
    return max(found, default=1)


@dataclass
class Solver:
    """Solves ``expression(parameter) == wanted`` for the parameters of one function."""

    scope: Scope
    anchors: Mapping[str, int]  # each parameter's typical integer, where the search starts
    equalities: dict[str, list[tuple[ast.expr, Any]]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        scope: Scope,
        anchors: Mapping[str, int],
    ) -> Solver:
        """A solver knowing the function's equalities of arithmetic on one parameter
        (``year % 4 == 0``), each kept for the others to avoid."""
        solver = cls(scope, anchors)
        for node in ast.walk(function):
            if not isinstance(node, ast.Compare) or len(node.ops) != 1:
                continue
            if not isinstance(node.ops[0], ast.Eq | ast.NotEq):
                continue
            subject = substitute(node.left, scope.derived)
            name = scope.parameter_in(subject)
            known, value = scope.constant(node.comparators[0])
            if name is not None and known and _number(value) and is_arithmetic(subject, name):
                solver.equalities.setdefault(name, []).append((subject, value))
        return solver

    def _value(self, expression: ast.expr, name: str, x: int) -> Any:
        known, value = fold_constant(expression, {**self.scope.constants, name: x})
        return value if known else None

    def solve(self, expression: ast.expr, name: str, wanted: Any) -> int | None:
        """An integer for ``name`` giving ``expression`` the value ``wanted`` (None: none
        found near the typical value or the wanted one)."""
        if not _number(wanted):
            return None
        if not any(isinstance(n, _STEPPED) for n in ast.walk(expression)):
            return self._solve_linear(expression, name, wanted)
        anchor = self.anchors.get(name, 1)
        window = min(2 * _largest_constant(expression, self.scope.constants) + 1, _MAX_WINDOW)
        others = [
            (e, v) for e, v in self.equalities.get(name, []) if ast.dump(e) != ast.dump(expression)
        ]
        best: tuple[int, int, int] | None = None  # (others met, distance, value)
        tried: set[int] = set()
        near = int(wanted) if abs(wanted) < 2**62 else anchor
        for center, reach in ((anchor, window), (near, _NEAR)):
            for step in range(reach + 1):
                for x in (center - step, center + step):
                    if x in tried:
                        continue
                    tried.add(x)
                    if self._value(expression, name, x) != wanted:
                        continue
                    met = sum(self._value(e, name, x) == v for e, v in others)
                    score = (met, abs(x - anchor), x)
                    best = score if best is None or score < best else best
                if best is not None and best[0] == 0:
                    return best[2]  # the nearest meeting no other rule
        return best[2] if best is not None else None

    def _solve_linear(self, expression: ast.expr, name: str, wanted: Any) -> int | None:
        """``n - 3``, ``2 * n + 1``: the integer read off the line through two points,
        kept when it gives ``wanted`` exactly (``n * 2 == 7``: none)."""
        start, step = self._value(expression, name, 0), self._value(expression, name, 1)
        if not (_number(start) and _number(step)) or step == start:
            return None
        guess = (wanted - start) / (step - start)
        if not math.isfinite(guess) or abs(guess) > 2**62:
            return None
        x = round(guess)
        return x if self._value(expression, name, x) == wanted else None
