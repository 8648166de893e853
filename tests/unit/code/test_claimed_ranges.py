"""A test name's condition claims no more than its value shows (claimed_ranges)."""

from __future__ import annotations

import ast

from remora.code.testgen.test_names import behaviour_name

_CODE = """
def in_band(level: int) -> bool:
    return (0 <= level <= 40) or (70 <= level <= 90)


def charge(amount: int) -> int:
    if amount <= 0:
        raise ValueError("no charge")
    return amount


def kind(mark: str) -> int:
    if mark in ("a", "b"):
        return 1
    if mark == "zz":
        return 2
    return 3
"""
_FUNCTIONS = {f.name: f for f in ast.parse(_CODE).body if isinstance(f, ast.FunctionDef)}
_FALSE = {"returned": {"repr": "False", "literal": True}}


def _name(node: str, args: dict[str, object], why: str) -> str:
    row = {**_FALSE, "args": args}
    name = behaviour_name(node, row, why, set(), set(), None, _FUNCTIONS[node])
    assert name is not None
    return name


def test_a_range_the_code_tests_again_is_named_by_the_value() -> None:
    assert _name("in_band", {"level": 41}, "level_above_40") == (
        "test_in_band_when_level_is_41_returns_false"
    )
    assert _name("kind", {"mark": "zz"}, "mark_is_not_listed") == (
        "test_kind_when_mark_is_zz_returns_false"
    )


def test_a_single_comparison_at_its_boundary_keeps_the_constant() -> None:
    assert _name("charge", {"amount": 1}, "amount_above_0") == (
        "test_charge_when_amount_above_0_returns_false"
    )
    assert _name("charge", {"amount": 7}, "amount_above_0") == (
        "test_charge_when_amount_is_7_returns_false"
    )
    assert _name("in_band", {"level": 40}, "level_is_40") == (
        "test_in_band_when_level_is_40_returns_false"
    )
