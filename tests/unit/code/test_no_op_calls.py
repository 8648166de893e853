"""A probed call whose value is its own input, where the node computes its value, pins nothing."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.testgen.no_op_calls import (
    hands_on_an_input,
    returns_a_read_item,
    returns_an_input,
)

MODULE = """\
def slugify(text):
    return text.replace(" ", "-").lower()


def first_line(text):
    line = text.split("\\n")[0]
    return line


def clamp(value, low, high):
    return low if value < low else high if value > high else value


class Tag:
    def __init__(self, name):
        self.name = name

    def label(self):
        return self.name

    def spaced(self):
        return " ".join(self.name)


def each(items):
    yield from items


def raw_text(token):
    return token["raw"]


def head(text):
    return text[:10]


def escaped(token):
    return token["raw"].replace("*", "&ast;")


def lookup(table, key):
    return table.get(key, "").strip()


def spelled(number):
    try:
        return f"{int(number):,}"
    except ValueError:
        return str(number)
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    return found[0]


@pytest.mark.parametrize(
    ("name", "hands_on"),
    [
        ("slugify", False),  # a computed value
        ("first_line", False),  # a local, not the argument
        ("clamp", True),  # a branch returns the parameter itself
        ("label", True),  # a getter: an attribute of self as it is
        ("spaced", False),
        ("each", True),  # a generator's items are its input's
        ("spelled", True),  # what it cannot read it gives back, as a str
        ("raw_text", True),  # an item of a parameter as it is
        ("head", False),  # a slice cuts it
        ("escaped", False),
    ],
)
def test_which_nodes_can_return_an_input_as_it_is(name: str, hands_on: bool) -> None:
    assert hands_on_an_input(_function(name)) is hands_on


def _row(returned: Any, args: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"args": args, "returned": {"literal": True, "repr": repr(returned)}, **more}


def test_a_value_equal_to_an_argument_or_the_instance_s_is_its_input() -> None:
    # slugify("sample") == "sample": no space, no capital, nothing slugify changes.
    assert returns_an_input(_row("sample", {"text": "sample"}), None)
    assert not returns_an_input(_row("a-b", {"text": "a b"}), None)
    # Tag(name="ab").spaced() == "a b" computes; Tag(name="a").spaced() == "a" does not.
    assert returns_an_input(_row("a", {}), {"name": "a"})
    assert not returns_an_input(_row("a b", {}), {"name": "ab"})
    # The row's own instance, where its set built one.
    assert not returns_an_input(_row("a", {}, owner_args={"name": "b"}), {"name": "a"})
    assert returns_an_input(_row(["x"], {"items": ["x"]}), None)


def test_each_item_of_star_args_is_an_input_of_its_own() -> None:
    # compose("a") == "a": functools.reduce handed its one item back (a blind reviewer:
    # "it never checks the order of composition").
    row = _row("a", {"funcs": ["a"]})
    assert returns_an_input(row, None, spread="funcs")
    assert not returns_an_input(row, None)  # a list parameter's item is no input of its own


def test_numbers_booleans_raises_and_other_types_are_not_judged() -> None:
    assert not returns_an_input(_row(0, {"n": 0}), None)  # double(0) == 0: a coincidence
    assert not returns_an_input(_row(True, {"flag": True}), None)
    assert not returns_an_input(_row("1", {"n": 1}), None)  # the same value, another type
    raised = {"args": {"text": "a"}, "raised": {"type": "ValueError"}, "returned": None}
    assert not returns_an_input(raised, None)


def test_a_text_held_under_a_key_the_node_reads_by_name_is_its_input() -> None:
    # escaped({"raw": "sample raw"}) == "sample raw": nothing in it to escape (a Markdown
    # renderer's test, "an identity check", a blind reviewer said).
    token = {"token": {"raw": "sample raw"}}
    assert returns_a_read_item(_row("sample raw", token), _function("escaped"))
    assert not returns_a_read_item(_row("a&ast;", {"token": {"raw": "a*"}}), _function("escaped"))
    # A key the caller chooses is a lookup: the item it picked is its answer.
    table = {"table": {"a": "x"}, "key": "a"}
    assert not returns_a_read_item(_row("x", table), _function("lookup"))
