"""A raise whose name says no condition takes the verdict its message states."""

from __future__ import annotations

from typing import Any

import pytest
from ast_support import first_function

from remora.code.testgen.test_names import behaviour_name

TO_INT = """def to_int(self, text):
    total = 0
    for char in text:
        total = total * 10 + self._value(char)
    return total
"""


def _name(raised: dict[str, Any], used: set[str] | None = None) -> str | None:
    function = first_function(TO_INT)
    row = {"args": {"text": "4x2"}, "raised": {"type": "ValueError", **raised}}
    return behaviour_name("to_int", row, "typical_arguments", used or set(), set(), {}, function)


def test_the_fixed_words_of_a_formatted_message_name_the_condition() -> None:
    raised = {"message": 'invalid digit "x"', "match": "invalid digit", "stated": True}
    assert _name(raised) == "test_to_int_when_digit_is_invalid_raises_value_error"


def test_a_whole_stated_message_of_two_words_after_the_verdict_names_it_too() -> None:
    raised = {"message": "Unknown check symbol.", "stated": True}
    assert _name(raised) == "test_to_int_when_check_symbol_is_unknown_raises_value_error"


def test_what_a_thing_is_not_names_it_too() -> None:
    # pyotp's parse_uri: "Not an otpauth URI", whose reviewer asked which error it checks.
    raised = {"message": "Not an otpauth URI", "stated": True}
    assert _name(raised) == "test_to_int_when_not_an_otpauth_uri_raises_value_error"


@pytest.mark.parametrize(
    "raised",
    [
        {"message": "expected a number between 1 and 9", "stated": True},
        {"message": "not a number between 1 and 9", "stated": True},  # more than a thing
        {"message": "invalid", "stated": True},  # a verdict on nothing named
        {"message": "invalid digit 7 in input", "stated": True},  # more than a thing
        {"message": "invalid digit", "stated": False},  # not the code's own words
    ],
)
def test_a_message_that_is_no_verdict_on_a_thing_leaves_the_name(raised: dict[str, Any]) -> None:
    assert _name(raised) == "test_to_int_raises_value_error"


def test_the_message_s_verdict_says_more_than_an_argument_off_its_default() -> None:
    # ``strict=True`` reached the raise, but a strict call of good text returns: the
    # message says why this one raised.
    function = first_function("def to_int(text, strict=False):\n    return int(text)\n")
    raised = {"type": "ValueError", "message": "invalid digit 'x'", "match": "invalid digit"}
    row = {"args": {"text": "4x2", "strict": True}, "raised": {**raised, "stated": True}}
    name = behaviour_name("to_int", row, "typical_arguments", set(), set(), {}, function)
    assert name == "test_to_int_when_digit_is_invalid_raises_value_error"
