"""Floats that are not finite, for code that asks ``math.isfinite`` about a parameter.

``if not math.isfinite(float(value)): return _format_not_finite(...)`` is one
branch that no ordinary number reaches, and the helper behind it branches again
on NaN, +inf and -inf. Each of those three is tried for a parameter that
``math.isfinite``, ``math.isinf`` or ``math.isnan`` examines (directly, through a
conversion such as ``float(value)``, or through a local computed from it).
Read with :mod:`ast`; nothing runs here. A test writes them ``float("nan")``...
(:mod:`remora.code.values.call_render`).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from typing import Any

from remora.code.values.input_sources import substitute
from remora.code.values.parameters import parameter_names

__all__ = ["non_finite_values"]

_PREDICATES = frozenset({"isfinite", "isinf", "isnan"})
_VALUES: tuple[tuple[float, str], ...] = (
    (math.nan, "nan"),
    (math.inf, "infinite"),
    (-math.inf, "minus_infinite"),
)


def non_finite_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef, derived: Mapping[str, ast.expr]
) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)``: NaN, inf and -inf for each parameter a ``math``
    finiteness test examines (``derived``: locals computed from one parameter)."""
    params = parameter_names(function)
    names: list[str] = []
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "math"
            and node.func.attr in _PREDICATES
            and len(node.args) == 1
        ):
            continue
        found = {
            n.id
            for n in ast.walk(substitute(node.args[0], derived))
            if isinstance(n, ast.Name) and n.id in params
        }
        if len(found) == 1 and (name := found.pop()) not in names:
            names.append(name)
    return [(name, value, f"{name}_is_{words}") for name in names for value, words in _VALUES]
