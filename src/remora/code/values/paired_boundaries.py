"""Boundaries between two parameters: ``value < low`` tried at, below and above ``low``'s value.

A comparison of two parameters (``if value < low: ... elif value > high:``) has
no constant for the boundary search (:mod:`.input_search`) to sit beside: its
boundary moves with the other parameter. Given the argument set the search
varies, each side of such a comparison gets the values beside the other's
value there: equal to it, a step below and a step above it for numbers
(:func:`~.input_search.boundary_sides`), and equal to it for any other literal
compared with ``==``/``!=``. They are ranked as a constant's are
(:func:`~.boundary_ranks.ranked_sides`): each boundary's value at it first, then
the ones just outside.

Where the varied set gives the compared parameters the same number (``value``,
``low`` and ``high`` all 1), no value can sit between them: :func:`spread_base`
first picks distinct numbers that take the way past every early exit
(``if value < low: return low`` not taken: ``value >= low``), the call a
maintainer would write first (``clamp(5, 0, 10)``). Read with :mod:`ast`;
nothing runs here.
"""

from __future__ import annotations

import ast
import itertools
import operator
from collections.abc import Callable, Mapping
from typing import Any

from remora.code.values.boundary_ranks import ranked_sides
from remora.code.values.input_search import boundary_sides
from remora.code.values.parameters import parameter_names

__all__ = ["paired_boundaries", "spread_base"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_ORDERED = ast.Lt | ast.LtE | ast.Gt | ast.GtE
_EQUALITY = ast.Eq | ast.NotEq
_OPERATORS: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_SPREAD = (0, 5, 10, 15)  # distinct, a step apart on either side of each


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _pair(test: ast.expr, params: set[str]) -> tuple[str, ast.cmpop, str] | None:
    """``(a, op, b)`` for a test ``a op b`` of two parameters, else None."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(left, ast.Name) and isinstance(right, ast.Name)):
        return None
    if left.id == right.id or not {left.id, right.id} <= params:
        return None
    return left.id, test.ops[0], right.id


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return | ast.Raise)


def spread_base(function: Function, base: Mapping[str, Any]) -> dict[str, Any]:
    """Distinct numbers for the parameters ``base`` gives the same number, where two are
    compared, that skip every early exit on such a comparison (``if value < low:
    return low``); the first such, in the parameters' order. Empty where none is needed
    or none fits."""
    params = parameter_names(function)
    guards = [
        pair
        for node in ast.walk(function)
        if isinstance(node, ast.If) and _exits(node.body)
        if (pair := _pair(node.test, params)) is not None and type(pair[1]) in _OPERATORS
    ]
    numbers = {n for n in base if _number(base[n])}
    guards = [(a, op, b) for a, op, b in guards if {a, b} <= numbers]
    names = [n for n in base if any(n in (a, b) for a, _op, b in guards)]
    if len(names) > len(_SPREAD) or len({base[n] for n in names}) == len(names):
        return {}  # none compared, too many to try, or already distinct
    for values in itertools.permutations(_SPREAD, len(names)):
        chosen = dict(zip(names, values, strict=True))
        if not any(_OPERATORS[type(op)](chosen[a], chosen[b]) for a, op, b in guards):
            return chosen
    return {}


def _sides(value: Any, op: ast.cmpop, subject: str, other: str) -> list[tuple[Any, str]]:
    if _number(value):
        return boundary_sides(value, op, subject, other)
    if isinstance(op, _EQUALITY) and isinstance(value, str | int | bytes):  # not a sample object
        return [(value, f"{subject}_is_{other}")]
    return []


def paired_boundaries(
    function: Function, base: Mapping[str, Any]
) -> tuple[list[tuple[str, Any, str]], set[str]]:
    """``(parameter, value, words)`` beside each comparison of two parameters, the other
    one's value taken from ``base``, at the boundary first; and the words of those at it
    or just outside it (``value_is_low``, ``value_below_low``), as
    :func:`~.input_search.boundary_search` gives them."""
    params = parameter_names(function)
    ranked: list[tuple[int, str, Any, str]] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
            names = [o.id for o in (left, right) if isinstance(o, ast.Name) and o.id in params]
            if len(names) != 2 or names[0] == names[1] or not isinstance(op, _ORDERED | _EQUALITY):
                continue
            for (subject, other), is_left in zip(
                itertools.permutations(names), (True, False), strict=True
            ):
                if subject not in base or other not in base:
                    continue
                sides = _sides(base[other], op, subject, other)
                ranked += [(r, subject, v, w) for r, v, w in ranked_sides(sides, op, is_left)]
    ranked.sort(key=lambda item: item[0])
    unique: dict[tuple[str, str], tuple[str, Any, str]] = {}
    for _rank, name, value, words in ranked:
        unique.setdefault((name, repr(value)), (name, value, words))
    return list(unique.values()), {w for rank, _n, _v, w in ranked if rank <= 1}
