"""Test-file edits by ast, one JSON case per file: input text, what is added, expected text."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from remora.code.probes import test_file_text

CASES = Path(__file__).parent / "test_file_cases"


def _case(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / f"{name}.json").read_text())
    return data


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.json")))
def test_adding_tests_gives_the_expected_file(name: str) -> None:
    case = _case(name)
    got = test_file_text.add_to_test_file(
        case["text"], "t.py", case["module"], case["names"], case["plain"], case["functions"]
    )
    assert got == case["expected"], case["why"]
    ast.parse(got)  # still Python
    assert (
        test_file_text.tests_in_file(got)[-1]
        == test_file_text.tests_in_file(case["functions"][-1])[-1]
    )


def test_tests_in_file_lists_tests_as_pytest_names_them() -> None:
    text = (
        "import pytest\n\n\nasync def test_a():\n    pass\n\n\nclass TestB:\n"
        "    def test_c(self):\n        pass\n\n    def helper(self):\n        pass\n\n\n"
        "class Other(unittest.TestCase):\n    def test_d(self):\n        pass\n\n\n"
        "def helper():\n    pass\n"
    )
    assert test_file_text.tests_in_file(text) == ["test_a", "TestB::test_c", "Other::test_d"]


def test_an_unparsable_test_file_is_named_with_its_line() -> None:
    with pytest.raises(ValueError, match=r"tests/test_x.py:2: cannot parse the test file"):
        test_file_text.tests_in_file("x = 1\ndef (:\n", "tests/test_x.py")
