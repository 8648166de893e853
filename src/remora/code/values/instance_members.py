"""Arguments that reach what a method does with its instance's own elements.

A method that looks its argument up in its instance (``key in self``, ``key in
self.index``, ``self.index[key]``, ``del self.index[key]``) does its work only for an
element the instance holds: on an empty instance, or with a key it lacks, the call
changes nothing, and a test of it shows nothing of what the method is for. A method
that compares another collection's items with its own (``all(x in other for x in
self)``, ``[x for x in self if x not in common]`` where ``common`` is built from
``*others``) or puts them in (``for x in more: self.add(x)``) says something only of a
collection of such elements: a placeholder string there is read character by character.

Both get the instance built as its class builds one: through the constructor parameter
whose items fill it (``for tag in tags: self.add(tag)``, ``self |= items``,
:func:`filling_parameter`), holding two elements. A looked-up parameter gets one of them
(and one it lacks); a parameter of elements, collections drawn from them (one of them;
both and a new one; only a new one). Where no constructor parameter fills the instance
there is no such value, and a parameter of elements no candidate at all
(:func:`member_candidates` names them). :func:`empty_variadic_call`: a method that takes
only ``*args``, called with none (``union()``), is no test of what it is for. Read with
:mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from remora import python_ast
from remora.code.values.annotations import first_head, item_annotations
from remora.code.values.attribute_uses import classes_named, init_of
from remora.code.values.call_target import CallTarget, is_instance_method
from remora.code.values.derived_sets import ClassLookup, sample_value
from remora.code.values.input_search import Candidate
from remora.code.values.method_state import first_parameter, is_self_attribute
from remora.code.values.parameters import Parameter, parameter_of
from remora.code.values.placeholders import made_up

__all__ = [
    "element_parameters",
    "empty_variadic_call",
    "filling_parameter",
    "member_candidates",
    "member_parameters",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# Calls that take a collection's items: one handed to them in ``__init__`` fills the instance.
_TAKING_ITEMS = frozenset({"list", "set", "tuple", "frozenset", "sorted", "dict", "enumerate"})
_SCALAR_HEADS = frozenset({"str", "bytes", "int", "float", "bool", "complex"})
_STARS = ("var_positional", "var_keyword")


def _is_self_or_attribute(node: ast.AST, self_name: str) -> bool:
    """``self`` or ``self.NAME``: the instance or one of its attributes."""
    return (isinstance(node, ast.Name) and node.id == self_name) or is_self_attribute(
        node, self_name
    )


def _read_as_mapping(function: Function, name: str) -> bool:
    """Whether ``function`` reads ``name`` as a mapping: ``name.items()``, ``name[k]``."""
    for node in ast.walk(function):
        viewed = isinstance(node, ast.Attribute) and node.attr in ("items", "keys", "values")
        if (viewed or isinstance(node, ast.Subscript)) and isinstance(node, ast.expr):
            read = getattr(node, "value", None)
            if isinstance(read, ast.Name) and read.id == name:
                return True
    return False


def filling_parameter(init: Function, parameters: Sequence[Parameter]) -> tuple[str, bool] | None:
    """The constructor parameter whose items ``__init__`` puts in the instance (iterated,
    handed to ``list()`` or one of the instance's methods, ``self |= items``), and whether
    it reads it as a mapping; None where no parameter fills it."""
    self_name = first_parameter(init) or "self"
    names = {
        p.name
        for p in parameters
        if p.kind not in _STARS and first_head(p.annotation) not in _SCALAR_HEADS
    }
    for node in ast.walk(init):
        fed: list[ast.expr] = []
        if isinstance(node, ast.For | ast.comprehension):
            fed = [node.iter]
        elif isinstance(node, ast.AugAssign) and _is_self_or_attribute(node.target, self_name):
            fed = [node.value]
        elif isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id in _TAKING_ITEMS) or (
                isinstance(func, ast.Attribute) and _is_self_or_attribute(func.value, self_name)
            ):
                fed = list(node.args)
        for expr in fed:
            if isinstance(expr, ast.Name) and expr.id in names:
                return expr.id, _read_as_mapping(init, expr.id)
    return None


def member_parameters(method: Function) -> list[str]:
    """The method's parameters it looks up in its instance: ``key in self``, ``key not in
    self.index``, ``self.index[key]`` read or deleted (not assigned: a new key changes
    state too)."""
    self_name = first_parameter(method) or "self"
    params = _own_parameters(method)
    found: list[str] = []
    for node in ast.walk(method):
        name = None
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name):
            pairs = zip(node.ops, node.comparators, strict=True)
            if any(
                isinstance(op, ast.In | ast.NotIn) and _is_self_or_attribute(right, self_name)
                for op, right in pairs
            ):
                name = node.left.id
        elif (
            isinstance(node, ast.Subscript)
            and not isinstance(node.ctx, ast.Store)
            and isinstance(node.slice, ast.Name)
            and _is_self_or_attribute(node.value, self_name)
        ):
            name = node.slice.id
        if name in params and name not in found:
            found.append(name)
    return found


def _own_parameters(method: Function) -> set[str]:
    """The method's parameters, ``*args`` included, less its instance."""
    args = method.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [args.vararg] if args.vararg else []
    return {a.arg for a in every} - {first_parameter(method) or "self"}


def _iterated(node: ast.AST) -> list[tuple[ast.expr, ast.expr]]:
    """``(target, iterable)`` of a ``for`` or a comprehension's ``for``."""
    if isinstance(node, ast.For | ast.comprehension):
        return [(node.target, node.iter)]
    return []


def element_parameters(method: Function) -> list[str]:
    """The method's parameters whose items are of its instance's kind: compared with its
    own (``x in other`` for an ``x`` of ``self``, ``other`` or a local built from it:
    ``common = set.intersection(*map(set, others))``; ``y in self`` for a ``y`` of
    ``other``) or handed to one of its methods (``for y in more: self.add(y)``)."""
    self_name = first_parameter(method) or "self"
    built_from = {name: name for name in _own_parameters(method)}
    for _round in range(2):  # a local built from a local built from a parameter
        for node in ast.walk(method):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                used = [n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)]
                source = next((built_from[u] for u in used if u in built_from), None)
                if isinstance(target, ast.Name) and source and target.id not in built_from:
                    built_from[target.id] = source
    own_items: set[str] = set()
    their_items: dict[str, str] = {}
    for node in ast.walk(method):
        for target, iterable in _iterated(node):
            if not isinstance(target, ast.Name):
                continue
            if _is_self_or_attribute(iterable, self_name):
                own_items.add(target.id)
            elif isinstance(iterable, ast.Name) and iterable.id in built_from:
                their_items[target.id] = built_from[iterable.id]
    found: list[str] = []
    for node in ast.walk(method):
        callee = node.func if isinstance(node, ast.Call) else None
        if isinstance(callee, ast.Attribute) and _is_self_or_attribute(callee.value, self_name):
            handed = [a.id for a in getattr(node, "args", []) if isinstance(a, ast.Name)]
            found += [their_items[a] for a in handed if a in their_items]  # self.add(item)
        if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Name)):
            continue
        if not isinstance(node.ops[0], ast.In | ast.NotIn):
            continue
        left, right = node.left.id, node.comparators[0]
        name = None
        if left in own_items and isinstance(right, ast.Name) and right.id in built_from:
            name = built_from[right.id]
        elif left in their_items and _is_self_or_attribute(right, self_name):
            name = their_items[left]
        found += [name] if name is not None else []
    return list(dict.fromkeys(found))


