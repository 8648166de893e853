"""`remora analyze` end to end with the embedded model (the default model, llama.cpp in process).

The model's choices vary, so this asserts structure, never wording: one
recorded result per node × operation, consistent workspaces, review queue and
exit code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bundled_agents_support import copy_sample

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

REMORA = str(Path(sys.executable).with_name("remora"))


@pytest.mark.timeout(1800)
def test_analyze_with_the_embedded_model(tmp_path: Path, embedded_model_path: Path) -> None:
    root = copy_sample(tmp_path)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    env["REMORA_MODEL__PATH"] = str(embedded_model_path)
    run = subprocess.run(
        [REMORA, "analyze", "inventory/pricing.py", "-o", "lint,docstring", "--format", "json"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=1700,
    )
    assert run.returncode in (0, 1), run.stderr
    report = json.loads(run.stdout)
    assert report["operations"] == ["lint", "docstring"] and report["nodes"] == 5
    results = report["results"]
    pairs = [(r["node"], r["operation"]) for r in results]
    assert len(pairs) == len(set(pairs)) == 10
    assert {r["status"] for r in results} <= {"success", "failed", "skipped"}
    assert report["exit_code"] == run.returncode
    assert (run.returncode == 0) == all(r["status"] != "failed" for r in results)
    for r in results:
        # A run the host finished from its host steps (nothing to fix) asks no model,
        # unless a step asked it for a completion (a drafted docstring or fix).
        asked = r["turns"] >= 1 or bool(r["details"].get("completions"))
        assert asked == (r["usage"]["prompt_tokens"] > 0), r
        if r["status"] == "failed":
            assert r["error"]["code"].startswith("AGENT_")
        # A workspace is kept exactly when there is something to review.
        assert (r["workspace_id"] is not None) == bool(r["changed_files"])
        assert r["review"] == ("pending" if r["changed_files"] else "none")
        assert set(r["changed_files"]) <= {"inventory/pricing.py"}
    pending = sorted(r["workspace_id"] for r in results if r["workspace_id"])
    assert WorkspaceStore(root).ids() == pending
    with ResultsDB(root) as db:
        recorded = db.list(run_id=report["run_id"])
    assert sorted((r.node_name, r.operation, r.status) for r in recorded) == sorted(
        (r["node"], r["operation"], r["status"]) for r in results
    )
    # Nothing reached the project: that is `remora review accept`'s job.
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".remora" not in p.parts}
    assert after == before
