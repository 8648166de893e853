"""Pieces written as unittest.TestCase methods for a unittest project (unittest_methods)."""

from __future__ import annotations

import ast

import pytest

from remora.code.probes import test_file_text
from remora.code.probes.unittest_methods import case_class_name, method_source

_RAISES = (
    "def test_halve_when_n_is_odd_raises_value_error():\n"
    "    with pytest.raises(ValueError) as excinfo:\n"
    "        halve(n=3)\n"
    "    assert str(excinfo.value) == 'odd: 3'\n"
)
_RETURNS = (
    "def test_halve_returns_2():\n"
    "    result = halve(n=4)\n"
    "    assert result == 2\n"
    "    assert result is not None\n"
    "    assert ratio(1, 3) == pytest.approx(0.333)\n"
    "    assert not flag\n"
)


def test_asserts_and_pytest_raises_become_the_test_case_s_own() -> None:
    method = method_source(_RAISES)
    assert "def test_halve_when_n_is_odd_raises_value_error(self):" in method
    assert "with self.assertRaises(ValueError) as cm:" in method
    assert "self.assertEqual(str(cm.exception), 'odd: 3')" in method
    returns = method_source(_RETURNS)
    assert "self.assertEqual(result, 2)" in returns
    assert "self.assertIsNotNone(result)" in returns
    assert "self.assertAlmostEqual(ratio(1, 3), 0.333)" in returns
    assert "self.assertFalse(flag)" in returns
    assert "pytest" not in method + returns
    matched = method_source(_RAISES.replace("(ValueError)", "(ValueError, match='odd')"))
    assert "with self.assertRaisesRegex(ValueError, 'odd') as cm:" in matched


def test_a_piece_that_needs_pytest_has_no_unittest_form() -> None:
    with pytest.raises(ValueError, match="fixtures and marks"):
        method_source("def test_halve(tmp_path):\n    assert halve(n=2) == 1\n")
    with pytest.raises(ValueError, match="beyond asserts"):
        method_source("def test_halve():\n    pytest.skip('no')\n")


def test_a_new_file_gets_the_node_s_class_and_a_second_write_joins_it() -> None:
    cls = case_class_name("Counter.halve")
    assert cls == "TestCounterHalve"
    text = test_file_text.add_to_test_file(
        "", "tests/test_nums.py", "nums", ["halve"], ["pytest"], [_RETURNS, _RAISES], cls
    )
    tree = ast.parse(text)
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    assert [c.name for c in classes] == ["TestCounterHalve"]
    assert ast.unparse(classes[0].bases[0]) == "unittest.TestCase"
    assert "import unittest" in text
    assert "import pytest" not in text
    again = test_file_text.add_to_test_file(
        text, "tests/test_nums.py", "nums", ["halve"], [], [_RETURNS.replace("_2(", "_3(")], cls
    )
    assert test_file_text.tests_in_file(again) == [
        "TestCounterHalve::test_halve_returns_2",
        "TestCounterHalve::test_halve_when_n_is_odd_raises_value_error",
        "TestCounterHalve::test_halve_returns_3",
    ]
    assert test_file_text.reported_name(cls, "test_a") == "TestCounterHalve::test_a"
    assert test_file_text.taken_names(["TestCounterHalve::test_a", "test_b"]) == {
        "test_a",
        "test_b",
    }


def test_pytest_style_is_written_as_before() -> None:
    text = test_file_text.add_to_test_file(
        "", "tests/test_nums.py", "nums", ["halve"], ["pytest"], [_RAISES]
    )
    assert "import pytest" in text
    assert "\ndef test_halve_when_n_is_odd_raises_value_error():" in text
