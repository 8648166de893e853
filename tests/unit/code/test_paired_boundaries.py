"""Boundaries between two parameters, beside the other one's value in the varied set."""

from __future__ import annotations

import ast
from typing import Any

from ast_support import first_function

from remora.code.values.paired_boundaries import paired_boundaries, spread_base

CLAMP = (
    "def clamp(value: int, low: int, high: int) -> int:\n"
    "    if value < low:\n"
    "        return low\n"
    "    elif value > high:\n"
    "        return high\n"
    "    return value\n"
)


def _paired(source: str, base: dict[str, Any]) -> tuple[list[tuple[str, Any, str]], set[str]]:
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    return paired_boundaries(function, base)


def test_each_side_gets_the_other_s_value_and_its_neighbours_boundary_first() -> None:
    values, edges = _paired(CLAMP, {"value": 5, "low": 3, "high": 8})
    # Each boundary's value at it first (`value == low`, `value == high`), then outside.
    assert values[:4] == [
        ("value", 3, "value_is_low"),
        ("low", 5, "low_is_value"),
        ("value", 8, "value_is_high"),
        ("high", 5, "high_is_value"),
    ]
    assert ("value", 2, "value_below_low") in values
    assert ("value", 9, "value_above_high") in values
    # `value < low` is told from `value <= low` at low and from nothing more at low + 1.
    assert "value_is_low" in edges and "value_below_low" in edges
    assert "value_above_low" not in edges


def test_equality_of_any_literal_and_no_boundary_for_samples_or_constants() -> None:
    source = "def same(old, new, limit):\n    if old == new or limit > 3:\n        return 1\n"
    values, _edges = _paired(source, {"old": "a", "new": "b", "limit": 1})
    assert values == [("old", "b", "old_is_new"), ("new", "a", "new_is_old")]
    assert _paired(source, {"old": {"__class__": "Thing"}, "new": {"__class__": "Thing"}})[0] == []


def test_a_parameter_compared_with_itself_or_a_local_gives_nothing() -> None:
    source = "def f(a, b):\n    c = b\n    if a < c or a <= a:\n        return 1\n"
    assert _paired(source, {"a": 1, "b": 2}) == ([], set())


def test_equal_numbers_are_spread_past_every_early_exit() -> None:
    # value >= low and value <= high: the way to the last return, the bounds apart.
    assert spread_base(first_function(CLAMP), {"value": 1, "low": 1, "high": 1}) == {
        "value": 5,
        "low": 0,
        "high": 10,
    }
    # Already distinct, or compared with no other parameter: left as they are.
    assert spread_base(first_function(CLAMP), {"value": 5, "low": 3, "high": 8}) == {}
    assert spread_base(first_function("def f(a, b):\n    return a + b\n"), {"a": 1, "b": 1}) == {}
    # Text is no number to spread.
    assert spread_base(first_function(CLAMP), {"value": "a", "low": "a", "high": "a"}) == {}
