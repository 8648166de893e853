"""A method that looks its argument up in its instance, or takes a collection of the
instance's kind of elements, is tried on an instance that holds elements.

Made-up project: tests/shelf_source.py's ``Shelf`` of labels filled from its constructor's
``labels`` (``for label in labels: self.put(label)``), whose ``take`` does its work only for
a label it holds, and whose ``within``, ``minus`` and ``merge`` compare or put another
collection's items with its own. Real ``ast``; nothing runs.
"""

from __future__ import annotations

import ast
from typing import Any, cast

from shelf_source import SHELF

from remora.code.values.attribute_uses import classes_named, init_of
from remora.code.values.call_target import CallTarget
from remora.code.values.class_lookup import class_lookup
from remora.code.values.constructor import constructor_of
from remora.code.values.instance_members import (
    element_parameters,
    empty_variadic_call,
    filling_parameter,
    member_candidates,
    member_parameters,
)

_TREE = ast.parse(SHELF)
_CLASSES = classes_named(_TREE)


def _method(owner: str, name: str) -> ast.FunctionDef:
    found = next(
        s for s in _CLASSES[owner].body if isinstance(s, ast.FunctionDef) and s.name == name
    )
    return found


def _target(owner: str, name: str) -> CallTarget:
    method = _method(owner, name)
    parameters: list[dict[str, Any]] = []
    for arg in method.args.args[1:]:
        parameters.append({"name": arg.arg, "kind": "positional_or_keyword", "default": None})
    if method.args.vararg:
        parameters.append({"name": method.args.vararg.arg, "kind": "var_positional"})
    owner_parameters = [
        {"name": p.name, "kind": p.kind, "annotation": p.annotation, "default": p.default}
        for p in constructor_of(SHELF, owner).parameters
    ]
    return cast(
        CallTarget,
        {
            "kind": "method",
            "method_kind": "instance",
            "owner": owner,
            "qualname": f"{owner}.{name}",
            "name": name,
            "parameters": parameters,
            "owner_parameters": owner_parameters,
        },
    )


def test_a_parameter_looked_up_in_the_instance_or_its_attribute_is_a_member() -> None:
    assert member_parameters(_method("Shelf", "take")) == ["label"]
    assert member_parameters(_method("Shelf", "slot")) == ["label"]
    # Assigned under a key (put) is no lookup: a new key changes the instance too.
    assert member_parameters(_method("Shelf", "put")) == []
    assert member_parameters(_method("Shelf", "resize")) == []


def test_a_parameter_whose_items_meet_the_instance_s_is_one_of_elements() -> None:
    assert element_parameters(_method("Shelf", "within")) == ["other"]
    assert element_parameters(_method("Shelf", "minus")) == ["groups"]  # through `gone`
    assert element_parameters(_method("Shelf", "merge")) == ["more"]  # self.put(label)
    assert element_parameters(_method("Shelf", "take")) == []


def test_the_constructor_parameter_whose_items_fill_the_instance_is_found() -> None:
    init = init_of(_CLASSES, "Shelf", set())
    assert init is not None
    assert filling_parameter(init, constructor_of(SHELF, "Shelf").parameters) == (
        "labels",
        False,
    )
    loose = init_of(_CLASSES, "Loose", set())
    assert loose is not None
    assert filling_parameter(loose, constructor_of(SHELF, "Loose").parameters) is None


def test_a_looked_up_parameter_gets_an_element_the_instance_was_built_with() -> None:
    # Before: only the typical owner (labels=None) with label="sample label": take changed
    # nothing, and its test was named "changes order and where".
    found, of_elements = member_candidates(
        _target("Shelf", "take"),
        _method("Shelf", "take"),
        SHELF,
        {"label": "sample label"},
        {"labels": None, "width": 3},
        class_lookup(SHELF),
    )
    assert of_elements == []
    held = [c for c in found if c.why == "self_holds_label"]
    assert len(held) == 1 and held[0].owner_args is not None
    labels = held[0].owner_args["labels"]
    assert held[0].args["label"] in labels and len(labels) == 2
    assert held[0].owner_args["width"] == 3
    lacking = [c for c in found if c.why == "self_lacks_label"]
    assert lacking and lacking[0].args["label"] not in labels


def test_a_parameter_of_elements_gets_collections_drawn_from_the_instance_s() -> None:
    found, of_elements = member_candidates(
        _target("Shelf", "within"),
        _method("Shelf", "within"),
        SHELF,
        {"other": "sample other"},
        {"labels": None, "width": 3},
        class_lookup(SHELF),
    )
    assert of_elements == ["other"]
    owner = found[0].owner_args
    assert owner is not None
    held = owner["labels"]
    values = {c.why: c.args["other"] for c in found}
    assert values == {
        "other_holds_one_item_of_self": held[:1],
        "other_holds_more_than_self": [*held, values["other_holds_no_item_of_self"][0]],
        "other_holds_no_item_of_self": [values["other_holds_no_item_of_self"][0]],
    }
    assert all(not isinstance(value, str) for value in values.values())
    # *groups: each value is one group, a list of the instance's kind of elements.
    found, _ = member_candidates(
        _target("Shelf", "minus"),
        _method("Shelf", "minus"),
        SHELF,
        {},
        {"labels": None, "width": 3},
        class_lookup(SHELF),
    )
    assert found[0].args["groups"] == [held[:1]]


def test_a_class_no_constructor_parameter_fills_gets_no_made_up_member() -> None:
    found, _ = member_candidates(
        _target("Loose", "has"),
        _method("Loose", "has"),
        SHELF,
        {"key": "sample key"},
        {"first": "sample first"},
        class_lookup(SHELF),
    )
    assert found == []


def test_a_set_operation_called_with_no_argument_is_no_test() -> None:
    target = _target("Shelf", "minus")
    assert empty_variadic_call(target, {})
    assert empty_variadic_call(target, {"groups": []})
    assert not empty_variadic_call(target, {"groups": [["a"]]})
    assert not empty_variadic_call(_target("Shelf", "take"), {})


GENERIC = """\
from typing import Generic, Iterable, TypeVar

E = TypeVar("E")


class Pile(Generic[E]):
    def __init__(self, start: Iterable[E] = None):
        self.kept: list[E] = []
        if start is not None:
            self.kept.extend(start)

    def drop(self, entry: E):
        if entry in self.kept:
            self.kept.remove(entry)
"""


def test_elements_of_a_type_variable_are_of_any_type_not_none() -> None:
    pile = next(n for n in ast.parse(GENERIC).body if isinstance(n, ast.ClassDef))
    drop = pile.body[1]
    assert isinstance(drop, ast.FunctionDef)
    params = constructor_of(GENERIC, "Pile").parameters
    target = cast(
        CallTarget,
        {
            "kind": "method",
            "method_kind": "instance",
            "owner": "Pile",
            "parameters": [{"name": "entry", "kind": "positional_or_keyword"}],
            "owner_parameters": [
                {"name": p.name, "kind": p.kind, "annotation": p.annotation, "default": p.default}
                for p in params
            ],
        },
    )
    found, _ = member_candidates(target, drop, GENERIC, {}, {"start": None}, class_lookup(GENERIC))
    held = next(c for c in found if c.why == "self_holds_entry")
    assert held.owner_args is not None and held.args["entry"] in held.owner_args["start"]
    assert None not in held.owner_args["start"]
