"""What a mapping parameter's values are, read from what the code does with them.

A parameter the code reads as a mapping
(:func:`~remora.code.values.collection_arguments.dict_parameters`: ``p.items()``,
``p[k]`` in a loop over ``p``, or handed to a module function that reads it so) holds
values no annotation describes. They are followed through the names the code binds them
to (``for k, v in p.items()``, ``for v in p.values()``, ``v = p[k]``) and through the
dict comprehensions built from ``p`` (``q = {k: set(v) for k, v in p.items()}``: ``q``'s
values are ``p``'s, converted), and their uses say the kind: ``v - seen`` (``seen`` a
set), ``v & other``, ``v.discard(x)`` a set; ``v.append(x)`` a list; ``for e in v``,
``len(v)``, ``x in v``, ``set(v)`` some collection (a list); ``v + 1`` a number;
``v.lower()`` a string. A collection whose items are compared with the mapping's keys
(``e != k``, ``e in p``, ``p[e]``) refers to them, as a graph's edges do: its samples are
a diamond (with a leaf no key holds), a chain, a cycle and an item naming itself, for the
probe's coverage and the mutants to choose among (the empty mapping is
:mod:`~remora.code.values.collection_arguments`'s). Read with :mod:`ast`; nothing runs.
A set goes to the probe as ``{"__set__": [items]}``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from remora import python_ast
from remora.code.values.call_render import SET_MARKER
from remora.code.values.collection_arguments import dict_parameters, helpers_given
from remora.code.values.keyed_arguments import reads_of_keys
from remora.code.values.usage_kinds import method_kind

__all__ = ["mapping_samples", "value_shape"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The kinds a value's uses can say, the most telling first: one set operation outweighs
# any number of loops over it (a loop runs over a list as well as over a set).
_PRECEDENCE = ("set", "list", "dict", "str", "number", "collection")
_TAKE_A_COLLECTION = frozenset(
    {"set", "frozenset", "len", "sorted", "list", "tuple", "any", "all", "min", "max", "sum"}
)
_SET_OPERATORS = ast.Sub | ast.BitAnd | ast.BitOr | ast.BitXor


@dataclass
class _Flow:
    """The names a mapping parameter's parts are bound to, in one function."""

    mappings: set[str]  # the parameter, and mappings built from it
    keys: set[str] = field(default_factory=set)
    values: set[str] = field(default_factory=set)
    sets: set[str] = field(default_factory=set)  # names the function binds to a new set
    key_sets: set[str] = field(default_factory=set)  # ... to a set of the mapping's keys


def _iterated(node: ast.expr, mappings: set[str]) -> str:
    """``items``, ``keys`` or ``values`` for what a loop over ``node`` gives of a mapping."""
    if isinstance(node, ast.Name) and node.id in mappings:
        return "keys"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in mappings
        and node.func.attr in ("items", "keys", "values")
        and not node.args
    ):
        return node.func.attr
    return ""


def _value_read(node: ast.AST, mappings: set[str]) -> bool:
    """``m[k]`` or ``m.get(k)`` of a mapping in ``mappings``."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return isinstance(node.value, ast.Name) and node.value.id in mappings
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in mappings
    )


def _is_set(node: ast.expr, sets: set[str]) -> bool:
    if isinstance(node, ast.Set | ast.SetComp):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in ("set", "frozenset")
    return isinstance(node, ast.Name) and node.id in sets


def _flow(function: Function, name: str) -> _Flow:
    flow = _Flow({name})
    assigns = [n for n in ast.walk(function) if isinstance(n, ast.Assign)]
    for assign in assigns:
        if _is_set(assign.value, set()):
            flow.sets |= {t.id for t in assign.targets if isinstance(t, ast.Name)}
    for _ in range(3):  # a mapping built from one built from the parameter
        for assign in assigns:
            built = assign.value
            if isinstance(built, ast.DictComp) and any(
                _iterated(g.iter, flow.mappings) for g in built.generators
            ):
                flow.mappings |= {t.id for t in assign.targets if isinstance(t, ast.Name)}
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            how, target = _iterated(node.iter, flow.mappings), node.target
            if how == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                flow.keys |= _names(target.elts[0])
                flow.values |= _names(target.elts[1])
            elif how:
                (flow.values if how == "values" else flow.keys).update(_names(target))
        elif isinstance(node, ast.Assign) and _value_read(node.value, flow.mappings):
            flow.values |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    for assign in assigns:
        if _of_keys(assign.value, flow):
            flow.key_sets |= {t.id for t in assign.targets if isinstance(t, ast.Name)}
    return flow


def _of_keys(node: ast.expr, flow: _Flow) -> bool:
    """A set of the mapping's keys: ``{k for k, v in m.items() if ...}``, ``set(m)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        if node.func.id not in ("set", "frozenset"):
            return False
        node = node.args[0]
        if _iterated(node, flow.mappings) == "keys":
            return True
    return isinstance(node, ast.SetComp | ast.GeneratorExp) and bool(_names(node.elt) & flow.keys)


def _names(node: ast.expr) -> set[str]:
    return {node.id} if isinstance(node, ast.Name) else set()


def _constant_kind(node: ast.expr) -> str:
    if isinstance(node, ast.List | ast.ListComp):
        return "list"
    try:
        value = python_ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"
    return "str" if isinstance(value, str) else ""


