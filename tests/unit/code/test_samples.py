"""Derived argument sets (remora.code.samples), one JSON case per file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from remora.code.constructor import Parameter
from remora.code.samples import argument_sets, literal_default

CASES = Path(__file__).parent / "sample_cases"


def _parameters(rows: list[list[Any]]) -> list[Parameter]:
    return [Parameter(name, kind, annotation, default) for name, kind, annotation, default in rows]


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.json")))
def test_derived_sets_are_the_expected_ones(name: str) -> None:
    case = json.loads((CASES / f"{name}.json").read_text())
    classes = {key: _parameters(rows) for key, rows in case["classes"].items()}
    got = argument_sets(_parameters(case["parameters"]), classes.get, case["count"])
    assert got == case["expected"], case["why"]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (None, (False, None)),
        ("None", (True, None)),
        ("(1, 2)", (True, [1, 2])),
        ("list()", (True, [])),
        ("-1.5", (True, -1.5)),
        ("datetime.now()", (False, None)),
        ("b'x'", (False, None)),
    ],
)
def test_literal_defaults(source: str | None, expected: tuple[bool, Any]) -> None:
    assert literal_default(source) == expected
