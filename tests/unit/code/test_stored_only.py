"""Whether a filling method only keeps what it is given (values/stored_only.py), and the
filled instances that follow from it: a made-up value goes only where it is kept."""

from __future__ import annotations

import ast

import pytest

from remora.code.values.filled_instances import CALLS_KEY, filled_owners
from remora.code.values.method_state import class_methods
from remora.code.values.stored_only import only_stored

KEEPERS = """\
class Store:
    def __init__(self):
        self.slots = {}
        self.seen = set()
        self.rows = []
        self.last = None
        self.out = []

    def put(self, key, value):
        self.slots[key] = value

    def remember(self, value):
        if value not in self.seen:
            self.seen.add(value)
            self.rows.append((len(self.rows), value))

    def keep(self, value):
        self.last = value
        return value

    def handle(self, data):
        self.out.append(data.strip())

    def feed(self, data):
        self.out.extend(parse(data))

    def tag(self, data):
        self.last = data + "!"

    def dump(self):
        return "".join(self.out)
"""


def _method(name: str) -> ast.FunctionDef:
    tree = ast.parse(KEEPERS)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize(
    ("method", "parameter", "kept"),
    [
        ("put", "value", True),  # stored under a key
        ("put", "key", True),  # a key, as it is
        ("remember", "value", True),  # looked up, added, put in a row
        ("keep", "value", True),  # an attribute, and handed back
        ("handle", "data", False),  # an attribute of it read: it is worked with
        ("feed", "data", False),  # handed to another function
        ("tag", "data", False),  # computed with
        ("dump", "data", True),  # never read
    ],
)
def test_a_parameter_kept_as_it_is(method: str, parameter: str, kept: bool) -> None:
    assert only_stored(_method(method), parameter) is kept


def test_a_made_up_value_fills_only_a_method_that_keeps_it() -> None:
    # html2text's tests filled the writer through ``handle("other data")``: made-up text
    # fed to its parser ("not HTML", a blind reviewer). ``dump`` reads what ``feed``
    # and ``handle`` change; neither keeps its text as it is, so nothing fills it.
    method = _method("dump")
    for adder in ("feed", "handle"):
        siblings = {k: v for k, v in class_methods(KEEPERS, method).items() if k in ("dump", adder)}
        assert filled_owners(method, siblings, {}, {}, {}, lambda _name: None) == []
    # A store that keeps its value as it is is filled with one: any value shows the entry.
    put = _method("put")
    found = filled_owners(put, class_methods(KEEPERS, put), {}, {}, {"key": "a"}, lambda _: None)
    assert found and all(owner[CALLS_KEY] for owner, _words in found)
