"""An adder that replaces what a method reads fills no "2 entries" (issue 56).

A blind reviewer rejected a parser state's ``find_line_end`` test named ``when holding 2
entries``: the instance was filled by ``process(src)`` twice, and ``process`` sets
``self.src``, so it held the second text alone. The class below is invented.
"""

from __future__ import annotations

import ast
from typing import Any

from remora.code.values.filled_instances import CALLS_KEY, filled_owners
from remora.code.values.method_state import class_methods
from remora.code.values.replacing_setters import replaces_state

STATE = """\
class State:
    def __init__(self):
        self.src = ""
        self.cursor = 0
        self.lines = []
        self.total = 0

    def process(self, src: str):
        self.src = src
        self.cursor = 0

    def load(self, src: str):
        self._reset(src)

    def _reset(self, src):
        self.src = src.strip()

    def feed(self, line: str):
        self.lines.append(line)

    def grow(self, n: int):
        self.total = self.total + n

    def line_end(self):
        return self.src.find("\\n", self.cursor)

    def count(self):
        return len(self.lines) + self.total
"""


def _method(name: str) -> ast.FunctionDef:
    tree = ast.parse(STATE)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def test_a_plain_assignment_replaces_and_an_append_or_a_sum_adds() -> None:
    siblings = class_methods(STATE, _method("process"))
    assert replaces_state(_method("process"), {"src", "cursor"}, siblings)
    assert replaces_state(_method("load"), {"src"}, siblings)  # through its helper
    assert not replaces_state(_method("feed"), {"lines"}, siblings)
    assert not replaces_state(_method("grow"), {"total"}, siblings)  # built from the old
    assert not replaces_state(_method("process"), {"lines"}, siblings)  # changes none read


def _owners(name: str, method_args: dict[str, Any]) -> dict[str, list[str]]:
    method = _method(name)
    found = filled_owners(
        method, class_methods(STATE, method), {}, {}, method_args, lambda _name: None
    )
    return {words: [step["method"] for step in owner[CALLS_KEY]] for owner, words in found}


def test_a_reader_of_what_a_setter_replaces_is_filled_by_one_call_named_for_it() -> None:
    assert _owners("line_end", {}) == {"after_process": ["process"]}
    assert _owners("count", {}) == {"holding_2_entries": ["feed", "feed"]}
    assert _owners("process", {"src": "a\\nb"}) == {}  # the setter itself: nothing before it
