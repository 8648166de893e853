"""The check on the final answer: every value it states came from a capability."""

from __future__ import annotations

import pytest

from remora.assistant.executor import CallRecord
from remora.assistant.grounding import answer_values, check_answer, source_texts


def kinds(answer: str) -> list[tuple[str, str]]:
    return [(v.kind, v.text) for v in answer_values(answer)]


def test_values_of_an_answer() -> None:
    answer = "total is 6 (an int); stock['plum'] is -7.5 and \"Hi, Bo!\", not 1e3; a KeyError."
    assert kinds(answer) == [
        ("string", "plum"),
        ("string", "Hi, Bo!"),
        ("number", "6"),
        ("number", "-7.5"),
        ("number", "1e3"),
        ("name", "int"),
        ("name", "KeyError"),
    ]


def test_apostrophes_digits_in_names_and_english_type_words_are_no_values() -> None:
    answer = "The user's list isn't a set; item2 and 0x1f are names, print is a function."
    assert kinds(answer) == []


SOURCES = [
    "What is the value of total?",
    "6",
    "[3, 1, 2]",
    "12.566370614359172",
    "{'host': 'localhost', 'port': 8080}",
    "KeyError: 'timeout'",
    "builtins.int",
]


@pytest.mark.parametrize(
    "answer",
    [
        "The value of total is 6.",
        "total is 6.0",  # the same number
        "area(2) returns 12.57",  # rounded to the decimals given
        "area(2) returns 12.566370614359172",
        "The port is 8080, under the key 'port'.",
        "It raised KeyError because 'timeout' is missing.",
        "total is an int.",
        "items holds 3, 1 and 2.",
        "Nothing to report.",
    ],
)
def test_supported_answers(answer: str) -> None:
    grounding = check_answer(answer, SOURCES)
    assert grounding.ok, grounding.reason()


@pytest.mark.parametrize(
    ("answer", "unsupported"),
    [
        ("The value of total is 100.", [("number", "100")]),
        ("area(2) returns 13", [("number", "13")]),  # no rounding to a whole number
        ("area(2) returns 12.6", []),  # 12.566... rounded to one decimal: 12.6
        ("The port is 80.", [("number", "80")]),
        ("The key 'timeout' is missing: a ValueError.", [("name", "ValueError")]),
        ("total is a float", [("name", "float")]),
        ("The host is 'example.org'.", [("string", "example.org")]),
    ],
)
def test_unsupported_values(answer: str, unsupported: list[tuple[str, str]]) -> None:
    grounding = check_answer(answer, SOURCES)
    assert [(v.kind, v.text) for v in grounding.unsupported] == unsupported
    assert grounding.ok is (not unsupported)
    if unsupported:
        assert unsupported[0][1] in grounding.reason()


def test_a_name_must_appear_as_a_whole_word() -> None:
    assert not check_answer("It is an int.", ["print(x)"]).ok


def test_sources_are_the_question_and_every_string_the_capabilities_returned() -> None:
    records = [
        CallRecord("get_repr", {"expr": "x"}, {"ok": True, "result": {"repr": "41"}}, by="host"),
        CallRecord(
            "eval_expr",
            {"expr": "f()"},
            {
                "ok": False,
                "error": {
                    "code": "python_exception",
                    "message": "ZeroDivisionError: division by zero",
                    "details": {"exc_type": "ZeroDivisionError", "offset": 99},
                },
            },
        ),
    ]
    texts = source_texts(records, "Is x 40?")
    assert texts[0] == "Is x 40?"
    assert "41" in texts and "ZeroDivisionError: division by zero" in texts
    # Numbers that are not strings (offsets, lengths) are not values of the session.
    assert check_answer("It is 99.", texts).unsupported
    assert check_answer("x is 41, not 40: ZeroDivisionError.", texts).ok
