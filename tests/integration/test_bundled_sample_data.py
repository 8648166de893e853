"""The sample_data agent's tool scripts in the real sandbox, on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bundled_agents_support import bench, copy_sample, find_node, write_project

pytestmark = pytest.mark.integration

SOURCE = """\
from dataclasses import dataclass
from typing import Literal, Optional


@dataclass
class Item:
    sku: str
    price: float
    quantity: int = 0


def total_value(items: list[Item], discount: float = 0.0, currency: Optional[str] = None,
                mode: Literal["net", "gross"] = "net", *extra, **options) -> float:
    return 0.0


class Store:
    def __init__(self, name: str, city: str = "Oslo"):
        self.name = name

    def restock(self, item: Item, qty: int, notify: bool = False) -> int:
        return qty
"""


async def test_fixture_from_an_annotated_signature(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"shop.py": SOURCE})
    node = find_node(root, "shop.py", "total_value")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        data = json.loads(b.text("sample_data", node, written["path"]))
        ws = b.workspace("sample_data", node)
    assert written["path"] == "tests/fixtures/shop/total_value_samples.json"
    assert ws.changed_files() == [written["path"]]
    assert data["target"] == "shop:total_value"
    assert [p["name"] for p in data["parameters"]] == [
        "items",
        "discount",
        "currency",
        "mode",
        "*extra",
        "**options",
    ]
    assert [s["name"] for s in data["samples"]] == ["defaults", "typical", "alternative", "edge"]
    defaults = data["samples"][0]["args"]
    assert defaults["discount"] == 0.0 and defaults["currency"] is None
    assert defaults["mode"] == "net"
    item = defaults["items"][0]
    assert item["__class__"] == "Item" and set(item["args"]) == {"sku", "price", "quantity"}
    typical = data["samples"][1]["args"]
    assert isinstance(typical["discount"], float) and isinstance(typical["currency"], str)
    assert typical["mode"] in ("net", "gross")
    edge = data["samples"][3]["args"]
    assert edge["items"] == [] and edge["currency"] is None
    # Every sample gives every plain parameter, none of *extra/**options.
    for sample in data["samples"]:
        assert set(sample["args"]) == {"items", "discount", "currency", "mode"}
    assert written["parameters"] == ["items", "discount", "currency", "mode", "*extra", "**options"]


async def test_fixture_for_a_method_and_a_dataclass(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"shop.py": SOURCE})
    method = find_node(root, "shop.py", "Store.restock")
    cls = find_node(root, "shop.py", "Item")
    async with bench(root) as b:
        m = await b.run("sample_data", "write_fixture", method)
        c = await b.run("sample_data", "write_fixture", cls)
        m_data = json.loads(b.text("sample_data", method, m["path"]))
        c_data = json.loads(b.text("sample_data", cls, c["path"]))
    assert [p["name"] for p in m_data["parameters"]] == ["item", "qty", "notify"]
    assert m_data["samples"][0]["args"]["notify"] is False
    assert c_data["target"] == "shop:Item"
    assert c_data["samples"][0] == {
        "name": "defaults",
        "args": {"sku": "SKU-001", "price": 9.99, "quantity": 0},
    }


async def test_an_existing_fixture_is_extended_not_overwritten(tmp_path: Path) -> None:
    own = {
        "target": "shop:total_value",
        "note": "kept",
        "samples": [{"name": "mine", "args": {"items": []}}],
    }
    root = write_project(
        tmp_path,
        {
            "shop.py": SOURCE,
            "tests/fixtures/shop/total_value_samples.json": json.dumps(own),
        },
    )
    node = find_node(root, "shop.py", "total_value")
    async with bench(root) as b:
        first = await b.run("sample_data", "write_fixture", node)
        again = await b.run("sample_data", "write_fixture", node)
        data = json.loads(b.text("sample_data", node, first["path"]))
    assert data["note"] == "kept"
    assert data["samples"][0] == {"name": "mine", "args": {"items": []}}
    assert first["added"] == 4 and again["added"] == 0 and len(data["samples"]) == 5


async def test_untyped_names_still_give_values(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "apply_discount")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        data = json.loads(b.text("sample_data", node, written["path"]))
        summary = await b.run("sample_data", "submit", node)
    # Without defaults, "alternative" would repeat "defaults": duplicates are dropped.
    assert [s["name"] for s in data["samples"]] == ["defaults", "typical", "edge"]
    typical = data["samples"][1]["args"]
    assert isinstance(typical["price"], float) and isinstance(typical["percent"], float)
    assert data["samples"][2]["args"] == {"price": 0.0, "percent": 0.0}
    assert summary["samples"] == 3 and summary["fixture"] == written["path"]


async def test_submit_without_a_fixture_says_so(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "bulk_discount")
    async with bench(root) as b:
        summary = await b.run("sample_data", "submit", node)
    assert summary == {
        "summary": "no fixture written for bulk_discount",
        "fixture": "",
        "samples": 0,
    }


async def test_test_code_gets_no_sample_data(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "tests/test_pricing.py", "test_bulk_discount_tiers")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        summary = await b.run("sample_data", "submit", node)
        ws = b.workspace("sample_data", node)
    assert written["written"] is False
    assert summary["status"] == "skipped" and ws.changed_files() == []