def empty_variadic_call(target: CallTarget, args: Mapping[str, Any]) -> bool:
    """Whether a call passes nothing to a node whose only parameters are ``*args`` (and
    ``**kwargs``): ``union()`` shows nothing of what a set operation does."""
    kinds = [str(p["kind"]) for p in target["parameters"]]
    variadic = "var_positional" in kinds and all(kind in _STARS for kind in kinds)
    return variadic and not any(args.get(str(p["name"])) for p in target["parameters"])


def _type_variables(tree: ast.Module) -> set[str]:
    """The names the module binds to a ``TypeVar(...)``: an element of any type."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name == "TypeVar":
                found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return found


def _elements(
    parameter: Parameter, first: Any, classes: ClassLookup, type_variables: set[str]
) -> list[Any]:
    """Three distinct elements: the instance's two, then one it lacks (``"new tag"``)."""
    singular = parameter.name[:-1] if parameter.name.endswith("s") else parameter.name
    singular = singular or "item"
    key, item = item_annotations(parameter.annotation)  # a mapping's key, else its items
    annotation = key or item
    annotation = None if annotation in type_variables else annotation
    found = [first] if first is not None else []
    for variant in range(2):
        value = sample_value(singular, annotation, variant, classes)
        if isinstance(value, str | int) and not isinstance(value, bool) and value not in found:
            found.append(value)
    if len(found) < 2 or type(found[0]) is not type(found[1]):
        return []
    lacking = f"new {singular}" if isinstance(found[0], str) else max(found) + 1
    return [*found[:2], lacking] if lacking not in found else []


