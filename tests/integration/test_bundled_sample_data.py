"""The sample_data agent on real files: every set is bound and called in the command sandbox.

A scripted "capable model" gives argument sets, gets the refused ones back with
Python's reason and fixes them; without sets, derived ones are checked and
written. Each fixture left in a workspace is loaded here and every set is
called with the real code, in a subprocess on a copy of the workspace.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import (
    bench,
    copy_sample,
    find_node,
    run_bundled_agent,
    write_project,
)

from remora.code import calls
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.workspace import Workspace
from remora.workspace.sync import materialize

pytestmark = pytest.mark.integration

SHOP = """\
from dataclasses import KW_ONLY, dataclass, field
from typing import ClassVar, Literal, Optional


@dataclass
class Item:
    sku: str
    price: float
    quantity: int = 0


@dataclass
class Order:
    customer: str
    _: KW_ONLY
    priority: int = 0
    total: float = field(init=False, default=0.0)
    registry: ClassVar[dict[str, int]] = {}


def total_value(items: list[Item], discount: float = 0.0, currency: Optional[str] = None,
                mode: Literal["net", "gross"] = "net", *extra, **options) -> float:
    return sum(item.price * item.quantity for item in items) * (1 - discount)
"""

# Builds every set of a fixture the way its consumers would, with the real code.
CALL_EVERY_SET = """\
import importlib, json, sys
module_name, qualname = json.load(open(sys.argv[1]))["target"].split(":")
module = importlib.import_module(module_name)
target = getattr(module, qualname)
def build(value):
    if isinstance(value, dict) and set(value) == {"__class__", "args"}:
        return getattr(module, value["__class__"])(**build(value["args"]))
    if isinstance(value, dict):
        return {k: build(v) for k, v in value.items()}
    if isinstance(value, list):
        return [build(v) for v in value]
    return value
for sample in json.load(open(sys.argv[1]))["samples"]:
    target(**build(sample["args"]))
print("called", len(json.load(open(sys.argv[1]))["samples"]))
"""


def call_every_set(workspace: Workspace, tmp_path: Path, fixture: str, root: str = "") -> str:
    """``root``: the folder the fixture's module imports from (its import root)."""
    copy = tmp_path / "copy"
    materialize(workspace, copy)
    done = subprocess.run(
        [sys.executable, "-c", CALL_EVERY_SET, fixture],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy / root)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


async def test_a_capable_model_gives_sets_and_fixes_the_refused_ones(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"shop.py": SHOP})
    node = find_node(root, "shop.py", "total_value")
    item = "Item(sku='SKU-1', price=2.5, quantity=4)"
    provider = ScriptedProvider(
        [
            tool_turn(
                (
                    "write_fixture",
                    {
                        "sets": [
                            {"name": "two_items", "args": f"[{item}, {item}], discount=0.1"},
                            {"name": "no_items", "args": "discount=0.2"},
                            {"name": "not_a_list", "args": "items=7"},
                            {"name": "a_name", "args": "items=stock"},
                        ]
                    },
                )
            ),
            tool_turn(("write_fixture", {"sets": [{"name": "empty", "args": "items=[]"}]})),
        ]
    )
    result, workspace = await run_bundled_agent("sample_data", root, node, provider)
    assert result.status == "success", result.to_dict()
    # Nothing refused after the fix: the host submits, no third model turn.
    assert len(provider.requests) == 2
    first_message = provider.requests[0].messages[1].text
    assert "Result of read_parameters" in first_message and "discount: float = 0.0" in first_message
    tool_messages = [m for m in provider.requests[1].messages if m.role == "tool"]
    first: dict[str, Any] = tool_messages[-1].results[0].payload["result"]
    assert first["accepted"] == 1 and first["written"] is True
    assert first["refused"] == [
        "no_items: does not bind to the signature: missing a required argument: 'items'",
        "not_a_list: calling it raised TypeError: 'int' object is not iterable",
        "a_name: args: 'stock' is not a literal or a call of a class of the module",
    ]
    path = "tests/fixtures/shop/total_value_samples.json"
    data = json.loads((workspace.read(path) or b"").decode())
    assert [s["name"] for s in data["samples"]] == ["two_items", "empty"]
    assert data["target"] == "shop:total_value"
    assert [p["name"] for p in data["parameters"]] == [
        "items",
        "discount",
        "currency",
        "mode",
        "*extra",
        "**options",
    ]
    assert result.details["samples"] == 2 and result.changed_files == [path]
    assert call_every_set(workspace, tmp_path, path) == "called 2"


