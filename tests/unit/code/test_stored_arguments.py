"""A procedure's test that asserts only its arguments kept as passed pins no behaviour."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.testgen.stored_arguments import (
    constructor_constants,
    reads_back_argument,
    returns_arguments_only,
    stores_arguments_only,
)

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


# pathvalidate's BaseFile: a one-line property over what __init__ clamped and stored.
READERS = """\
class Limit:
    def __init__(self, max_len, ceiling=255):
        self._max_len = min(max_len if max_len > 0 else ceiling, ceiling)

    @property
    def max_len(self):
        return self._max_len

    def doubled(self):
        return self._max_len * 2

    def capped(self, at):
        return self._max_len
"""


def _reader(name: str) -> ast.FunctionDef:
    tree = ast.parse(READERS)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize(
    ("method", "row", "owner_args", "restated"),
    [
        # the argument as passed, read back: the constructor's assignment restated
        ("max_len", {"returned": _seen(100)}, {"max_len": 100}, True),
        # clamped on the way in: the constructor's behaviour shown
        ("max_len", {"returned": _seen(255)}, {"max_len": 1000}, False),
        ("max_len", {"returned": _seen(255)}, {"max_len": 0}, False),
        # a reader that computes
        ("doubled", {"returned": _seen(200)}, {"max_len": 100}, False),
        # a method given an argument of its own
        ("capped", {"args": {"at": 1}, "returned": _seen(100)}, {"max_len": 100}, False),
        # equal, but another type: a conversion
        ("max_len", {"returned": _seen(100.0)}, {"max_len": 100}, False),
        ("max_len", {"returned": _seen(100)}, None, False),
        # what a set-up call passed, read back: `setstate("other state")`, then getstate()
        (
            "max_len",
            {"returned": _seen("other state")},
            {"__calls__": [{"method": "setstate", "args": ["other state"], "keywords": {}}]},
            True,
        ),
        (
            "max_len",
            {"returned": _seen(7)},
            {"__calls__": [{"method": "resize", "args": [], "keywords": {"size": 7}}]},
            True,
        ),
        # a set-up call's argument changed on the way: the setter's behaviour shown
        (
            "max_len",
            {"returned": _seen("OTHER STATE")},
            {"__calls__": [{"method": "setstate", "args": ["other state"], "keywords": {}}]},
            False,
        ),
    ],
)
def test_a_one_line_reader_handing_back_a_constructor_argument(
    method: str, row: dict[str, Any], owner_args: dict[str, Any] | None, restated: bool
) -> None:
    assert reads_back_argument(row, _reader(method), owner_args) is restated


# ply's Lexer: a state its constructor sets to a constant, and a getter of it.
LEXER = """\
class Base:
    def __init__(self):
        self.lexstate = 'INITIAL'
        self.lexre = None
        self.count = 0
        if self.lexre is None:
            self.count = 1
        self.rules = make_rules()
        self.lexdata = None
        if self.count:
            self.lexdata = read_input()

    def current_state(self):
        return self.lexstate


class Lexer(Base):
    pass
"""


def test_a_getter_of_a_constant_the_constructor_sets_restates_it() -> None:
    constants = constructor_constants(LEXER, "Lexer")
    # inherited __init__; an attribute given two values, or a call's value too, is no constant
    assert constants == {"lexstate": "INITIAL", "lexre": None}
    getter = next(
        n
        for n in ast.walk(ast.parse(LEXER))
        if isinstance(n, ast.FunctionDef) and n.name == "current_state"
    )
    assert reads_back_argument({"returned": _seen("INITIAL")}, getter, {}, constants)
    # a state the instance was moved to (begin("foo")) is no constant read back
    assert not reads_back_argument({"returned": _seen("foo")}, getter, {}, constants)
    assert not reads_back_argument({"returned": _seen("INITIAL")}, getter, {}, {})


# hyperlink's make_sentinel: the returned object holds the arguments and defaults given.
MAKERS = """\
def make_sentinel(name="_MISSING", var_name=""):
    return Sentinel(name, var_name)


def make_span(low, width=1):
    return Span(low, low + width)
"""


def _maker(name: str) -> ast.FunctionDef:
    tree = ast.parse(MAKERS)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _object(**attributes: Any) -> dict[str, Any]:
    return {"repr": "<obj>", "literal": False, "attributes": attributes}


@pytest.mark.parametrize(
    ("maker", "row", "restated"),
    [
        (
            "make_sentinel",
            {
                "args": {"var_name": "a"},
                "returned": _object(name=_seen("_MISSING"), var_name=_seen("a")),
            },
            True,
        ),
        (
            "make_sentinel",
            {"args": {}, "returned": _object(name=_seen("_MISSING"), var_name=_seen(""))},
            True,
        ),
        # a value the node computed
        (
            "make_span",
            {"args": {"low": 2}, "returned": _object(low=_seen(2), high=_seen(3))},
            False,
        ),
        # an attribute with no literal form: something else to assert
        (
            "make_sentinel",
            {
                "args": {},
                "returned": _object(name=_seen("_MISSING"), rest={"repr": "<x>", "literal": False}),
            },
            False,
        ),
        ("make_sentinel", {"args": {}, "returned": _object()}, False),  # nothing to assert
        ("make_sentinel", {"args": {}, "returned": _seen("'_MISSING'")}, False),  # a literal
    ],
)
def test_a_returned_object_holding_only_what_the_call_was_given(
    maker: str, row: dict[str, Any], restated: bool
) -> None:
    assert returns_arguments_only(row, _maker(maker)) is restated