def _given_elements(given: Any, name: str) -> list[Any]:
    """The elements of the instance the project builds (``Shelf(labels=["flour", "sugar",
    "salt"])``, a mapping's keys), where it gives at least three plain ones the search did
    not make up: its own are what a reader recognises; [] otherwise."""
    items = list(given) if isinstance(given, list | dict) else []
    plain = all(isinstance(e, str | int) and not isinstance(e, bool) for e in items)
    distinct = list(dict.fromkeys(items)) if plain else []
    return distinct if len(distinct) >= 3 and not made_up(name, distinct) else []


def member_candidates(
    target: CallTarget,
    method: Function | None,
    module_text: str,
    method_args: dict[str, Any],
    owner_args: dict[str, Any],
    classes: ClassLookup,
) -> tuple[list[Candidate], list[str]]:
    """The candidates on an instance holding elements, and the parameters of elements (a
    candidate of another source passing one is none: its value is a placeholder)."""
    if method is None or not is_instance_method(target):
        return [], []
    members, of_elements = member_parameters(method), element_parameters(method)
    if not (members or of_elements):
        return [], of_elements
    parameters = [parameter_of(p) for p in target["owner_parameters"]]
    owner_class = target["owner"].split(".")[-1]
    tree = python_ast.parse(module_text)
    init = init_of(classes_named(tree), owner_class, set())
    filling = filling_parameter(init, parameters) if init is not None else None
    if filling is None:
        return [], of_elements
    name, mapping = filling
    first = method_args.get(members[0]) if members else None
    plain = isinstance(first, str | int) and not isinstance(first, bool)
    fill = next(p for p in parameters if p.name == name)
    elements = _given_elements(owner_args.get(name), name) or _elements(
        fill, first if plain else None, classes, _type_variables(tree)
    )
    if len(elements) < 3:
        return [], of_elements
    held = elements[:2]
    owner = {**owner_args, name: {e: i for i, e in enumerate(held, 1)} if mapping else held}
    found = [Candidate({**method_args, p: held[0]}, f"self_holds_{p}", owner) for p in members]
    found += [Candidate({**method_args, p: elements[2]}, f"self_lacks_{p}", owner) for p in members]
    stars = {str(p["name"]) for p in target["parameters"] if p["kind"] == "var_positional"}
    for items, words in (
        ([held[0]], "holds_one_item_of_self"),
        ([*held, elements[2]], "holds_more_than_self"),
        ([elements[2]], "holds_no_item_of_self"),
    ):
        values = {p: [items] if p in stars else items for p in of_elements}
        found += [
            Candidate({**method_args, **values}, f"{p}_{words}", owner) for p in of_elements[:1]
        ]
    return found, of_elements
