"""What a parameter's use says it is: ``p.get(...)`` a dict, ``p.lower()`` a string, ``p(x)``
a callable, ``p >> 10`` an integer; read with :mod:`ast`, nothing runs.
"""

from __future__ import annotations

import ast
from typing import Any

from remora.code.values.kind_samples import TYPICAL, used_sample
from remora.code.values.parameters import parameter_names

__all__ = [
    "called_parameters",
    "method_kind",
    "usage_kind_names",
    "usage_kinds",
]

_TAKES_A_CALLABLE = frozenset({"map", "filter", "sorted", "min", "max", "reduce"})


def called_parameters(call: ast.Call, params: set[str]) -> list[str]:
    """Parameters ``call`` calls (``func(x)``) or hands on to be called (``map(func, xs)``,
    ``sorted(xs, key=func)``)."""
    if isinstance(call.func, ast.Name) and call.func.id in params:
        return [call.func.id]
    name = call.func.id if isinstance(call.func, ast.Name) else ""
    handed = call.args[:1] if name in _TAKES_A_CALLABLE - {"sorted", "min", "max"} else []
    handed += [k.value for k in call.keywords if k.arg == "key"]
    return [a.id for a in handed if isinstance(a, ast.Name) and a.id in params]


_METHOD_KINDS = {
    "get": "dict",
    "items": "dict",
    "keys": "dict",
    "values": "dict",
    "lower": "str",
    "upper": "str",
    "strip": "str",
    "split": "str",
    "startswith": "str",
    "endswith": "str",
    "append": "list",
    "extend": "list",
    "insert": "list",
    "add": "set",
    "discard": "set",
    "difference": "set",
    "intersection": "set",
    "union": "set",
    "issubset": "set",
    "issuperset": "set",
    "isdisjoint": "set",
    "symmetric_difference": "set",
}


def method_kind(method: str) -> str | None:
    """The kind a call of ``method`` on a value says it is: ``lower`` a str, ``items`` a
    dict, ``append`` a list, ``discard`` a set; None for a method several kinds have."""
    return _METHOD_KINDS.get(method)


def _integer_operation(node: ast.BinOp) -> bool:
    """``p >> 10``, ``p & 3``, ``p // 2``, ``p % 7``: integer arithmetic. A ``%`` is only so
    beside a number: ``"Invalid version: %r" % version_string`` formats a text (its right
    side was read as an integer, and every test of a parser called it with ``0``)."""
    if isinstance(node.op, ast.RShift | ast.LShift | ast.BitAnd | ast.BitOr | ast.FloorDiv):
        return True
    number = [
        isinstance(side, ast.Constant) and type(side.value) in (int, float)
        for side in (node.left, node.right)
    ]
    return isinstance(node.op, ast.Mod) and any(number)


def usage_kind_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """The kind (``dict``, ``str``, ``list``, ``set``, ``int``, ``callable``) each parameter's
    first telling use says."""
    params = parameter_names(function)
    kinds: dict[str, str] = {}
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in params
            and node.func.attr in _METHOD_KINDS
        ):
            kinds.setdefault(node.func.value.id, _METHOD_KINDS[node.func.attr])
        elif isinstance(node, ast.Call):
            for name in called_parameters(node, params):
                kinds.setdefault(name, "callable")
        elif isinstance(node, ast.BinOp) and _integer_operation(node):
            for side in (node.left, node.right):
                if isinstance(side, ast.Name) and side.id in params:
                    kinds.setdefault(side.id, "int")
    return kinds


def usage_kinds(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, Any]:
    """A sample value for each parameter whose use says its type: ``p.get(...)`` a dict,
    ``p.lower()`` a string, ``p >> 10`` or ``p & 3`` an integer (first use wins). A set has
    no sample here: ``p.add(x)`` is as often a project object's method."""
    kinds = usage_kind_names(function).items()
    return {name: used_sample(kind) for name, kind in kinds if kind in TYPICAL}
