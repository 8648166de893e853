"""Instances a method's reads of its own state ask for, and the state a method changes.

Nothing here runs code; everything is read from the syntax tree with :mod:`ast`.

* :func:`owner_variants`: a method that branches on its instance's state
  (``self.status != "open"``, ``self.placed_at is None``, ``for line in
  self.lines``, ``self.items[sku]``) gets owners built with constructor
  arguments on each side of that boundary (the boundaries of
  :func:`remora.code.values.input_search.boundary_values`, read on the method with
  ``self.ATTR`` standing for a parameter) and with one-item collections whose
  item the constructor rules build. Only attributes a constructor parameter
  sets are varied: state that only other methods set is left alone, never
  written by hand.
* :func:`filled_candidates`: the same method on owners given content through the
  class's own public methods (or its ``__setitem__``) before the call
  (:mod:`.filled_instances`): the overwrite, the order, the eviction at a small bound.
"""

from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.parsing import ast_tree
from remora.code.values.annotations import builtin_kind
from remora.code.values.attribute_uses import (
    attribute_parameters,
    classes_named,
    stored_kinds,
    unfit_value,
)
from remora.code.values.call_target import CallTarget, is_instance_method
from remora.code.values.collection_items import collection_uses, one_item_values
from remora.code.values.derived_sets import ClassLookup, literal_default, sample_value
from remora.code.values.filled_instances import filled_owners
from remora.code.values.input_search import Candidate, boundary_values
from remora.code.values.method_state import (
    class_methods,
    first_parameter,
    is_self_attribute,
    read_as_parameters,
)
from remora.code.values.parameters import Parameter, parameter_of
from remora.code.values.value_words import label

