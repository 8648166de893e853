"""The lint agent's tool scripts in the real sandbox, on real files, with real ruff."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, copy_sample, find_node, write_project

pytestmark = pytest.mark.integration


async def test_run_linter_lists_the_file_nodes_unused_imports(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/models.py")
    async with bench(root) as b:
        result = await b.run("lint", "run_linter", node)
    codes = [(i["code"], i["line"]) for i in result["issues"]]
    assert ("F401", 5) in codes and ("F401", 7) in codes
    # E711 sits inside Warehouse.get: that method's own node reports it, not the file.
    assert all(code != "E711" for code, _ in codes)
    assert result["fixable_codes"] == ["F401"]


async def test_apply_fix_removes_exactly_the_unused_imports(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    before = (root / "inventory/models.py").read_bytes()
    node = find_node(root, "inventory/models.py")
    async with bench(root) as b:
        result = await b.run("lint", "apply_fix", node, {"issue_code": "F401"})
        ws = b.workspace("lint", node)
        after = b.text("lint", node, "inventory/models.py")
        remaining = await b.run("lint", "submit", node)
    assert result["applied"] == ["F401", "F401"]
    assert result["remaining"] == []
    expected = (
        before.decode()
        .replace("import datetime\n", "")
        .replace("from typing import Optional\n", "")
    )
    assert after == expected
    assert ws.changed_files() == ["inventory/models.py"]
    diff = ws.diff()
    assert "-import datetime" in diff and "-from typing import Optional" in diff
    assert (
        sum(
            1
            for line in diff.splitlines()
            if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))
        )
        == 2
    )
    # Nothing reaches the project before review.
    assert (root / "inventory/models.py").read_bytes() == before
    assert remaining["remaining"] == []
    assert remaining["summary"] == "no ruff findings left on inventory/models.py"


async def test_function_node_fixes_only_its_own_lines(tmp_path: Path) -> None:
    source = "import os\n\n\ndef helper(x):\n    import json\n    return x\n"
    root = write_project(tmp_path, {"pkg/mod.py": source})
    node = find_node(root, "pkg/mod.py", "helper")
    async with bench(root) as b:
        listed = await b.run("lint", "run_linter", node)
        fixed = await b.run("lint", "apply_fix", node, {"issue_code": "F401"})
        text = b.text("lint", node, "pkg/mod.py")
    assert [(i["code"], i["line"]) for i in listed["issues"]] == [("F401", 5)]
    assert fixed["applied"] == ["F401"]
    assert text == "import os\n\n\ndef helper(x):\n    return x\n"


async def test_class_node_leaves_its_methods_to_their_own_nodes(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    cls = find_node(root, "inventory/models.py", "Warehouse")
    method = find_node(root, "inventory/models.py", "Warehouse.get")
    async with bench(root) as b:
        of_class = await b.run("lint", "run_linter", cls)
        of_method = await b.run("lint", "run_linter", method)
    assert of_class["issues"] == []
    assert [i["code"] for i in of_method["issues"]] == ["E711"]
    # ruff's E711 fix is unsafe: not applied automatically.
    assert of_method["fixable_codes"] == []
    async with bench(root) as b:
        facts = await b.run("lint", "submit", method)
    assert facts["summary"] == "1 ruff finding(s) left on Warehouse.get: E711"


async def test_apply_fix_with_a_poor_argument_falls_back_to_the_fixable_codes(
    tmp_path: Path,
) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py")
    async with bench(root) as b:
        result = await b.run("lint", "apply_fix", node, {"issue_code": "please fix it"})
        text = b.text("lint", node, "inventory/pricing.py")
    assert result["applied"] == ["F401"]
    assert "please fix it" in result["note"]
    assert "import math" not in text


async def test_apply_fix_with_nothing_to_fix_changes_nothing(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py", "bulk_discount")
    async with bench(root) as b:
        result = await b.run("lint", "apply_fix", node, {"issue_code": "F401"})
        ws = b.workspace("lint", node)
    assert result["applied"] == [] and result["next"] == "nothing fixable on this node"
    assert ws.changed_files() == []


async def test_overlapping_fixes_of_one_statement_are_applied_once(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"m.py": "import os, sys\nimport json\n\nprint(json)\n"})
    node = find_node(root, "m.py")
    async with bench(root) as b:
        result = await b.run("lint", "apply_fix", node, {"issue_code": "F401"})
        text = b.text("lint", node, "m.py")
    assert result["remaining"] == []
    assert text == "import json\n\nprint(json)\n"


async def test_crlf_and_non_ascii_lines_keep_their_bytes(tmp_path: Path) -> None:
    source = 'import os\r\nNAME = "Überstraße"  # ü\r\n\r\nprint(NAME)\r\n'
    root = write_project(tmp_path, {"m.py": source})
    node = find_node(root, "m.py")
    async with bench(root) as b:
        await b.run("lint", "apply_fix", node, {"issue_code": "F401"})
        data = b.workspace("lint", node).read("m.py")
    assert data == 'NAME = "Überstraße"  # ü\r\n\r\nprint(NAME)\r\n'.encode()


async def test_ruff_config_context_reads_the_projects_settings(tmp_path: Path) -> None:
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/models.py")
    async with bench(root) as b:
        env = await b.envelope("lint", "context/ruff_config.pym", node)
    assert env["ok"], env
    assert env["result"].startswith("ruff settings from pyproject.toml:")
    assert 'select = ["E", "F", "W"]' in env["result"]
    assert "[project]" not in env["result"]


async def test_edit_node_with_a_safely_fixable_code_applies_ruffs_fix_not_the_text(
    tmp_path: Path,
) -> None:
    # What SmolLM2 does: the rule code as the replacement text.
    root = copy_sample(tmp_path)
    node = find_node(root, "inventory/pricing.py")
    async with bench(root) as b:
        result = await b.run(
            "lint", "edit_node", node, {"issue_code": "F401", "replacement": "F401"}
        )
        text = b.text("lint", node, "inventory/pricing.py")
    assert result["written"] is True
    assert result["note"] == "ruff's safe fix for F401 was applied instead of the given text"
    assert "import math" not in text and "F401" not in text


async def test_a_refused_edit_still_applies_the_nodes_safe_fixes(tmp_path: Path) -> None:
    source = "def f(x):\n    import os\n    y = x\n    return x\n"
    root = write_project(tmp_path, {"m.py": source})
    node = find_node(root, "m.py", "f")
    async with bench(root) as b:
        result = await b.run("lint", "edit_node", node, {"issue_code": "F841", "replacement": "x"})
        text = b.text("lint", node, "m.py")
    assert result["written"] is False
    assert result["reason"] == "the replacement no longer defines f"
    assert result["note"] == "applied ruff's safe fixes for F401 instead"
    assert text == "def f(x):\n    y = x\n    return x\n"


async def test_an_edit_replaces_the_nodes_last_line_with_its_comment(tmp_path: Path) -> None:
    source = "def f(x):\n    y = x\n    return x  # keep\n\n\nz = 1\n"
    root = write_project(tmp_path, {"m.py": source})
    node = find_node(root, "m.py", "f")
    fixed = "def f(x):\n    return x  # keep"
    async with bench(root) as b:
        result = await b.run(
            "lint", "edit_node", node, {"issue_code": "F841", "replacement": fixed}
        )
        text = b.text("lint", node, "m.py")
    assert result["written"] is True, result
    assert text == "def f(x):\n    return x  # keep\n\n\nz = 1\n"
