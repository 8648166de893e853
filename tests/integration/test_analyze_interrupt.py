"""Ctrl-C during `remora analyze`: exit 130, unfinished workspaces discarded, the
results database consistent (the real CLI in a subprocess, SIGINT as a terminal sends it).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
import yaml

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

REMORA = str(Path(sys.executable).with_name("remora"))


def _recorded(root: Path) -> int:
    """How many results the running analysis has written (read-only: it is writing)."""
    path = root / ".remora" / "remora.db"
    if not path.is_file():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet, or busy: ask again
        return 0


def test_sigint_stops_cleanly_with_exit_130(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    # f has a finding without a safe fix (F841), so its run asks the model; a node without
    # findings would be finished by the host.
    (root / "pkg" / "a.py").write_text("import os\n\n\ndef f():\n    unused = 1\n    return 1\n")
    # The file's run is finished by the host (its F401 has a safe fix, applied by the host);
    # the second run (f) waits in the model: that is where Ctrl-C lands.
    edit = {"issue_code": "F841", "replacement": "def f():\n    return 1"}
    turns = [{"calls": [{"name": "edit_node", "arguments": edit}], "delay_s": 120}]
    (root / "turns.yaml").write_text(yaml.safe_dump(turns))
    (root / "remora.yaml").write_text(
        "model:\n  provider: scripted\n  id: scripted\n  path: turns.yaml\n"
        "sandbox:\n  max_concurrent_agents: 1\nevents:\n  enabled: true\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    process = subprocess.Popen(
        [REMORA, "analyze", "pkg", "-o", "lint"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    events = root / ".remora" / "events.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        kinds = (
            [json.loads(line)["kind"] for line in events.read_text().splitlines()]
            if events.is_file()
            else []
        )
        # Both runs started, f's waits in the model, and the file's run is recorded (its
        # result is written after its run_end, beside f's model request: under load the
        # signal could land in between and discard it).
        if (
            kinds.count("run_start") == 2
            and kinds.count("model_request") == 1
            and kinds.count("run_end") == 1
            and _recorded(root) == 1
        ):
            break
        if process.poll() is not None:
            raise AssertionError(f"analyze ended early: {process.communicate()}")
        time.sleep(0.1)
    else:
        process.kill()
        raise AssertionError("the second run never started")
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err
    with ResultsDB(root) as db:
        (run,) = db.runs()
        assert run.finished is not None
        records = db.list()
    # The finished run is recorded and waits for review; the interrupted one left nothing.
    assert [(r.node_name, r.status, r.review_state) for r in records] == [
        ("pkg/a.py", "success", "pending")
    ]
    assert WorkspaceStore(root).ids() == [records[0].workspace_id]
    assert (root / "pkg" / "a.py").read_text().startswith("import os\n")
