"""A summary that asks a yes-or-no question is refused where the code returns something
else (issue 57: isbnlib's ``check_digit10`` and zipp's ``star_not_empty``), or nothing
(pyrsistent's ``check_type``: "suggests a boolean result, but the function returns
nothing and raises")."""

from __future__ import annotations

import ast

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, locate, parse

DIGITS = """\
import re


def check_digit(digits):
    if len(digits) != 9:
        return ""
    total = sum(int(d) for d in digits)
    return str(total % 11)


def star_not_empty(pattern):
    return re.sub(r"[^/]+", lambda m: "?*" if m.group(0) == "*" else m.group(0), pattern)


def is_valid(digits):
    return len(digits) == 9 and check_digit(digits[:9]) == digits[-1]


def verify(digits):
    if len(digits) != 9:
        raise ValueError(digits)


def each_digit(digits):
    for digit in digits:
        yield digit.isdigit()


def lookup(digits, table):
    if not digits:
        return ""
    return table.get(digits)


def matched(pattern, name):
    if not pattern:
        return False
    return name.split("/")
"""


def refusal(name: str, summary: str) -> str:
    line = next(
        d.lineno
        for d in ast.walk(ast.parse(DIGITS))
        if isinstance(d, ast.FunctionDef) and d.name == name
    )
    located = locate(parse(DIGITS, "digits.py"), NodeRef("function", name, line))
    _, refused = check_pieces(located, Pieces(summary=summary), ())
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


QUESTION = "it says the code answers yes or no"


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("check_digit", "Check if the digits of a number are valid."),
        ("check_digit", "Return True if the digits make a valid number."),
        ("check_digit", "Whether the nine digits are valid."),
        ("star_not_empty", "Check if the pattern matches a segment of the star pattern."),
        ("star_not_empty", "Test whether a segment of the pattern is a star."),
    ],
)
def test_a_question_on_code_that_returns_something_else_is_refused(name: str, summary: str) -> None:
    assert refusal(name, summary).startswith(QUESTION)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("is_valid", "Check whether the digits end in their check digit."),  # a comparison
        ("verify", "Check that the digits are nine."),  # returns nothing: raises
        ("lookup", "Check if the digits are in the table."),  # table.get: anything
        ("matched", "Check whether the name matches the pattern."),  # False among them
        ("check_digit", "Compute the check digit of nine digits."),  # no question asked
    ],
)
def test_a_question_the_code_may_answer_stays(name: str, summary: str) -> None:
    assert QUESTION not in refusal(name, summary)


ASKED_OF_NOTHING = "it asks a yes-or-no question, but the code returns nothing"


@pytest.mark.parametrize(
    "summary",
    [
        "Check if the digits are nine.",
        "Check whether the digits are nine.",
        "Whether the digits are nine.",
    ],
)
def test_a_question_on_code_that_returns_nothing_is_refused(summary: str) -> None:
    assert refusal("verify", summary).startswith(ASKED_OF_NOTHING)


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("verify", "Check that the digits are nine."),  # a check that raises, said so
        ("verify", "Validate the number of digits."),  # no question
        ("each_digit", "Check if each digit is a digit."),  # a generator yields its answers
    ],
)
def test_no_question_or_a_generator_stays(name: str, summary: str) -> None:
    assert ASKED_OF_NOTHING not in refusal(name, summary)