__all__ = [
    "OwnerVariant",
    "class_strings",
    "filled_candidates",
    "owner_candidates",
    "owner_variants",
    "state_boundaries",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# (the owner's constructor arguments, words for the test name)
OwnerVariant = tuple[dict[str, Any], str]

MAX_OWNER_VARIANTS = 16


def class_strings(module_text: str, owner: str) -> dict[str, list[str]]:
    """``attribute -> the strings the class compares it with or gives it`` in source order
    (``self.status == "shipped"``, ``self.status = "placed"``, ``status: str = "open"``),
    and those a method returns where on another path it returns the attribute itself
    (pyfiglet's ``direction``: ``'left-to-right'`` where ``self._direction`` is
    ``'auto'``, else ``self._direction``): the states it knows, better values for the
    other side of ``!= "open"`` than ``""`` (a blind reviewer: "pass a real value such as
    'right-to-left'")."""
    cls = classes_named(python_ast.parse(module_text)).get(owner.split(".")[-1])
    found: dict[str, list[str]] = {}

    def note(attribute: str, value: ast.expr) -> None:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            known = found.setdefault(attribute, [])
            if value.value not in known:
                known.append(value.value)

    for stmt in cls.body if cls is not None else []:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value:
            note(stmt.target.id, stmt.value)
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        self_name = first_parameter(stmt) or "self"
        for node in ast.walk(stmt):
            pairs: list[tuple[ast.expr, ast.expr]] = []
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                pairs = list(itertools.pairwise(operands))
                pairs += [(b, a) for a, b in pairs]
            elif isinstance(node, ast.Assign):
                pairs = [(target, node.value) for target in node.targets]
            for subject, value in pairs:
                if is_self_attribute(subject, self_name) and isinstance(subject, ast.Attribute):
                    note(subject.attr, value)
        for attribute in _handed_back(stmt, self_name):  # its other answers are its kind
            for node in ast.walk(stmt):
                if isinstance(node, ast.Return) and node.value is not None:
                    note(attribute, node.value)
    return found


def _handed_back(method: Function, self_name: str) -> set[str]:
    """The attributes ``method`` returns as they are on some path (``return
    self._direction``): the texts it returns on its others are of the same kind."""
    return {
        node.value.attr
        for node in ast.walk(method)
        if isinstance(node, ast.Return)
        and isinstance(node.value, ast.Attribute)
        and is_self_attribute(node.value, self_name)
    }


def owner_variants(
    method: Function,
    attributes: dict[str, Parameter],
    owner_args: dict[str, Any],
    method_args: dict[str, Any],
    classes: ClassLookup,
    states: dict[str, list[str]] | None = None,
    uses: Mapping[str, str] | None = None,
    module: ast.Module | None = None,
    imported: Mapping[str, Any] | None = None,
) -> list[OwnerVariant]:
    """Owners whose state takes the method's branches: each change alone, then each value
    change with the first one-item collection (a branch inside a loop needs both).

    ``states`` (:func:`class_strings`): where the method compares an attribute with a
    string, each string the class knows for it is tried instead of the boundary's ``""``.
    ``uses`` (:func:`~remora.code.values.attribute_uses.stored_kinds`): a parameter the
    class uses as a mapping is one in the method's boundaries, empty where the method reads
    it, and never a value of a kind the class's uses exclude. ``module`` and ``imported``
    resolve the constants the method compares with (``self.kind == KIND_ADDED``)."""
    uses = uses or {}
    self_name = first_parameter(method)
    if self_name is None:
        return []
    # Given, or left at its default: an instance the project builds passing only some of
    # its parameters still varies the others the method reads.
    readable = {a for a, p in attributes.items() if p.name in owner_args or p.default is not None}
    kinds: dict[str, str] = {}
    for attribute in readable:
        kind = builtin_kind(attributes[attribute].annotation)
        known, default = literal_default(attributes[attribute].default)
        if kind:
            kinds[f"self_{attribute}"] = kind
        elif known and default is not None:
            kinds[f"self_{attribute}"] = type(default).__name__
        elif uses.get(attributes[attribute].name) == "dict":
            kinds[f"self_{attribute}"] = "dict"
    as_function = read_as_parameters(method, self_name, readable)
    read = {n.id for n in ast.walk(as_function) if isinstance(n, ast.Name)}
    values: list[tuple[str, Any, str]] = boundary_values(as_function, kinds, module, imported)
    for name, value, _words in list(values):
        parameter = attributes[name.removeprefix("self_")]
        typical = sample_value(parameter.name, parameter.annotation, 1, classes)
        if value is None and typical is not None:  # `is None` has a side that is set
            values.append((name, typical, f"{name}_is_set"))
    compared = {name for name, value, _words in values if isinstance(value, str)}
    class_knows = {
        name: strings
        for name in compared
        # two or more: whatever string it is compared with, one of them is on the other side
        if len(strings := (states or {}).get(name.removeprefix("self_"), [])) > 1
    }
    values = [v for v in values if v[0] not in class_knows or v[1] != ""]  # a state, not ""
    for name, strings in sorted(class_knows.items()):
        values += [(name, state, f"{name}_is_{label(state)}") for state in strings]
    changes = [(name.removeprefix("self_"), value, words) for name, value, words in values]
    changes += [
        (a, {}, f"self_{a}_is_empty")
        for a in sorted(readable)
        if uses.get(attributes[a].name) == "dict" and f"self_{a}" in read
    ]
    collections: list[tuple[str, Any, str]] = []
    for attribute, use in collection_uses(method, self_name, readable).items():
        for value, words in one_item_values(attributes[attribute], use, method_args, classes):
            collections.append((attribute, value, words))
    found: list[OwnerVariant] = []
    seen = [owner_args]

    def add(changed: dict[str, Any], words: str) -> None:
        args = {**owner_args, **{attributes[a].name: v for a, v in changed.items()}}
        if args not in seen and unfit_value(args, uses) is None:
            seen.append(args)
            found.append((args, words))

    for attribute, value, words in [*changes, *collections]:
        add({attribute: value}, words)
    for attribute, value, words in changes:
        for other, items, item_words in collections[:1]:
            if other != attribute:
                add(
                    {attribute: value, other: items},
                    f"{words}_and_{item_words.removeprefix('self_')}",
                )
    return found[:MAX_OWNER_VARIANTS]


class _SelfAsConstants(ast.NodeTransformer):
    """``self.ATTR`` read -> the instance's number for it, so ``amount > self.quantity``
    reads as a comparison with a constant."""

    def __init__(self, self_name: str, numbers: dict[str, int | float]) -> None:
        self.self_name = self_name
        self.numbers = numbers

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if is_self_attribute(node, self.self_name) and node.attr in self.numbers:
            return ast.copy_location(ast.Constant(self.numbers[node.attr]), node)
        return self.generic_visit(node)


def state_boundaries(
    method: Function,
    module_text: str,
    target: CallTarget,
    owner_args: dict[str, Any],
    kinds: dict[str, str],
) -> list[tuple[str, Any, str]]:
    """The boundaries of the method's parameters against its instance's numbers:
    ``amount > self.quantity`` on an instance built with ``quantity=12`` gives ``amount``
    12 and 13, the state the test's instance has, not a made-up edge of its own."""
    self_name = first_parameter(method)
    if self_name is None or not is_instance_method(target):
        return []
    parameters = [parameter_of(p) for p in target["owner_parameters"]]
    numbers: dict[str, int | float] = {}
    for attribute, parameter in attribute_parameters(
        module_text, target["owner"], parameters
    ).items():
        value = owner_args.get(parameter.name)
        if isinstance(value, int | float) and not isinstance(value, bool):
            numbers[attribute] = value
    if not numbers:
        return []
    as_constants = _SelfAsConstants(self_name, numbers).visit(copy.deepcopy(method))
    return boundary_values(as_constants, kinds)


def owner_candidates(
    target: CallTarget,
    method: Function | None,
    module_text: str,
    method_args: dict[str, Any],
    owner_args: dict[str, Any],
    classes: ClassLookup,
    imported: Mapping[str, Any] | None = None,
) -> list[Candidate]:
    """The method's typical arguments on each owner of :func:`owner_variants` (``imported``:
    the constants the module imports from the project's other modules)."""
    if method is None or not is_instance_method(target):
        return []
    parameters = [parameter_of(p) for p in target["owner_parameters"]]
    attributes = attribute_parameters(module_text, target["owner"], parameters)
    states = class_strings(module_text, target["owner"])
    uses = stored_kinds(module_text, target["owner"], parameters)
    module = ast_tree(module_text)
    variants = owner_variants(
        method, attributes, owner_args, method_args, classes, states, uses, module, imported
    )
    return [Candidate(dict(method_args), words, owner) for owner, words in variants]


def filled_candidates(
    target: CallTarget,
    method: Function | None,
    module_text: str,
    method_args: dict[str, Any],
    owner_args: dict[str, Any],
    classes: ClassLookup,
    aliases: Mapping[str, str] | None = None,
) -> list[Candidate]:
    """The method's typical arguments on owners already holding content
    (:func:`~remora.code.values.filled_instances.filled_owners`); ``aliases``: the
    module's, through which an adder's parameter annotated as a callable is seen as one."""
    if method is None or not is_instance_method(target):
        return []
    parameters = [parameter_of(p) for p in target["owner_parameters"]]
    attributes = attribute_parameters(module_text, target["owner"], parameters)
    siblings = class_methods(module_text, method, inherited=True)
    filled = filled_owners(
        method, siblings, attributes, owner_args, method_args, classes, aliases or {}
    )
    return [Candidate(dict(method_args), words, owner) for owner, words in filled]