async def test_sets_all_accepted_end_the_run_without_another_turn(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"shop.py": SHOP})
    node = find_node(root, "shop.py", "total_value")
    item = "Item(sku='SKU-1', price=2.5, quantity=4)"
    provider = ScriptedProvider(
        [tool_turn(("write_fixture", {"sets": [{"name": "one", "args": f"[{item}]"}]}))]
    )
    result, workspace = await run_bundled_agent("sample_data", root, node, provider)
    assert result.status == "success", result.to_dict()
    assert len(provider.requests) == 1 and result.turns == 1
    path = "tests/fixtures/shop/total_value_samples.json"
    assert call_every_set(workspace, tmp_path, path) == "called 1"


LABELS = """\
def label(item):
    return item.name.upper()


def names(items):
    return [item.name for item in items]


def lookup(key):
    raise AttributeError(f"no setting {key}")


def setting(key):
    return object().missing
"""


async def test_an_argument_the_code_takes_for_something_else_is_refused(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"labels.py": LABELS})
    label, names, lookup, setting = (
        find_node(root, "labels.py", n) for n in ("label", "names", "lookup", "setting")
    )
    async with bench(root) as b:
        refused = await b.run(
            "sample_data", "write_fixture", label, {"sets": [{"name": "s", "args": "'a pen'"}]}
        )
        in_list = await b.run(
            "sample_data", "write_fixture", names, {"sets": [{"name": "l", "args": "['a pen']"}]}
        )
        # The code's own AttributeError, or one on something that is no argument, is behaviour.
        raised = await b.run(
            "sample_data", "write_fixture", lookup, {"sets": [{"name": "k", "args": "'colour'"}]}
        )
        other = await b.run(
            "sample_data", "write_fixture", setting, {"sets": [{"name": "k", "args": "'colour'"}]}
        )
    assert refused["refused"] == [
        "s: the code took an argument for something it is not: 'str' object has no attribute 'name'"
    ]
    assert in_list["refused"] == [
        "l: the code took an argument for something it is not: 'str' object has no attribute 'name'"
    ]
    assert raised["accepted"] == 1 and other["accepted"] == 1


async def test_derived_sets_for_a_kw_only_dataclass_build_it(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"shop.py": SHOP})
    node = find_node(root, "shop.py", "Order")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        facts = await b.run("sample_data", "submit", node)
        workspace = b.workspace("sample_data", node)
        data = json.loads(b.text("sample_data", node, written["path"]))
    assert written["derived"] is True and written["refused"] == []
    assert [p["name"] for p in data["parameters"]] == ["customer", "priority"]
    for sample in data["samples"]:
        assert set(sample["args"]) == {"customer", "priority"}  # no `_`, no `total`
    assert facts["samples"] == len(data["samples"]) == 4
    assert call_every_set(workspace, tmp_path, written["path"]) == "called 4"


