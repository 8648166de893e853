"""The test agent's tool scripts in the real sandbox: real pytest through run_command."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, copy_sample, find_node, write_project

pytestmark = pytest.mark.integration


async def test_write_tests_extends_the_modules_test_file_and_they_pass(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    before = (root / "tests/test_pricing.py").read_text()
    node = find_node(root, "inventory/pricing.py", "tax_for")
    async with bench(root) as b:
        shown = await b.run("test", "read_tests", node)
        written = await b.run("test", "write_tests", node)
        text = b.text("test", node, "tests/test_pricing.py")
        ws = b.workspace("test", node)
        facts = await b.run("test", "submit", node)
    assert shown["testable"] is True and shown["exists"] is True
    assert shown["test_file"] == "tests/test_pricing.py"
    assert written["written"] is True
    assert written["tests"] == [
        "test_tax_for_defaults",
        "test_tax_for_typical",
        "test_tax_for_edge",
    ]
    assert written["failed"] == 0 and written["passed"] == 7 + 3
    # The person's tests stay byte for byte; the import line gains the new name.
    assert text.startswith(
        before.replace(
            "from inventory.pricing import apply_discount, bulk_discount",
            "from inventory.pricing import apply_discount, bulk_discount, tax_for",
        )
    )
    assert "def test_tax_for_typical():" in text
    assert ws.changed_files() == ["tests/test_pricing.py"]  # no probe or cache files left
    assert facts["passed"] == 10 and facts["failed"] == 0
    assert facts["summary"] == "10 passed, 0 failed in tests/test_pricing.py"


async def test_exceptions_and_methods_become_pytest_raises_and_setup(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/models.py", "Warehouse.get")
    async with bench(root) as b:
        written = await b.run("test", "write_tests", node)
        text = b.text("test", node, "tests/test_models.py")
    assert written["written"] is True and written["failed"] == 0
    assert text.startswith(
        '"""Tests for inventory.models."""\n\nimport pytest\n\n'
        "from inventory.models import Warehouse\n"
    )
    assert "    warehouse = Warehouse(name=" in text
    assert "    with pytest.raises(KeyError):\n        warehouse.get(sku=" in text


async def test_a_new_test_file_for_a_plain_module(tmp_path: Path) -> None:
    source = (
        "async def shout(text: str) -> str:\n"
        "    return text.upper()\n"
        "\n"
        "\n"
        "def ratio(count: int, total: int) -> float:\n"
        "    return count / total\n"
    )
    root = write_project(tmp_path, {"calc.py": source})
    async with bench(root) as b:
        first = await b.run("test", "write_tests", find_node(root, "calc.py", "shout"))
        node = find_node(root, "calc.py", "ratio")
        second = await b.run("test", "write_tests", node)
        text = b.text("test", node, "tests/test_calc.py")
    assert first["written"] and second["written"]
    assert second["failed"] == 0
    assert "    result = asyncio.run(shout(text=" not in text  # other node: other workspace
    assert "    with pytest.raises(ZeroDivisionError):\n        ratio(count=0, total=0)\n" in text
    assert "assert result == pytest.approx(" in text


async def test_fix_tests_rewrites_stale_expectations_and_leaves_person_tests(
    tmp_path: Path,
) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "round_money")
    async with bench(root) as b:
        written = await b.run("test", "write_tests", node)
        ws = b.workspace("test", node)
        text = b.text("test", node, "tests/test_pricing.py")
        stale = text.replace(
            "assert result == pytest.approx(", "assert result == 1 + pytest.approx(", 1
        )
        stale += "\n\ndef test_written_by_a_person():\n    assert 1 == 2\n"
        ws.write("tests/test_pricing.py", stale.encode())
        ran = await b.run("test", "run_tests", node)
        fixed = await b.run("test", "fix_tests", node)
        final = b.text("test", node, "tests/test_pricing.py")
    assert written["failed"] == 0
    assert ran["failed"] == 2
    assert fixed["rewritten"] == ["test_round_money_defaults"]
    assert fixed["removed"] == [] and fixed["left_failing"] == ["test_written_by_a_person"]
    assert fixed["failed"] == 1
    assert "1 + pytest.approx" not in final
    assert "def test_written_by_a_person():" in final


async def test_nested_functions_are_reported_untestable(tmp_path: Path) -> None:
    source = "def outer():\n    def inner():\n        return 1\n    return inner()\n"
    root = write_project(tmp_path, {"mod.py": source})
    node = find_node(root, "mod.py", "outer.inner")
    async with bench(root) as b:
        shown = await b.run("test", "read_tests", node)
        written = await b.run("test", "write_tests", node)
        ws = b.workspace("test", node)
        facts = await b.run("test", "submit", node)
    assert shown["testable"] is False and written["written"] is False
    assert ws.changed_files() == []
    assert facts["status"] == "skipped"


async def test_test_functions_get_no_tests_of_their_own(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "tests/test_pricing.py", "test_apply_discount_rounds_to_cents")
    async with bench(root) as b:
        shown = await b.run("test", "read_tests", node)
        written = await b.run("test", "write_tests", node)
    assert shown["testable"] is False and written["written"] is False


async def test_side_effect_files_of_the_code_under_test_are_removed(tmp_path: Path) -> None:
    source = (
        "from pathlib import Path\n"
        "\n"
        "\n"
        "def save(path: str, text: str) -> int:\n"
        "    return Path(Path(path).name).write_text(text)\n"
    )
    root = write_project(tmp_path, {"store.py": source})
    node = find_node(root, "store.py", "save")
    async with bench(root) as b:
        written = await b.run("test", "write_tests", node)
        ws = b.workspace("test", node)
    assert written["written"] is True
    assert ws.changed_files() == ["tests/test_store.py"]
    assert "example.txt" in written["side_effect_files_removed"]


async def test_run_tests_writes_the_nodes_tests_first_when_it_has_none(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "tax_for")
    covered = find_node(root, "inventory/pricing.py", "bulk_discount")
    async with bench(root) as b:
        ran = await b.run("test", "run_tests", node)
        again = await b.run("test", "fix_tests", node)
        # test_bulk_discount_tiers exists: that node counts as tested already.
        other = await b.run("test", "run_tests", covered)
    assert ran["written_first"] == [
        "test_tax_for_defaults",
        "test_tax_for_typical",
        "test_tax_for_edge",
    ]
    assert other["written_first"] == []
    assert ran["failed"] == 0 and ran["passed"] == 7 + 3
    assert again["written_first"] == [] and again["note"] == "nothing to fix"
