"""What a method changes includes what the methods of its class it calls on its instance
change (values/method_state.py): a procedure that hands its new state to a helper is
observed through the attributes the helper assigns."""

from __future__ import annotations

import ast

from call_targets import method_target

from remora.code.values.method_state import (
    changed_attributes,
    class_methods,
    observed_attributes,
    state_readers,
)
from remora.code.values.own_contents import stores_unstable_items

ROSTER = """
from typing import overload


class Roster:
    def __init__(self, names):
        self._replace(list(names))

    def _replace(self, names):
        self.names = names
        self.index = {name: i for i, name in enumerate(names)}

    def drop(self, name):
        self._replace([n for n in self.names if n != name])

    def swap(self, old, new):
        self.drop(old)
        self.names.append(new)
        self._log = (old, new)

    def again(self, times):
        if times:
            self.again(times - 1)

    @overload
    def find(self, name: str) -> int: ...
    @overload
    def find(self, name: int) -> str: ...
    def find(self, name):
        return self.index[name]


def drop(roster, name):
    roster.drop(name)
"""


def definition(name: str, inside: str = "Roster") -> ast.FunctionDef:
    tree = ast.parse(ROSTER)
    scopes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == inside] or [tree]
    found = [n for n in scopes[0].body if isinstance(n, ast.FunctionDef) and n.name == name]
    return found[-1]


def test_a_method_that_hands_its_state_to_a_helper_changes_what_the_helper_assigns() -> None:
    siblings = class_methods(ROSTER, definition("drop"))
    assert changed_attributes(definition("drop")) == []  # its own body assigns nothing
    assert changed_attributes(definition("drop"), siblings) == ["names", "index"]


def test_the_helpers_calls_are_followed_in_turn_and_a_private_attribute_left_out() -> None:
    siblings = class_methods(ROSTER, definition("swap"))
    assert changed_attributes(definition("swap"), siblings) == ["names", "index"]


def test_a_method_that_calls_itself_is_read_once() -> None:
    siblings = class_methods(ROSTER, definition("again"))
    assert changed_attributes(definition("again"), siblings) == []


def test_the_class_methods_are_those_of_the_methods_own_class() -> None:
    methods = class_methods(ROSTER, definition("drop"))
    assert sorted(methods) == ["__init__", "_replace", "again", "drop", "find", "swap"]
    assert methods["find"].decorator_list == []  # an overloaded name: its implementation
    assert class_methods(ROSTER, definition("drop", inside="")) == {}  # a module's function


CLOCKED = """
import random
import time


class Stamps(dict):
    def stamp(self, key):
        self[key] = time.time()

    def later(self, key):
        when = time.monotonic()
        super().__setitem__(key, when)

    def roll(self, key):
        self._put(key, random.random())

    def _put(self, key, value):
        self[key] = value

    def lucky(self):
        self.append(random.choice([1, 2]))

    def note(self, key, text):
        self[key] = text
        self.seen = time.time()

    def rename(self, old, new):
        self[new] = self.pop(old)
"""


def test_items_stored_from_a_clock_or_a_random_source_are_told_apart() -> None:
    tree = ast.parse(CLOCKED)
    stamps = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    methods = {n.name: n for n in stamps.body if isinstance(n, ast.FunctionDef)}
    unstable = {name for name, m in methods.items() if stores_unstable_items(m, methods)}
    # `roll` hands its random value to a helper that stores it: a value it stores too. Not
    # `_put` itself (its value is an argument), nor `note` (the clock's is an attribute).
    assert unstable == {"stamp", "later", "roll", "lucky"}


STORE = """
class Store:
    def __init__(self):
        self.memory = None
        self._log = []

    def read(self):
        return self.memory

    def history(self):
        return list(self._log)

    def reset(self):
        self._log.clear()
        return True

    @property
    def size(self):
        return len(self._log)

    def write(self, data):
        self.memory = data
        self._log.append(data)

    def swap(self, data):
        old = self.memory
        self.memory = data
        return old
"""


def _store_method(name: str) -> ast.FunctionDef:
    tree = ast.parse(STORE)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def test_readers_are_public_properties_and_methods_taking_nothing_that_change_nothing() -> None:
    readers = state_readers(STORE, _store_method("write"), {"memory", "_log"})
    # reset() changes the log: no reader; read() hands memory back as it is.
    assert set(readers) == {"read()", "history()", "size"}
    assert readers["read()"].returned == {"memory"}
    assert readers["size"].returned == set()


def test_a_procedure_is_observed_through_its_readers_not_an_attribute_one_returns() -> None:
    observed = observed_attributes(
        method_target("store", "Store", "write"), _store_method("write"), STORE
    )
    assert observed == ["read()", "history()", "size"]


def test_a_method_returning_a_value_keeps_its_public_attribute() -> None:
    observed = observed_attributes(
        method_target("store", "Store", "swap"), _store_method("swap"), STORE
    )
    assert observed == ["memory"]
