"""Kept tests that raise the same way on other values, or three or more that compare the
result with a value each, become one parametrized test.

Made-up module: a grade parser that rejects three kinds of bad text with one exception.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from remora.code.testgen.parametrized_tests import parametrized

GRADES = """\
class GradeError(ValueError):
    def __init__(self, text):
        super().__init__(f"not a grade: {text!r}")


def parse_grade(text, strict=True):
    if not text or text[0] not in "ABCDF" or text[1:] not in ("", "+", "-"):
        raise GradeError(text)
    return {"A": 10, "B": 7, "C": 4, "D": 1, "F": 0}[text[0]]
"""


def _raising(name: str, text: str, call: str = "parse_grade({!r})") -> dict[str, Any]:
    source = (
        f"def {name}():\n"
        "    with pytest.raises(GradeError) as excinfo:\n"
        f"        {call.format(text)}\n"
        f"    assert str(excinfo.value) == {f'not a grade: {text!r}'!r}\n"
    )
    return {"name": name, "source": source, "imports": ["GradeError", "parse_grade"]}


RETURNS = {
    "name": "test_parse_grade_returns_int",
    "source": "def test_parse_grade_returns_int():\n    assert parse_grade('B') == 7\n",
    "imports": ["parse_grade"],
    "observed": True,
}
RAISING = [
    _raising("test_parse_grade_when_text_is_empty_raises_grade_error", ""),
    _raising("test_parse_grade_raises_grade_error", "B*"),
    _raising("test_parse_grade_when_text_is_invalid_raises_grade_error", "Q"),
]


def test_same_raises_on_other_values_merge_into_one_parametrized_test() -> None:
    merged = parametrized([*RAISING, RETURNS], ["text", "strict"], set())
    assert [p["name"] for p in merged] == [
        "test_parse_grade_raises_grade_error",
        "test_parse_grade_returns_int",
    ]
    assert merged[0]["merged"] == [p["name"] for p in RAISING]
    assert merged[0]["source"] == (
        "@pytest.mark.parametrize(('text', 'message'), [('', \"not a grade: ''\"), "
        "('B*', \"not a grade: 'B*'\"), ('Q', \"not a grade: 'Q'\")])\n"
        "def test_parse_grade_raises_grade_error(text, message):\n"
        "    with pytest.raises(GradeError) as excinfo:\n"
        "        parse_grade(text)\n"
        "    assert str(excinfo.value) == message\n"
    )
    assert merged[0]["modules"] == ["pytest"]
    assert merged[1] is RETURNS


def test_the_merged_test_runs_every_case_and_fails_when_one_changes(tmp_path: Path) -> None:
    merged = parametrized(RAISING, ["text"], set())
    (tmp_path / "grades.py").write_text(GRADES)
    header = "import pytest\n\nfrom grades import GradeError, parse_grade\n\n\n"
    (tmp_path / "test_grades.py").write_text(header + merged[0]["source"])

    def outcome(module: str) -> str:
        (tmp_path / "grades.py").write_text(module)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
        return run.stdout.strip().splitlines()[-1]

    assert outcome(GRADES).startswith("3 passed")
    # A parser that accepted a trailing '*' fails the one case that shows it.
    assert outcome(GRADES.replace('("", "+", "-")', '("", "+", "-", "*")')).startswith("1 failed")


def test_pieces_stay_apart_where_their_code_differs_or_a_value_has_no_name() -> None:
    keyword = _raising(
        "test_parse_grade_when_strict_raises_grade_error", "Q", "parse_grade(text={!r})"
    )
    other_class = {**RAISING[0], "source": RAISING[0]["source"].replace("GradeError)", "KeyError)")}
    assert parametrized([RAISING[0], keyword], ["text"], set()) == [RAISING[0], keyword]
    assert parametrized([RAISING[0], other_class], ["text"], set()) == [RAISING[0], other_class]
    # A positional value past the parameters known, or a value inside a list: no name.
    assert parametrized(RAISING, [], set()) == RAISING
    listed = [
        _raising("test_parse_grade_raises_grade_error", "X", "parse_grade([{!r}])"),
        _raising("test_parse_grade_when_empty_raises_grade_error", "", "parse_grade([{!r}])"),
    ]
    assert parametrized(listed, ["text"], set()) == listed
    # Two tests that return rather than raise stay apart, each under its own name.
    returning = {**RETURNS, "name": "test_parse_grade_when_a_returns_int"}
    returning["source"] = RETURNS["source"].replace("'B'", "'A'").replace("7", "10")
    returning["source"] = returning["source"].replace("returns_int", "when_a_returns_int")
    assert parametrized([RETURNS, returning], ["text"], set()) == [RETURNS, returning]


def test_a_merged_name_the_file_already_has_keeps_the_pieces_apart() -> None:
    taken = {"test_parse_grade_raises_grade_error"}
    assert parametrized(RAISING[:2], ["text"], taken) == RAISING[:2]


def _returning(name: str, text: str, expected: int) -> dict[str, Any]:
    source = f"def {name}():\n    result = parse_grade({text!r})\n    assert result == {expected}\n"
    return {"name": name, "source": source, "imports": ["parse_grade"], "observed": True}


def test_three_results_of_other_values_merge_into_one_table(tmp_path: Path) -> None:
    # Names that tell the cases apart only by what they return say less than the rows.
    returning = [
        _returning("test_parse_grade_returns_int", "B", 7),
        _returning("test_parse_grade_when_text_is_a_returns_int", "A", 10),
        _returning("test_parse_grade_when_text_is_f_returns_int", "F", 0),
    ]
    merged = parametrized(returning, ["text", "strict"], set())
    assert [p["name"] for p in merged] == ["test_parse_grade"]
    assert merged[0]["source"] == (
        "@pytest.mark.parametrize(('text', 'expected'), [('B', 7), ('A', 10), ('F', 0)])\n"
        "def test_parse_grade(text, expected):\n"
        "    result = parse_grade(text)\n"
        "    assert result == expected\n"
    )
    (tmp_path / "grades.py").write_text(GRADES)
    header = "import pytest\n\nfrom grades import parse_grade\n\n\n"
    (tmp_path / "test_grades.py").write_text(header + merged[0]["source"])
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert run.stdout.strip().splitlines()[-1].startswith("3 passed"), run.stdout
    # A value held in a display has no name to be a parameter by: the tests stay apart.
    held = [
        {
            **p,
            "source": p["source"].replace("parse_grade(", "parse_grade(*[").replace(")\n", "])\n"),
        }
        for p in returning
    ]
    assert parametrized(held, ["text", "strict"], set()) == held


def test_a_table_of_the_lengths_a_condition_names_is_named_by_that_length() -> None:
    # Three results chosen for the lengths the code dispatches on: the table says so.
    returning = [
        _returning(f"test_parse_grade_when_text_of_length_{len(text)}_returns_int", text, value)
        for text, value in (("B", 7), ("A+", 10), ("F", 0))
    ]
    merged = parametrized(returning, ["text", "strict"], set())
    assert [p["name"] for p in merged] == ["test_parse_grade_by_text_length"]


def test_a_tuple_of_constants_the_result_is_compared_with_is_one_expected_value() -> None:
    # jdcal's three gcal2jd tests, each ``assert result == (2400000.5, <day number>)``:
    # the reviewer asked for them merged; the tuple is the row's expected value.
    returning = [
        {
            "name": f"test_parse_grade_when_text_is_{text.lower()}",
            "source": (
                f"def test_parse_grade_when_text_is_{text.lower()}():\n"
                f"    result = parse_grade({text!r})\n"
                f"    assert result == (0.5, {value})\n"
            ),
            "imports": ["parse_grade"],
        }
        for text, value in (("A", 10), ("B", 7), ("F", 0))
    ]
    merged = parametrized(returning, ["text", "strict"], set())
    assert [p["name"] for p in merged] == ["test_parse_grade"]
    assert merged[0]["source"].splitlines()[:2] == [
        "@pytest.mark.parametrize(('text', 'expected'), "
        "[('A', (0.5, 10)), ('B', (0.5, 7)), ('F', (0.5, 0))])",
        "def test_parse_grade(text, expected):",
    ]
