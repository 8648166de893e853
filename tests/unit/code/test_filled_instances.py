"""Instances given content through their class's own methods before the call
(values/filled_instances.py), and the test's lines that build them (values/call_render.py)."""

from __future__ import annotations

import ast
from typing import Any

from call_targets import method_target

from remora.code.values.call_render import CallRender
from remora.code.values.class_lookup import class_lookup
from remora.code.values.filled_instances import (
    CALLS_KEY,
    constructor_arguments,
    filled_owners,
    is_filled,
)
from remora.code.values.method_state import class_methods
from remora.code.values.parameters import Parameter
from remora.code.values.type_aliases import module_aliases

BOUNDED = """\
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent:
    def __init__(self, limit=None):
        self.limit = limit
        self.slots = {}

    @property
    def keys(self):
        return list(self.slots)

    def put(self, key: K, value: V):
        if key in self.slots:
            del self.slots[key]
        self.slots[key] = value
        if self.limit is not None and len(self.slots) > self.limit:
            del self.slots[next(iter(self.slots))]

    def fetch(self, key, default=None):
        return self.slots.get(key, default)

    def describe(self):
        return "recent"
"""


def _method(name: str) -> ast.FunctionDef:
    tree = ast.parse(BOUNDED)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _owners(name: str, method_args: dict[str, Any]) -> dict[str, dict[str, Any]]:
    method = _method(name)
    found = filled_owners(
        method,
        class_methods(BOUNDED, method),
        {"limit": Parameter("limit", "positional_or_keyword", None, "None")},
        {"limit": None},
        method_args,
        lambda _name: None,
    )
    return {words: owner for owner, words in found}


