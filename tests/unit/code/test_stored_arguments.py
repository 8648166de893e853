"""A procedure's test that asserts only its arguments kept as passed pins no behaviour."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.testgen.stored_arguments import stores_arguments_only

MODULE = """\
class Shelf:
    def put(self, books):
        self.books = books

    def rename(self, title):
        if not title:
            raise ValueError("a shelf needs a title")
        self.title = title

    def relabel(self, label):
        self.label = label.upper()

    def move(self, room, floor):
        self.room = room
        self.floor = floor
        self.moves += 1
"""


def _method(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _seen(value: Any) -> dict[str, Any]:
    return {"repr": repr(value), "literal": True}


@pytest.mark.parametrize(
    ("method", "row", "restated"),
    [
        ("put", {"args": {"books": ["a", "b"]}, "state": {"books": _seen(["a", "b"])}}, True),
        # the argument passed the node's check: the stored value shows it
        ("rename", {"args": {"title": "Atlas"}, "state": {"title": _seen("Atlas")}}, False),
        # a value the node computed from its argument
        ("relabel", {"args": {"label": "a"}, "state": {"label": _seen("A")}}, False),
        # a counter beside the stored arguments is behaviour
        (
            "move",
            {"args": {"room": "b", "floor": 2}, "state": {"room": _seen("b"), "moves": _seen(1)}},
            False,
        ),
        (
            "move",
            {"args": {"room": "b", "floor": 2}, "state": {"room": _seen("b"), "floor": _seen(2)}},
            True,
        ),
        # equal but of another type: a conversion (the JSON list stored as a tuple)
        ("put", {"args": {"books": ["a"]}, "state": {"books": _seen(("a",))}}, False),
        # asserted by its length only
        ("put", {"args": {"books": []}, "state": {"books": {"repr": "<x>", "length": 0}}}, False),
        ("put", {"args": {"books": []}, "state": {}}, False),  # nothing asserted
        ("put", {"args": {"books": "a"}, "raised": {"type": "TypeError"}}, False),
    ],
)
def test_a_procedure_that_keeps_its_arguments_as_given(
    method: str, row: dict[str, Any], restated: bool
) -> None:
    assert stores_arguments_only(row, _method(method)) is restated


def test_an_argument_read_back_through_a_reader_method_is_a_round_trip() -> None:
    row = {"args": {"books": ["a"]}, "returned": {"repr": "None", "literal": True}}
    assert stores_arguments_only({**row, "state": {"books": _seen(["a"])}}, _method("put"))
    assert not stores_arguments_only({**row, "state": {"read()": _seen(["a"])}}, _method("put"))
