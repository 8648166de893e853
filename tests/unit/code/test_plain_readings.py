"""A probed call whose value a builtin gives of one argument pins nothing of the node."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.testgen.plain_readings import plain_reading

# Shaped after humanfriendly's text helpers, whose such tests blind reviewers rejected.
MODULE = """\
import re

def ansi_width(text):
    return len(re.sub("\\x1b\\\\[[0-9;]*m", "", text))


def split(text, delimiter=","):
    return [t.strip() for t in text.split(delimiter) if t and not t.isspace()]


def label(value):
    return "%s" % (value,)


def wrap_one(text):
    return [text]


def shown(value):
    return str(value)
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


def _row(args: dict[str, Any], returned: Any) -> dict[str, Any]:
    return {"args": args, "returned": {"literal": True, "repr": repr(returned)}}


@pytest.mark.parametrize(
    ("name", "args", "returned", "reading"),
    [
        ("split", {"text": "a.b"}, ["a.b"], "the text alone in a list (text)"),
        ("label", {"value": None}, "None", "str() of it (value)"),
        ("label", {"value": 42}, "42", "str() of it (value)"),
    ],
)
def test_a_value_a_builtin_gives_of_one_argument_is_a_plain_reading(
    name: str, args: dict[str, Any], returned: Any, reading: str
) -> None:
    assert plain_reading(_row(args, returned), _function(name)) == reading


@pytest.mark.parametrize(
    ("name", "args", "returned"),
    [
        ("split", {"text": "a,b"}, ["a", "b"]),  # the delimiter was there
        ("split", {"text": " a "}, ["a"]),  # the strip did something
        ("ansi_width", {"text": "hello world"}, 11),  # a length may be the node's result
        ("label", {"value": [1]}, "[1]"),  # a list's text is no plain reading here
        ("wrap_one", {"text": "abc"}, ["abc"]),  # the node's own return is the reading
        ("shown", {"value": 3}, "3"),
    ],
)
def test_a_value_the_node_computed_is_no_plain_reading(
    name: str, args: dict[str, Any], returned: Any
) -> None:
    assert plain_reading(_row(args, returned), _function(name)) == ""


def test_a_call_that_raised_is_no_plain_reading() -> None:
    row = {**_row({"value": None}, "None"), "raised": {"type": "ValueError"}}
    assert plain_reading(row, _function("label")) == ""
