"""A parameter in a test name: its own name, or, for one of one or two letters, what the
code does with it.

``test_get_when_k_is_missing_returns_d`` leaves a reader to decode ``k`` and ``d``; the
code says what they are. A parameter with a default that a node looking up a key
returns as it is (``return d``, ``return v if ok else d``) or hands on as the lookup's
fallback (``self.data.get(k, d)``, ``pop(k, d)``) is the ``default``; one it tests with ``in`` or
``not in`` on its instance or an attribute of it (``k in self``, ``k not in
self.data``), indexes them with (``self.data[k]``) or looks up (``self.data.get(k)``)
is the ``key``; one it stores under a key (``self.data[k] = v``) is the ``value``. A
short name the code gives none of these uses keeps its letters (``when_x_is_bool``), as
do two that would read alike, or one whose word another parameter is named.

The instance's own state is named by its attribute (:func:`state_words`):
``when_line_type_is_plus`` for ``self.line_type``, the value search's ``self_line_type``
without its ``self_``, unless a parameter of the method is named so (``when_self_status``
beside a ``status`` argument). Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from remora.code.testgen.no_op_calls import returned_branches
from remora.code.values import first_parameter, is_self_attribute
from remora.code.values.parameters import function_parameters

__all__ = ["in_words", "parameter_words", "state_words"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# A name this short says nothing of what it holds.
_MAX_SHORT = 2
# Methods that look a key up in a mapping: (key, default) by position.
_LOOKUPS = frozenset({"get", "pop", "setdefault"})
# The words that put a parameter after them in a condition (``amount_above_limit``).
_OBJECT_WORDS = frozenset({"above", "below"})


def _holds(node: ast.AST, self_name: str | None) -> bool:
    """Whether ``node`` is the instance or an attribute of it (``self``, ``self.data``)."""
    if self_name is None:
        return False
    return (isinstance(node, ast.Name) and node.id == self_name) or is_self_attribute(
        node, self_name
    )


def _name(node: ast.AST | None) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _lookup(node: ast.AST, self_name: str | None) -> list[ast.expr]:
    """The arguments of ``self.data.get(...)``-like call (``get``, ``pop``, ``setdefault``
    on the instance or an attribute of it); none for another node."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _LOOKUPS
        and _holds(node.func.value, self_name)
    ):
        return list(node.args)
    return []


def _uses(function: Function, self_name: str | None) -> Iterator[tuple[str, str]]:
    """(name, word) for each use of a name that says what it holds."""
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            yield from ((n, "default") for b in returned_branches(node.value) if (n := _name(b)))
        elif isinstance(node, ast.Compare):
            lefts = [node.left, *node.comparators[:-1]]
            for left, op, right in zip(lefts, node.ops, node.comparators, strict=True):
                if isinstance(op, ast.In | ast.NotIn) and _holds(right, self_name):
                    yield from ((n, "key") for n in [_name(left)] if n)
        elif isinstance(node, ast.Subscript) and _holds(node.value, self_name):
            yield from ((n, "key") for n in [_name(node.slice)] if n)
        elif looked_up := _lookup(node, self_name):
            yield from (
                (n, w)
                for a, w in zip(looked_up, ("key", "default"), strict=False)
                if (n := _name(a))
            )
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Subscript) and _holds(t.value, self_name) for t in node.targets
        ):
            yield from ((n, "value") for n in [_name(node.value)] if n)


def parameter_words(function: Function | None, args: Mapping[str, Any]) -> dict[str, str]:
    """The word for each short parameter of ``function`` the code gives a use (module
    docstring): ``{"k": "key", "d": "default"}``. ``args``: the call's arguments; the
    first parameter is the instance where the call does not give it."""
    if function is None:
        return {}
    first = first_parameter(function)
    self_name = first if first is not None and first not in args else None
    declared = [p for p in function_parameters(function.args) if p.name != self_name]
    parameters = {p.name for p in declared}
    uses = [(name, word) for name, word in _uses(function, self_name) if name in parameters]
    # A returned parameter is a fallback only beside a key: ``return lo`` in a clamp is not.
    keyed = any(word == "key" for _, word in uses)
    defaults = {p.name for p in declared if p.default} if keyed else set()
    found: dict[str, str] = {}
    for name, word in uses:
        short = len(name.strip("_")) <= _MAX_SHORT
        if short and name not in found and (word != "default" or name in defaults):
            found[name] = word
    words = list(found.values())
    return {
        name: word
        for name, word in found.items()
        if words.count(word) == 1 and word not in parameters
    }


def in_words(words: str, renamed: Mapping[str, str]) -> str:
    """A condition's words (``k_is_missing_and_d_is_none``) with each parameter where a
    clause names its subject or the other side of a comparison put in its word
    (``key_is_missing_and_default_is_none``)."""
    if not renamed:
        return words
    clauses = []
    for clause in words.split("_and_"):
        parts = clause.split("_")
        clauses.append(
            "_".join(
                renamed.get(part, part) if i == 0 or parts[i - 1] in _OBJECT_WORDS else part
                for i, part in enumerate(parts)
            )
        )
    return "_and_".join(clauses)


def state_words(words: str, function: Function | None) -> str:
    """A condition's words with ``self_<attribute>`` as ``<attribute>`` where the method
    reads that attribute of its instance and no parameter of it has that name."""
    if function is None or "self_" not in words or (self_name := first_parameter(function)) is None:
        return words
    attributes = {
        node.attr
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute) and is_self_attribute(node, self_name)
    }
    taken = {p.arg for p in ast.walk(function.args) if isinstance(p, ast.arg)}
    clauses = []
    for clause in words.split("_and_"):
        rest = clause.removeprefix("self_")
        named = next((a for a in attributes if rest == a or rest.startswith(f"{a}_")), None)
        clauses.append(rest if named is not None and named not in taken else clause)
    return "_and_".join(clauses)
