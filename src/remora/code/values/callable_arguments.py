"""Arguments for the parameters a function calls, read from its syntax tree (nothing runs).

A parameter the code calls gets the builtin ``str`` by default
(:data:`remora.code.values.kind_samples.CALLABLE_SAMPLE`). That reaches one side of a
branch at most when the code branches on what the call returns (``if
predicate(v):``), and none when the code calls it with no argument and uses the
result as a container (``rv = factory(); rv.update(d)``). Here:

* a call whose result is a truth test (``if p(x):``, ``not p(x)``, ``p(x) and
  ...``) gives the parameter a function returning True and one returning False
  (``{"__returns__": True}``, written ``lambda *args, **kwargs: True``); where every
  call of the parameter passes the same plain names and nothing else (``pred(item)``,
  ``pred(cur, nxt)``), the value holds them (``"__takes__": ["item"]``) and is written
  ``lambda item: True``, as a reader writes a predicate;
* ``callable(p)`` tested gives a value that is not callable, for the other side;
* a parameter called with no arguments whose default is a name (``factory=dict``)
  keeps its default; without one it gets ``dict``;
* a parameter whose ``__name__`` (``__qualname__``...) the code reads is a function.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora.code.values.kind_samples import sample
from remora.code.values.parameters import parameter_names

__all__ = ["called_parameter_values", "parent_map", "truth_tested"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_CONSTANTS = frozenset({"None", "True", "False"})
_FUNCTION_ATTRIBUTES = frozenset({"__name__", "__qualname__", "__module__", "__wrapped__"})


def parent_map(function: ast.AST) -> dict[int, ast.AST]:
    """Each node's parent in ``function``'s tree, by the node's ``id``."""
    return {id(c): p for p in ast.walk(function) for c in ast.iter_child_nodes(p)}


def truth_tested(node: ast.expr, parents: Mapping[int, ast.AST]) -> bool:
    """Whether the value of ``node`` decides a branch: the test of an ``if``, ``while``,
    conditional expression, ``assert`` or comprehension filter, directly or through
    ``not`` and ``and``/``or``."""
    child: ast.AST = node
    parent = parents.get(id(child))
    while isinstance(parent, ast.BoolOp) or (
        isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
    ):
        child, parent = parent, parents.get(id(parent))
    if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert):
        return parent.test is child
    return isinstance(parent, ast.comprehension) and any(c is child for c in parent.ifs)


def _called(call: ast.Call, params: set[str]) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) and call.func.id in params else None


def _takes(function: Function, name: str) -> list[str] | None:
    """The names every call of the parameter ``name`` passes, when each passes the same
    number of plain, distinct names positionally and nothing else, and the parameter is
    read nowhere but in those calls (None otherwise: ``filter(pred, items)`` calls it as
    ``filter`` does)."""
    reads = 0
    shapes: list[tuple[str, ...]] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            reads += 1
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            names = [a.id for a in node.args if isinstance(a, ast.Name)]
            if node.keywords or len(names) != len(node.args) or len(set(names)) != len(names):
                return None
            shapes.append(tuple(names))
    # Every read is a call's callee: the parameter is handed to nothing else.
    if not shapes or len({len(shape) for shape in shapes}) != 1 or reads != len(shapes):
        return None
    return list(min(shapes))


def _returning(value: bool, takes: list[str] | None) -> dict[str, Any]:
    return {"__returns__": value} if takes is None else {"__returns__": value, "__takes__": takes}


def called_parameter_values(
    function: Function, defaults: Mapping[str, str | None]
) -> tuple[set[str], dict[str, Any], list[tuple[str, Any, str]]]:
    """(parameters left to their default, base values, ``(parameter, value, words)`` to
    try) for the parameters the function calls; ``defaults`` maps a parameter to its
    default's source (None without one)."""
    params = parameter_names(function)
    parents = parent_map(function)
    keep_default: set[str] = set()
    base: dict[str, Any] = {}
    values: list[tuple[str, Any, str]] = []
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in _FUNCTION_ATTRIBUTES
            and isinstance(node.value, ast.Name)
            and node.value.id in params
        ):
            base.setdefault(node.value.id, sample("callable"))  # ``f.__name__``: a function
        if not isinstance(node, ast.Call):
            continue
        name = _called(node, params)
        if name is not None and not node.args and not node.keywords:
            default = defaults.get(name)
            named = default is not None and default not in _CONSTANTS
            if named and str(default).replace(".", "").isidentifier():
                keep_default.add(name)  # ``factory=dict``: what the code is written for
            else:
                base[name] = {"__callable__": "dict"}
        if name is not None and truth_tested(node, parents):
            takes = _takes(function, name)
            values += [
                (name, _returning(True, takes), f"{name}_returns_true"),
                (name, _returning(False, takes), f"{name}_returns_false"),
            ]
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "callable"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in params
            and truth_tested(node, parents)
        ):
            values.append((node.args[0].id, 0, f"{node.args[0].id}_is_not_callable"))
    return keep_default, base, values