def _use_kind(node: ast.expr, parent: ast.AST | None, flow: _Flow) -> str:
    """The kind one use of a value says: ``node`` is the value, ``parent`` what holds it."""
    if isinstance(parent, ast.BinOp | ast.AugAssign):
        left = parent.left if isinstance(parent, ast.BinOp) else parent.target
        right = parent.right if isinstance(parent, ast.BinOp) else parent.value
        other = right if left is node else left
        if _constant_kind(other):
            return _constant_kind(other)
        # ``deps - done`` with ``done`` a set; ``prices[a] - prices[b]`` says nothing
        return "set" if isinstance(parent.op, _SET_OPERATORS) and _is_set(other, flow.sets) else ""
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return method_kind(parent.attr) or ""
    if isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension) and parent.iter is node:
        return "collection"
    if isinstance(parent, ast.Call) and node in parent.args:
        taker = parent.func
        if isinstance(taker, ast.Name) and taker.id in _TAKE_A_COLLECTION:
            return "collection"
        if isinstance(taker, ast.Attribute) and taker.attr in ("update", "extend"):
            return "collection"
    if isinstance(parent, ast.Compare):
        if node in parent.comparators:
            index = parent.comparators.index(node)
            if isinstance(parent.ops[index], ast.In | ast.NotIn):
                return "collection"
        others = [parent.left, *parent.comparators]
        return next((_constant_kind(o) for o in others if o is not node and _constant_kind(o)), "")
    return ""


def _is_value(node: ast.AST, flow: _Flow) -> bool:
    return (isinstance(node, ast.Name) and node.id in flow.values) or _value_read(
        node, flow.mappings
    )


def _refers(function: Function, flow: _Flow) -> bool:
    """Whether the items of the values are compared with the mapping's keys, looked up in
    it, or taken from a set of its keys: ``e != key``, ``e in graph``, ``graph[e]``,
    ``deps - done``."""
    items: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and _is_value(
            node.iter, flow
        ):
            items |= _names(node.target)
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            names = {o.id for o in [node.left, *node.comparators] if isinstance(o, ast.Name)}
            if names & items and names & (flow.keys | flow.mappings):
                return True
        elif isinstance(node, ast.BinOp) and isinstance(node.op, _SET_OPERATORS):
            sides = (node.left, node.right)
            keyed = any(_names(s) & flow.key_sets or _of_keys(s, flow) for s in sides)
            if keyed and any(_is_value(s, flow) for s in sides):
                return True  # ``needs - done``, ``done`` a set of keys
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id in flow.mappings
            and _names(node.slice) & items
        ):
            return True
    return False


def value_shape(function: Function, name: str) -> tuple[str, bool]:
    """(the kind the uses of mapping parameter ``name``'s values say: ``set``, ``list``,
    ``dict``, ``str``, ``number``, ``collection``, or ``""``; whether a collection's items
    refer to the mapping's keys)."""
    flow = _flow(function, name)
    parents: dict[int, ast.AST] = {}
    for parent in ast.walk(function):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    kinds = {
        _use_kind(node, parents.get(id(node)), flow)
        for node in ast.walk(function)
        if isinstance(node, ast.expr) and _is_value(node, flow)
    }
    if flow.values & flow.mappings:  # ``d = d[k]``: a value read as the mapping is, nested
        kinds.add("dict")
    kind = next((k for k in _PRECEDENCE if k in kinds), "")
    collection = kind in ("set", "list", "collection")
    return kind, collection and _refers(function, flow)


def _collection(kind: str, *items: str) -> Any:
    return {SET_MARKER: sorted(items)} if kind == "set" else sorted(items)


def _samples_of(kind: str, refers: bool) -> list[tuple[dict[str, Any], str]]:
    """Small mappings of that shape, with the words that say each: the first is typical."""
    if kind in ("set", "list", "collection") and refers:

        def items(*names: str) -> Any:
            return _collection(kind, *names)

        return [  # "a" is named by no key of the first: a leaf its values name
            ({"b": items("a"), "c": items("a"), "d": items("b", "c")}, "is_a_diamond"),
            ({"a": items(), "b": items("a"), "c": items("b")}, "is_a_chain"),
            ({"a": items("b"), "b": items("a")}, "has_a_cycle"),
            ({"a": items("a"), "b": items("a")}, "has_an_item_naming_itself"),
        ]
    if kind in ("set", "list", "collection"):
        return [({"a": _collection(kind, "x", "y"), "b": _collection(kind)}, "holds_collections")]
    if kind == "str":
        return [({"a": "x", "b": ""}, "holds_strings")]
    if kind == "dict":
        return [({"a": {"x": 1}, "b": {}}, "holds_dicts")]
    return []  # a number: the dict sample already holds 1 and 0


def _shape_in(
    function: Function, name: str, module: ast.Module | None, depth: int
) -> tuple[str, bool]:
    """The shape the function's own uses say, else a module function's it hands it to."""
    kind, refers = value_shape(function, name)
    if kind or not depth:
        return kind, refers
    for helper, taken in helpers_given(function, name, module):
        kind, refers = _shape_in(helper, taken, module, depth - 1)
        if kind:
            return kind, refers
    return "", False


def mapping_samples(
    function: Function, module: ast.Module | None = None
) -> dict[str, list[tuple[dict[str, Any], str]]]:
    """For each unannotated mapping parameter whose values' uses say their kind,
    ``(value, words)`` samples of that shape, the typical one first."""
    arguments = function.args
    unannotated = {
        a.arg
        for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        if a.annotation is None
    }
    found: dict[str, list[tuple[dict[str, Any], str]]] = {}
    for name in sorted(dict_parameters(function, module) & unannotated):
        if any(reads_of_keys(function, name)):
            continue  # a record read by its keys (``data["customer"]``): keyed_arguments'
        samples = _samples_of(*_shape_in(function, name, module, 2))
        if samples:
            found[name] = [(value, f"{name}_{words}") for value, words in samples]
    return found
