"""Tests from a model's cases and sources (code.testgen.written_tests), one JSON case per file.

Each case names the node it is for (``function``: ``shop.pricing.apply_discount``;
``method``: ``shop.models.StockItem.remove``) and gives the model's input and
either the piece(s) expected or the start of the refusal's reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from remora.code.testgen.written_tests import case_piece, source_pieces
from remora.code.values.parameters import Parameter

CASES = Path(__file__).parent / "model_test_cases"
MODULE_NAMES = {"apply_discount", "OutOfStock", "StockItem", "Money"}
TARGETS: dict[str, dict[str, Any]] = {
    "function": {
        "module": "shop.pricing",
        "qualname": "apply_discount",
        "name": "apply_discount",
        "kind": "function",
        "owner": "",
        "method_kind": "",
        "is_async": False,
        "parameters": [
            {"name": "price", "kind": "positional_or_keyword"},
            {"name": "percent", "kind": "positional_or_keyword"},
        ],
    },
    "method": {
        "module": "shop.models",
        "qualname": "StockItem.remove",
        "name": "remove",
        "kind": "method",
        "owner": "StockItem",
        "method_kind": "instance",
        "is_async": False,
        "parameters": [{"name": "amount", "kind": "positional_or_keyword"}],
    },
}
OWNER_ARGS = {"function": {}, "method": {"product": None, "quantity": 1}}
CLASSES = {"Money": [Parameter("cents", "positional_or_keyword")]}


def _case(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / f"{name}.json").read_text())
    return data


def _pieces(case: dict[str, Any]) -> list[dict[str, Any]]:
    target = TARGETS[case["target"]]
    if case["kind"] == "case":
        name = f"test_{'stock_item_remove' if case['target'] == 'method' else 'apply_discount'}"
        piece = case_piece(
            target,
            MODULE_NAMES,
            OWNER_ARGS[case["target"]],
            case["input"],
            f"{name}_case_1",
            CLASSES.get,
        )
        return [piece]
    return source_pieces(case["input"], target, target["module"])


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.json")))
def test_a_model_input_gives_the_expected_test_or_refusal(name: str) -> None:
    case = _case(name)
    if "error" in case:
        with pytest.raises(ValueError) as caught:
            _pieces(case)
        assert str(caught.value).startswith(case["error"]), case["why"]
        return
    pieces = _pieces(case)
    expected = case["expected"] if isinstance(case["expected"], list) else [case["expected"]]
    for piece, want in zip(pieces, expected, strict=True):
        for key, value in want.items():
            assert piece[key] == value, f"{case['why']} ({key})"
