"""The fixed words of a raised message: the raise's own constants, not the call's values."""

from __future__ import annotations

import re

import pytest

from remora.code.testgen.message_words import fixed_words, match_pattern, with_fixed_words

SOURCE = """\
def fetch(table, key):
    if not isinstance(table, dict):
        raise TypeError("Table %r cannot be read by key, it needs a mapping" % (table,))
    if key not in table:
        raise KeyError(f"no row {key!r} in a table of {len(table)} rows")
    if key == "":
        raise ValueError("empty key")
    raise LookupError(
        "key {} is reserved (see docs)".format(key)
    )
"""


@pytest.mark.parametrize(
    ("line", "message", "words"),
    [
        # printf fields split the constant; the first clause of the longest piece.
        (3, "Table 1 cannot be read by key, it needs a mapping", "cannot be read by key"),
        # An f-string's constants between its values.
        (5, "no row 'a' in a table of 0 rows", "in a table of"),
        # One constant, whole: nothing in it is the call's, so compared whole.
        (7, "empty key", ""),
        # A raise over several lines, its frame's line any of them; str.format fields; an
        # aside in brackets is no part of the clause.
        (9, "key x is reserved (see docs)", "is reserved"),
        # No raise at the line.
        (1, "anything", ""),
    ],
)
def test_the_longest_constant_piece_the_message_holds(line: int, message: str, words: str) -> None:
    assert fixed_words(SOURCE, line, message) == words


CHECKS = """\
def textcheck(name, value):
    if not isinstance(value, str):
        kind = "str"
        raise TypeError("expected %s for %s, got %r" % (kind, name, value))


def pick(part):
    raise ValueError(f"expected {part} for the part, got nothing")
"""


@pytest.mark.parametrize(
    ("line", "message", "given", "words"),
    [
        # Fields showing words the code passed join the pieces; the given value ends it.
        (
            4,
            "expected str for path segment, got None",
            {"value": None},
            "expected str for path segment",
        ),
        # A field showing a given value does not join.
        (8, "expected head for the part, got nothing", {"part": "head"}, "for the part"),
        # Nor does a number (a count, a length: the call's, however it came about).
        (4, "expected str for 3 segments, got None", {"value": None}, "expected str for"),
    ],
)
def test_fields_of_the_code_s_own_words_join_the_pieces(
    line: int, message: str, given: object, words: str
) -> None:
    assert fixed_words(CHECKS, line, message, given) == words


def test_on_a_python_2_project_only_the_code_s_written_words_are_matched() -> None:
    # hyperlink's ``"unicode" if PY2 else "str"``: "expected str for path segment" failed
    # under Python 2.7, which the project supports (a reviewer ran it there).
    raised = {
        "type": "TypeError",
        "message": "expected str for path segment, got None",
        "stated": True,
        "frame": {"file": "/sandbox/project/pkg/checks.py", "function": "textcheck", "line": 4},
    }
    row = {"args": {"value": None}, "raised": raised}
    assert with_fixed_words(row, CHECKS, "pkg/checks.py")["raised"]["match"] == (
        "expected str for path segment"
    )
    assert with_fixed_words(row, CHECKS, "pkg/checks.py", python2=True)["raised"]["match"] == (
        "expected"
    )


def test_a_pattern_finds_its_words_and_stays_readable() -> None:
    assert match_pattern("in a table of") == "'in a table of'"
    pattern = match_pattern("is reserved (see docs)")
    assert pattern == r'r"is reserved \(see docs\)"'
    assert re.search(eval(pattern), "key x is reserved (see docs)")


def test_only_a_raise_stated_in_the_node_s_file_is_read() -> None:
    raised = {
        "type": "TypeError",
        "message": "Table 1 cannot be read by key, it needs a mapping",
        "stated": True,
        "frame": {"file": "/sandbox/project/pkg/rows.py", "function": "fetch", "line": 3},
    }
    row = {"args": {"table": 1}, "raised": raised}
    assert with_fixed_words(row, SOURCE, "pkg/rows.py")["raised"]["match"] == (
        "cannot be read by key"
    )
    assert "match" not in with_fixed_words(row, SOURCE, "pkg/other.py")["raised"]
    unstated = {"args": {}, "raised": {**raised, "stated": False}}
    assert with_fixed_words(unstated, SOURCE, "pkg/rows.py") is unstated


HANDING_ON = """\
def parse(text):
    try:
        return int(text)
    except ValueError as error:
        raise ParseError(error) from error


def parse_all(texts):
    try:
        return [int(t) for t in texts]
    except ValueError as error:
        raise ParseError(f"bad list: {error}")
"""


def test_a_message_handed_on_from_a_caught_exception_is_not_compared() -> None:
    # int()'s own "invalid literal for int() with base 10" is CPython's, not the code's.
    raised = {
        "type": "ParseError",
        "message": "invalid literal for int() with base 10: 'x'",
        "stated": True,
        "frame": {"file": "/sandbox/project/pkg/numbers.py", "function": "parse", "line": 5},
    }
    row = with_fixed_words({"args": {"text": "x"}, "raised": raised}, HANDING_ON, "pkg/numbers.py")
    assert row["raised"]["message"] == ""
    assert row["raised"]["match"] == ""


def test_a_message_with_words_of_its_own_beside_the_caught_one_is_matched() -> None:
    raised = {
        "type": "ParseError",
        "message": "bad list: invalid literal for int() with base 10: 'x'",
        "stated": True,
        "frame": {"file": "/sandbox/project/pkg/numbers.py", "function": "parse_all", "line": 12},
    }
    row = with_fixed_words({"args": {}, "raised": raised}, HANDING_ON, "pkg/numbers.py")
    assert row["raised"]["message"] == raised["message"]