async def test_a_class_imported_from_another_project_file_is_built_too(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/orders.py", "OrderLine")
    async with bench(root) as b:
        written = await b.run(
            "sample_data",
            "write_fixture",
            node,
            {"sets": [{"args": "Product('A1', 'Apple', 0.5), 4"}]},
        )
        derived = await b.run("sample_data", "write_fixture", node)
        workspace = b.workspace("sample_data", node)
        data = json.loads(b.text("sample_data", node, written["path"]))
    assert written["accepted"] == 1 and derived["accepted"] == 3
    first = data["samples"][0]["args"]["product"]
    assert first == {
        "__class__": "Product",
        "args": {"sku": "A1", "name": "Apple", "unit_price": 0.5},
    }
    # Derived: Product comes from inventory/models.py, read there (required fields only).
    assert set(data["samples"][1]["args"]["product"]["args"]) == {"sku", "name", "unit_price"}
    assert call_every_set(workspace, tmp_path, written["path"]) == "called 4"


# A `lib/` layout whose modules import their own package by name: named from the
# project's folder (`lib.shop.orders`) the module imports `shop` a second time and fails.
LIB_LAYOUT = {
    "lib/shop/__init__.py": "",
    "lib/shop/money.py": (
        "class Price:\n    def __init__(self, cents: int) -> None:\n        self.cents = cents\n"
    ),
    "lib/shop/orders.py": (
        "import shop.money\nfrom shop.money import Price\n\n\n"
        "def total(price: Price, quantity: int) -> int:\n"
        "    assert isinstance(price, shop.money.Price)\n"
        "    return price.cents * quantity\n"
    ),
}


async def test_a_lib_layout_imports_from_its_own_root(tmp_path: Path) -> None:
    root = write_project(tmp_path, LIB_LAYOUT)
    node = find_node(root, "lib/shop/orders.py", "total")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        workspace = b.workspace("sample_data", node)
        data = json.loads(b.text("sample_data", node, written["path"]))
    assert written["refused"] == [] and written["accepted"] == len(data["samples"]) > 1, written
    assert data["target"] == "shop.orders:total"
    # Price is read from lib/shop/money.py, beside the node's package.
    assert data["samples"][0]["args"]["price"]["__class__"] == "Price"
    called = call_every_set(workspace, tmp_path, written["path"], root="lib")
    assert called == f"called {len(data['samples'])}"


async def test_a_module_that_does_not_import_is_the_runs_reason(tmp_path: Path) -> None:
    source = "import not_installed_anywhere\n\n\ndef double(x: int) -> int:\n    return 2 * x\n"
    root = write_project(tmp_path, {"calc.py": source})
    node = find_node(root, "calc.py", "double")
    async with bench(root) as b:
        facts = await b.run("sample_data", "submit", node)
    assert facts["summary"] == (
        "no argument set for double passed the check: cannot import or find it: "
        "ModuleNotFoundError: No module named 'not_installed_anywhere'"
    ), facts["summary"]


async def test_submit_alone_writes_checked_derived_sets_and_keeps_a_persons_file(
    tmp_path: Path,
) -> None:
    own = {"target": "shop:total_value", "note": "kept", "samples": [{"name": "mine", "args": {}}]}
    root = write_project(
        tmp_path,
        {"shop.py": SHOP, "tests/fixtures/shop/Item_samples.json": json.dumps(own)},
    )
    total = find_node(root, "shop.py", "total_value")
    item = find_node(root, "shop.py", "Item")
    async with bench(root) as b:
        facts = await b.run("sample_data", "submit", total)
        added = await b.run("sample_data", "write_fixture", item)
        again = await b.run("sample_data", "write_fixture", item)
        data = json.loads(b.text("sample_data", item, "tests/fixtures/shop/Item_samples.json"))
    assert facts["samples"] == 4 and facts["fixture"].endswith("total_value_samples.json")
    assert data["note"] == "kept" and data["samples"][0] == {"name": "mine", "args": {}}
    assert added["samples"] == 1 + 4 and again["written"] is False


async def test_code_that_cannot_be_called_gets_no_fixture(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "tests/test_pricing.py", "test_bulk_discount_tiers")
    refused = find_node(root, "inventory/orders.py", "order_from_dict")
    async with bench(root) as b:
        written = await b.run("sample_data", "write_fixture", node)
        facts = await b.run("sample_data", "submit", node)
        untouched = b.workspace("sample_data", node).changed_files()
        derived = await b.run("sample_data", "submit", refused)
    # Nothing written, and the submit says why (the run is then skipped: runner.settle).
    assert written["written"] is False and untouched == []
    assert "status" not in facts and "test code" in facts["summary"]
    # Strings for `data` and `catalogue` make the call fail: no set is kept, and it says why.
    assert derived["samples"] == 0 and derived["fixture"] == ""
    assert "calling it raised TypeError: string indices must be integers" in derived["refused"][0]


async def test_the_submit_after_a_refused_write_does_not_check_the_same_sets_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/orders.py", "order_from_dict")
    probed: list[list[dict[str, Any]]] = []
    real_probe = calls.probe_argument_sets

    async def counted(context: Any, sets: list[dict[str, Any]], *args: Any, **kw: Any) -> Any:
        probed.append(sets)
        return await real_probe(context, sets, *args, **kw)

    monkeypatch.setattr(calls, "probe_argument_sets", counted)
    provider = ScriptedProvider(
        [tool_turn(("write_fixture", {"sets": []})), tool_turn(("submit_result", {}))]
    )
    result, workspace = await run_bundled_agent("sample_data", root, node, provider)
    # write_fixture checked the derived sets and refused them all; submit checks the same
    # sets in the same (unchanged) workspace and gets the kept answer.
    assert result.status == "skipped", result.to_dict()
    assert workspace.changed_files() == []
    assert result.summary == "no argument set for order_from_dict passed the check"
    assert len(probed) == 1 and len(probed[0]) > 1
