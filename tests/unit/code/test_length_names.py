"""A call rejected for its argument's length is named for the rule, not for its value."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from ast_support import first_function

from remora.code.testgen.taken_branch import branch_words
from remora.code.testgen.test_names import behaviour_name

RAISED = {"type": "ValueError", "message": "bad"}


def _ran_to(function: ast.FunctionDef, exit_line: int) -> set[int]:
    """The lines a call ran that left the function at ``exit_line`` (its other exits not)."""
    others = {
        n.lineno
        for n in ast.walk(function)
        if isinstance(n, ast.Return | ast.Raise) and n.lineno != exit_line
    }
    return {n.lineno for n in ast.walk(function) if isinstance(n, ast.stmt)} - others


def _words(source: str, exit_line: int, args: dict[str, Any], **row: Any) -> str:
    function = first_function(source)
    return branch_words(function, _ran_to(function, exit_line), {"args": args, **row})


PACK = """def pack(block):
    size = len(block)
    if size != 12:
        raise ValueError("twelve bytes")
    return block.hex()
"""

CLIP = """def clip(label):
    if len(label) > 40:
        raise ValueError("too long")
    if not len(label) >= 3:
        raise ValueError("too short")
    return label
"""

ROUTE = """def route(frame):
    width = len(frame)
    if width == 8:
        return short(frame)
    if width == 20:
        return long(frame)
    raise ValueError("no such frame")
"""

READ = """def read(item):
    if isinstance(item, Record):
        return item
    if isinstance(item, str):
        n = len(item)
        if n == 4:
            return by_code(item)
        if n == 9:
            return by_name(item)
        raise ValueError("unknown text")
    raise TypeError("no")
"""

MIXED = """def pick(key, table):
    if len(key) == 2:
        return table[key]
    if key.startswith("x"):
        return None
    raise KeyError(key)
"""


def test_a_length_not_equal_to_the_one_the_code_takes_is_wrong() -> None:
    words = _words(PACK, 4, {"block": b"\x00" * 11}, raised=RAISED)
    assert words == "block_has_wrong_length"


def test_an_ordered_length_test_says_which_side_was_taken() -> None:
    assert _words(CLIP, 3, {"label": "x" * 41}, raised=RAISED) == "label_is_too_long"
    assert _words(CLIP, 5, {"label": "xy"}, raised=RAISED) == "label_is_too_short"


def test_an_empty_argument_rejected_for_its_length_is_empty() -> None:
    assert _words(PACK, 4, {"block": b""}, raised=RAISED) == "block_is_empty"


def test_a_raise_after_ifs_that_return_for_some_lengths_says_none_of_them_fit() -> None:
    assert _words(ROUTE, 7, {"frame": b"\x01" * 9}, raised=RAISED) == "frame_has_wrong_length"


def test_the_if_around_the_fall_through_keeps_its_words() -> None:
    words = _words(READ, 10, {"item": "abcdefg"}, raised=RAISED)
    assert words == "item_is_str_of_wrong_length"


def test_a_call_that_was_not_rejected_gets_no_length_words() -> None:
    function = first_function(ROUTE)
    row = {"args": {"frame": b"\x01" * 8}, "returned": {"repr": "'a'", "literal": True}}
    assert "length" not in branch_words(function, _ran_to(function, 4), row)


def test_ifs_that_test_something_besides_the_length_say_no_rule() -> None:
    assert _words(MIXED, 6, {"key": "abc", "table": {}}, raised=RAISED) == ""


@pytest.mark.parametrize("filler", ["aaaaaaaaaaa", "zzzz"])
def test_a_filler_of_one_repeated_character_is_not_spelled_in_a_name(filler: str) -> None:
    function = first_function("def tag(text, n=1):\n    return text * n\n")
    row = {"args": {"text": filler, "n": 2}, "returned": {"repr": "'x'", "literal": True}}
    used: set[str] = {"test_tag_returns_x"}
    name = behaviour_name("tag", row, "typical_arguments", used, set(), function=function)
    assert name is not None and filler not in name
