"""`remora analyze` end to end as a user runs it (the real CLI in a subprocess), with the
scripted provider, so every outcome can be asserted exactly; then `remora review`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

REMORA = str(Path(sys.executable).with_name("remora"))
SHOP = '''\
"""Shop helpers."""

import os
import sys


def total(prices):
    return sum(prices)
'''


def project(tmp_path: Path, turns: list[dict[str, Any]], config: str = "") -> Path:
    root = tmp_path / "shop"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shop.py").write_text(SHOP)
    (root / "turns.yaml").write_text(yaml.safe_dump(turns))
    (root / "remora.yaml").write_text(
        "model:\n  provider: scripted\n  id: scripted\n  path: turns.yaml\n"
        "sandbox:\n  max_concurrent_agents: 1\n" + config
    )
    return root


def remora(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    return subprocess.run(
        [REMORA, *args], cwd=root, capture_output=True, text=True, timeout=300, env=env
    )


def step(name: str, **arguments: Any) -> dict[str, Any]:
    return {"calls": [{"name": name, "arguments": arguments}]}


# pkg/__init__.py, pkg/shop.py, total: the host applies ruff's safe fixes (shop.py's two
# F401) and finishes every run, for no finding is left: the model is never asked.
LINT_TURNS: list[dict[str, Any]] = []


def test_lint_removes_the_unused_imports_and_review_shows_accepts_exactly_that(
    tmp_path: Path,
) -> None:
    root = project(tmp_path, LINT_TURNS)
    run = remora(root, "analyze", "pkg", "-o", "lint", "--format", "json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["counts"] == {"success": 3, "failed": 0, "skipped": 0, "changed": 1}
    rows = {r["node"]: r for r in report["results"]}
    assert list(rows) == ["pkg/__init__.py", "pkg/shop.py", "total"]
    shop = rows["pkg/shop.py"]
    assert shop["changed_files"] == ["pkg/shop.py"] and shop["review"] == "pending"
    assert (
        shop["summary"] == "no ruff findings left on pkg/shop.py outside its functions and classes"
    )
    assert shop["details"]["remaining"] == []
    assert rows["total"]["changed_files"] == [] and rows["total"]["workspace_id"] is None

    listed = remora(root, "review", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    items = json.loads(listed.stdout)
    assert [i["id"] for i in items] == [shop["workspace_id"]]
    with WorkspaceStore(root).open(shop["workspace_id"]) as ws:
        diff = ws.diff()
    removed = [
        line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")
    ]
    added = [
        line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")
    ]
    # The imports' lines go with one of the blank lines around them: two are left, not three.
    assert removed == ["-import os", "-import sys", "-"] and added == []
    shown = remora(root, "review", "show", shop["workspace_id"])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.rstrip("\n") == diff.rstrip("\n")

    accepted = remora(root, "review", "accept", shop["workspace_id"])
    assert accepted.returncode == 0, accepted.stderr
    assert (root / "pkg" / "shop.py").read_text() == SHOP.replace("import os\nimport sys\n\n", "")
    assert WorkspaceStore(root).ids() == []


def test_reject_leaves_every_file_byte_identical(tmp_path: Path) -> None:
    root = project(tmp_path, LINT_TURNS)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    run = remora(root, "analyze", "pkg", "-o", "lint", "--format", "json")
    assert run.returncode == 0, run.stderr
    workspace = next(
        r["workspace_id"] for r in json.loads(run.stdout)["results"] if r["changed_files"]
    )
    rejected = remora(root, "review", "reject", workspace)
    assert rejected.returncode == 0, rejected.stderr
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".remora" not in p.parts}
    assert after == before
    assert WorkspaceStore(root).ids() == []


def test_docstring_style_comes_from_the_operation_options(tmp_path: Path) -> None:
    turns = [
        step(
            "write_docstring",
            summary="add up the prices and return the sum",
            params={"prices": "Numbers to add."},
            returns="Their sum.",
        ),
        step("submit_result"),
    ]
    options = (
        "operations:\n  docstring:\n    options:\n      style: numpy\n      details: true\n"
        "      draft: false\n"  # the scripted model's words, not a draft
    )
    root = project(tmp_path, turns, options)
    run = remora(
        root, "analyze", "pkg/shop.py", "-o", "docstring", "--type", "function", "--format", "json"
    )
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(run.stdout)["results"]
    assert row["status"] == "success" and row["summary"].startswith("docstring of total")
    with WorkspaceStore(root).open(row["workspace_id"]) as ws:
        text = (ws.read("pkg/shop.py") or b"").decode()
    assert text == SHOP.replace(
        "def total(prices):\n",
        'def total(prices):\n    """Add up the prices and return the sum.\n\n    Parameters\n'
        "    ----------\n"
        "    prices\n        Numbers to add.\n\n    Returns\n    -------\n    object\n"
        '        Their sum.\n    """\n',
    )


def test_table_output_and_exit_code_when_some_operations_fail(tmp_path: Path) -> None:
    # `total` gets a finding with no safe fix (F841), so its run asks the model and finds the
    # script empty (AGENT_002); the other nodes are finished by the host without a model turn.
    root = project(tmp_path, LINT_TURNS)
    shop = root / "pkg" / "shop.py"
    shop.write_text(SHOP.replace("    return sum", "    unused = 1\n    return sum"))
    run = remora(root, "analyze", "pkg", "-o", "lint")
    assert run.returncode == 1, run.stderr
    assert "function total" in run.stdout and "✗ AGENT_002" in run.stdout
    assert "3 results for 3 nodes × 1 operations" in run.stdout


def test_an_unavailable_model_stops_before_any_agent_with_agent_002(tmp_path: Path) -> None:
    root = project(tmp_path, [])
    (root / "remora.yaml").write_text("model:\n  provider: scripted\n  id: scripted\n")
    run = remora(root, "analyze", "pkg", "-o", "lint")
    assert run.returncode == 2
    assert "error[AGENT_002]" in run.stderr and "scripted" in run.stderr
    assert "hint:" in run.stderr
    assert WorkspaceStore(root).ids() == []


def test_a_broken_agent_fails_its_operation_and_the_others_still_run(tmp_path: Path) -> None:
    root = project(tmp_path, LINT_TURNS)
    broken = root / "agents" / "broken"
    broken.mkdir(parents=True)
    (broken / "agent.yaml").write_text(
        "name: broken\ndescription: x\ninitial_context:\n  system_prompt: s\n"
        "  node_context: n\ntools:\n  - name: submit_result\n    pym: tools/none.pym\n"
        "    description: Finish.\n"
    )
    with (root / "remora.yaml").open("a") as handle:
        handle.write("agents_dir: agents\n")
    run = remora(root, "analyze", "pkg", "-o", "lint,broken", "--format", "json")
    assert run.returncode == 1, run.stderr
    results = json.loads(run.stdout)["results"]
    assert [(r["operation"], r["status"]) for r in results] == [
        ("lint", "success"),
        ("broken", "failed"),
    ] * 3
    assert {r["error"]["code"] for r in results if r["operation"] == "broken"} == {"AGENT_001"}


def test_unknown_operation_is_a_usage_error(tmp_path: Path) -> None:
    root = project(tmp_path, [])
    run = remora(root, "analyze", "pkg", "-o", "lnt")
    assert run.returncode == 2
    assert "unknown operation 'lnt'" in run.stderr and "did you mean 'lint'?" in run.stderr
