"""A call the node's computation left as it was: the value it returned is one of its inputs.

``escape("sample s") == "sample s"``: the input holds none of the characters
``escape`` replaces, so an identity function would pass the test as well; blind
reviewers reject such tests as pinning nothing (issue 56), and the mutation check
keeps them, since they still fail the mutant that returns None. A probed call is
no candidate when the text, bytes or collection it returned equals (same type,
same value) one of its arguments or of its instance's constructor arguments,
while no ``return`` of the node hands a parameter or an attribute on as it is
(``return value`` in a clamp, ``return self.name`` in a getter, either branch of
``a if c else b``, ``return str(value)`` for what a formatter cannot read): where
every return computes its value, a call whose value is its input shows nothing of
the computation. A number or a boolean equal to an input is as often a coincidence
(``0``, ``1``, ``True``) and is left to the mutation check. Read with :mod:`ast`;
nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from remora import python_ast
from remora.code.values import parameter_names

__all__ = ["hands_on_an_input", "returned_branches", "returns_an_input"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_COMPUTED_KINDS = (str, bytes, list, tuple, dict, set, frozenset)
_CONVERSIONS = frozenset({"str", "bytes", "list", "tuple", "dict", "set", "frozenset"})


def returned_branches(value: ast.expr) -> Iterator[ast.expr]:
    """The values a ``return`` of ``value`` may give as they are: either branch of
    ``a if c else b``, each operand of ``and``/``or``, else the value itself."""
    if isinstance(value, ast.IfExp):
        yield from returned_branches(value.body)
        yield from returned_branches(value.orelse)
    elif isinstance(value, ast.BoolOp):
        for operand in value.values:
            yield from returned_branches(operand)
    else:
        yield value


def _returned_as_is(value: ast.expr, names: set[str]) -> bool:
    """A parameter or an attribute of one (``self.name``), in any branch of the value."""
    return any(_given_as_is(branch, names) for branch in returned_branches(value))


def _given_as_is(value: ast.expr, names: set[str]) -> bool:
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in _CONVERSIONS
        and len(value.args) == 1
    ):
        value = value.args[0]  # ``str(value)``: the input as it is, in another type
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, ast.Name) and value.id in names


def hands_on_an_input(function: Function) -> bool:
    """Whether a ``return`` of the function gives a parameter (``self`` included) or an
    attribute of one as it is, or the function yields (a generator's items are its own)."""
    names = parameter_names(function)
    for node in ast.walk(function):
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if isinstance(node, ast.Return) and node.value and _returned_as_is(node.value, names):
            return True
    return False


def returns_an_input(row: Mapping[str, Any], owner_args: Mapping[str, Any] | None) -> bool:
    """Whether the probed call ``row`` returned text, bytes or a collection equal to one of
    its arguments or its instance's (``row``'s own ``owner_args``, else ``owner_args``)."""
    returned = row.get("returned") or {}
    if row.get("raised") or not returned.get("literal"):
        return False
    value = python_ast.literal_eval(returned["repr"])
    if not isinstance(value, _COMPUTED_KINDS):
        return False
    owner = row.get("owner_args") if row.get("owner_args") is not None else owner_args
    inputs = [*(row.get("args") or {}).values(), *(owner or {}).values()]
    return any(type(given) is type(value) and given == value for given in inputs)