def _calls(owner: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    return [(step["method"], step["args"]) for step in owner[CALLS_KEY]]


def test_an_adder_is_filled_with_the_same_key_for_the_overwrite_and_another_for_the_bound() -> None:
    owners = _owners("put", {"key": "alpha", "value": "sample value"})
    assert set(owners) == {"key_is_already_stored", "key_is_the_oldest_of_2", "full"}
    # The same key, another value: the call's overwrite shows.
    assert _calls(owners["key_is_already_stored"]) == [("put", ["alpha", "other value"])]
    assert _calls(owners["key_is_the_oldest_of_2"]) == [
        ("put", ["alpha", "other value"]),
        ("put", ["beta", "other value"]),
    ]
    # Another key at a bound of one: the call's own key goes past it.
    assert owners["full"]["limit"] == 1
    assert _calls(owners["full"]) == [("put", ["beta", "other value"])]


def test_a_reader_is_filled_through_a_sibling_that_changes_what_it_reads() -> None:
    owners = _owners("fetch", {"key": "alpha"})
    assert _calls(owners["key_is_already_stored"]) == [("put", ["alpha", "other value"])]
    assert "full" not in owners  # fetch compares nothing with the limit
    assert _calls(owners["holding_another_key"]) == [("put", ["beta", "other value"])]


def test_a_method_reading_no_state_an_adder_changes_gets_no_filled_owner() -> None:
    assert _owners("describe", {}) == {}


def test_a_filled_owner_is_built_then_filled_in_the_test() -> None:
    target = method_target("recent", "Recent", "put")
    owner = {"limit": 1, CALLS_KEY: [{"method": "put", "args": ["beta", 2], "keywords": {}}]}
    assert is_filled(owner) and not is_filled({"limit": 1})
    assert constructor_arguments(owner) == {"limit": 1}
    call, lines = CallRender(target, set()).call({}, owner)
    assert lines == ["recent = Recent(limit=1)", "recent.put('beta', 2)"]
    assert call == "recent.put()"


def test_a_method_looking_nothing_up_is_given_two_entries_in_order() -> None:
    owners = _owners("keys", {})
    assert _calls(owners["holding_2_entries"]) == [
        ("put", ["beta", "other value"]),
        ("put", ["alpha", "sample value"]),
    ]


HEAP = """\
class Base:
    def __init__(self):
        self.order = []
        self.store = {}

    def __setitem__(self, key, value):
        self.store[key] = value
        self._place(key)

    def _place(self, key):
        self.order.append(key)

    def __getitem__(self, key):
        return self.store[key]


class Ranked(Base):
    def lowest(self):
        key = min(self.order, key=self.store.__getitem__)
        return key, self.store[key]

    def clear(self):
        del self.order[:]
        self.store.clear()


class Plain:
    def __init__(self):
        self.store = {}

    def __setitem__(self, key, value, stamp=None):
        self.store[key] = value

    def read(self, key):
        return self.store[key]
"""


def _heap_owners(name: str, method_args: dict[str, Any]) -> dict[str, dict[str, Any]]:
    tree = ast.parse(HEAP)
    method = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
    siblings = class_methods(HEAP, method, inherited=True)
    found = filled_owners(method, siblings, {}, {}, method_args, lambda _name: None)
    return {words: owner for owner, words in found}


def test_a_mapping_whose_only_adder_is_setitem_is_filled_through_it() -> None:
    # `read` looks its key up: the same key set first, then another key alone; the
    # setter's defaulted `stamp` is left to its default.
    owners = _heap_owners("read", {"key": "alpha"})
    assert _calls(owners["key_is_already_stored"]) == [("__setitem__", ["alpha", "other value"])]
    assert _calls(owners["holding_another_key"]) == [("__setitem__", ["beta", "other value"])]


def test_a_setitem_a_project_base_defines_fills_the_subclass() -> None:
    # Ranked defines no adder; Base's __setitem__ changes `order` and `store` (through
    # `_place`, also Base's), which `lowest` and `clear` read.
    for name in ("lowest", "clear"):
        owners = _heap_owners(name, {})
        assert _calls(owners["holding_2_entries"]) == [
            ("__setitem__", ["beta", "other value"]),
            ("__setitem__", ["alpha", "sample value"]),
        ]
    # Without the bases' methods, nothing fills it.
    method = next(
        n for n in ast.walk(ast.parse(HEAP)) if isinstance(n, ast.FunctionDef) and n.name == "clear"
    )
    assert "__setitem__" not in class_methods(HEAP, method)
    assert set(class_methods(HEAP, method, inherited=True)) == {
        "__init__",
        "__setitem__",
        "_place",
        "__getitem__",
        "lowest",
        "clear",
    }


def test_an_item_set_is_written_as_the_assignment_its_users_write() -> None:
    target = method_target("ranked", "Ranked", "lowest")
    steps = [{"method": "__setitem__", "args": ["beta", 2], "keywords": {}}]
    _call, lines = CallRender(target, {"Ranked"}).call({}, {CALLS_KEY: steps})
    assert lines == ["ranked = Ranked()", "ranked['beta'] = 2"]


BAG = """\
class Bag:
    def __init__(self):
        self._set = set()
        self._list = []

    def pop(self, index=-1):
        value = self._list.pop(index)
        self._set.remove(value)
        return value

    def add(self, value):
        if value not in self._set:
            self._set.add(value)
            self._list.append(value)

    def count(self, value):
        return 1 if value in self._set else 0
"""


def test_a_method_that_only_takes_items_away_fills_nothing() -> None:
    # `pop` changes what `count` reads and takes a parameter, but fills nothing: an
    # instance "filled" by `pop()` holds no `value`, whatever the test's name said.
    method = next(
        n for n in ast.walk(ast.parse(BAG)) if isinstance(n, ast.FunctionDef) and n.name == "count"
    )
    found = filled_owners(
        method, class_methods(BAG, method), {}, {}, {"value": "c"}, lambda _name: None
    )
    owners = {words: owner for owner, words in found}
    assert _calls(owners["value_is_already_stored"]) == [("add", ["c"])], owners


LISTENED = """\
from typing import TypeVar

Bound = TypeVar("Bound", bound="Listener")


class Listener:
    pass


class Breaker:
    def __init__(self):
        self._listeners = []

    @property
    def listeners(self):
        return tuple(self._listeners)

    def add_listener(self, listener: Bound) -> None:
        self._listeners.append(listener)
"""


def test_an_adder_s_parameter_takes_what_its_alias_stands_for() -> None:
    # pybreaker's ``add_listener(listener: CBListenerType)``, a TypeVar bound to its
    # listener class, was filled with the made-up strings "sample listener" and "other
    # listener": a blind reviewer's "plain strings are not listeners".
    tree = ast.parse(LISTENED)
    method = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "listeners"
    )
    found = filled_owners(
        method,
        class_methods(LISTENED, method),
        {},
        {},
        {},
        class_lookup(LISTENED),
        module_aliases(tree),
    )
    owners = {words: owner for owner, words in found}
    listener = {"__class__": "Listener", "args": {}}
    assert _calls(owners["holding_an_entry"]) == [("add_listener", [listener])]
