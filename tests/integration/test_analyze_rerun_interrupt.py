"""Ctrl-C during a second `remora analyze` of a node keeps the change the first one left.

The real CLI in a subprocess with the scripted provider and a small agent of the
project's own; SIGINT lands while the second run waits in the model.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

REMORA = str(Path(sys.executable).with_name("remora"))

AGENT = """\
name: note
description: Writes a note about a function.
node_types: [function]
max_turns: 3
initial_context:
  system_prompt: You write notes.
  node_context: "Note on {{ full_name }}"
tools:
  - name: write_note
    pym: tools/write_note.pym
    description: Write the note.
    parameters:
      type: object
      properties: {text: {type: string}}
      required: [text]
  - name: submit_result
    pym: tools/submit.pym
    description: Finish.
    parameters: {type: object, properties: {}}
"""

WRITE_NOTE = """\
from remora.pym import Input, external

text: str = Input("text")


@external
async def write_file(path: str, content: str) -> bool: ...


await write_file("notes/one.txt", text + "\\n")
{"written": "notes/one.txt"}
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "pkg" / "a.py").write_text("def one():\n    return 1\n")
    tools = root / "agents" / "note" / "tools"
    tools.mkdir(parents=True)
    (root / "agents" / "note" / "agent.yaml").write_text(AGENT)
    (tools / "write_note.pym").write_text(WRITE_NOTE)
    (tools / "submit.pym").write_text("{'summary': 'noted'}\n")
    return root


def _analyze(root: Path, note: str, delay_s: float = 0) -> subprocess.Popen[str]:
    turns = [
        {"calls": [{"name": "write_note", "arguments": {"text": note}}], "delay_s": delay_s},
        {"calls": [{"name": "submit_result", "arguments": {}}]},
    ]
    (root / "turns.yaml").write_text(yaml.safe_dump(turns))
    # A model id of its own per run: incremental analyze would otherwise keep
    # the first result, whose inputs are unchanged.
    (root / "remora.yaml").write_text(
        f"agents_dir: agents\nmodel:\n  provider: scripted\n  id: scripted-{note}\n"
        "  path: turns.yaml\noperations:\n  note: {}\nevents:\n  enabled: true\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    return subprocess.Popen(
        [REMORA, "analyze", "pkg", "-o", "note", "--type", "function"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_model_requests(root: Path, count: int, process: subprocess.Popen[str]) -> None:
    events = root / ".remora" / "events.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        lines = events.read_text().splitlines() if events.is_file() else []
        if [json.loads(line)["kind"] for line in lines].count("model_request") >= count:
            return
        if process.poll() is not None:
            raise AssertionError(f"analyze ended early: {process.communicate()}")
        time.sleep(0.1)
    process.kill()
    raise AssertionError("the model was never asked")


def test_an_interrupted_rerun_keeps_the_pending_change(tmp_path: Path) -> None:
    root = _project(tmp_path)
    first = _analyze(root, "first")
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, (out, err)
    store = WorkspaceStore(root)
    (pending,) = store.ids()

    second = _analyze(root, "second", delay_s=120)
    _wait_for_model_requests(root, 3, second)  # the first run asked twice
    second.send_signal(signal.SIGINT)
    _out, err = second.communicate(timeout=60)
    assert second.returncode == 130, err
    assert store.ids() == [pending]
    with store.open(pending) as ws:
        assert ws.read("notes/one.txt") == b"first\n"
    with ResultsDB(root) as db:
        assert db.get(pending).review_state == "pending"  # type: ignore[union-attr]

    third = _analyze(root, "third")
    out, err = third.communicate(timeout=120)
    assert third.returncode == 0, (out, err)
    (replacement,) = store.ids()
    assert replacement != pending
    with store.open(replacement) as ws:
        assert ws.read("notes/one.txt") == b"third\n"
    with ResultsDB(root) as db:
        assert db.get(pending).review_state == "superseded"  # type: ignore[union-attr]
    assert not (root / "notes").exists()  # nothing reached the project
