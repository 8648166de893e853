"""`remora analyze --processes 2` (the real CLI) against a real stand-in server.

The nodes are sharded by file over two host processes: the command's own, which
runs the first shard, and one child. Checked as a user sees it: the same results
and review queue as one process, one run in the results database, the second run
keeps everything without a request; Ctrl-C stops every process (exit 130, nothing
left running); a child killed mid-run leaves its finished runs recorded and its
other tasks failed with SHARD_CRASHED, while the other shard finishes (exit 1).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from standin_support import MODEL_WORDS, REMORA, Standin, remora_env

from remora.agents import AgentRegistry
from remora.config.loading import load_config
from remora.coordinator import plan_operations
from remora.coordinator.shards import plan_shards
from remora.discovery import discover
from remora.results import ResultsDB
from remora.review import list_changes, show
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

FILES = ("alpha", "beta", "gamma", "delta")
FUNCTIONS = 5  # per file
SHARD = b"remora.coordinator.shard_child"


@pytest.fixture
def standin() -> Iterator[list[Standin]]:
    started: list[Standin] = []
    yield started
    for server in started:
        server.stop()


def make_project(root: Path, url: str) -> Path:
    (root / "calc").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\nversion = "0.1"\n')
    (root / "calc" / "__init__.py").write_text("")
    for offset, name in enumerate(FILES):
        body = "".join(
            f"def {name}_{i}(x, y):\n    return x * {i + offset} + y\n\n\n"
            for i in range(FUNCTIONS)
        )
        (root / "calc" / f"{name}.py").write_text(f'"""{name}."""\n\n\n' + body.rstrip() + "\n")
    (root / "remora.yaml").write_text(
        f"model:\n  provider: openai\n  id: standin\n  base_url: {url}\n  max_in_flight: 4\n"
        + MODEL_WORDS
    )
    return root


def analyze(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [REMORA, "analyze", "calc", "-o", "docstring,lint", "--format", "json", *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=remora_env(),
    )


def finished(run: subprocess.Popen[str], code: int = 0) -> dict[str, Any]:
    out, err = run.communicate(timeout=300)
    assert run.returncode == code, err[-3000:]
    report: dict[str, Any] = json.loads(out)
    return report


def shard_pids(parent: int) -> list[int]:
    try:
        kids = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    except OSError:
        return []
    return [int(k) for k in kids if SHARD in _cmdline(int(k))]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def session_members(sid: int, wait_s: float = 10.0) -> list[int]:
    """The live processes of session ``sid`` (a shard's own, with its sandbox workers),
    after up to ``wait_s`` for them to end."""
    deadline = time.monotonic() + wait_s
    while (members := _members(sid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return members


def _members(sid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def wait_for(condition: Any, run: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 120
    while not condition():
        if run.poll() is not None:
            raise AssertionError(f"analyze ended before {what}: {run.communicate()}")
        assert time.monotonic() < deadline, f"no {what} in 120 s"
        time.sleep(0.05)


def queue(root: Path) -> list[tuple[str, str, str, str, str]]:
    """The review queue as a user reads it: what changed where, its summary and diff."""
    items = sorted(list_changes(root), key=lambda i: (i.file_path, i.node, i.operation))
    return [
        (i.file_path, i.node, i.operation, i.summary, show(i.id, project=root).diff) for i in items
    ]


def by_task(report: dict[str, Any]) -> dict[tuple[str, str], tuple[Any, ...]]:
    return {
        (r["node_id"], r["operation"]): (r["status"], r["changed_files"], r["review"])
        for r in report["results"]
    }


def test_two_processes_give_what_one_gives(tmp_path: Path, standin: list[Standin]) -> None:
    # Long enough answers that the two processes' runs overlap and fill the server's 4
    # slots (a docstring run asks the model twice: at 20 ms they seldom overlapped).
    standin.append(Standin("--latency-ms", "200"))
    (server,) = standin
    one = make_project(tmp_path / "one", server.base_url)
    two = make_project(tmp_path / "two", server.base_url)
    single = finished(analyze(one, "--processes", "1"))
    before = server.stats()["answered"]
    run = analyze(two, "--processes", "2")
    seen: set[int] = set()
    # Its output is read meanwhile: past a pipe's 64 KB an unread report blocks the writer.
    with ThreadPoolExecutor(max_workers=1) as pool:
        report = pool.submit(finished, run)
        while run.poll() is None:
            seen.update(shard_pids(run.pid))
            time.sleep(0.02)
        sharded = report.result()
    assert len(seen) == 1  # the command's own process and one child ran it
    assert sharded["counts"] == single["counts"] and single["counts"]["changed"] >= 20
    assert sharded.keys() == single.keys()
    assert [r.keys() for r in sharded["results"]] == [r.keys() for r in single["results"]]
    assert [(r["node"], r["operation"]) for r in sharded["results"]] == [
        (r["node"], r["operation"]) for r in single["results"]
    ]
    assert by_task(sharded) == by_task(single)
    # --format json shows each run's details (the tools called) from either.
    tools = [called(r) for r in sharded["results"]]
    assert tools == [called(r) for r in single["results"]]
    assert sum(1 for called in tools if called) >= single["counts"]["changed"]
    assert queue(two) == queue(one) and len(queue(two)) == single["counts"]["changed"]
    with ResultsDB(two) as db:
        (record,) = db.runs()
        assert record.run_id == sharded["run_id"] and record.finished is not None
        assert record.config["host_processes"] == 2
        assert len(db.list(run_id=record.run_id)) == len(sharded["results"])
    states = json.loads((two / ".remora/servers.json").read_text())
    (row,) = states["servers"]
    answered = server.stats()["answered"]
    # Both processes took the server's 4 slots from one pool: its limit is shown once, and
    # held in total (6 agents asked).
    assert row["served"] == answered - before and row["max_in_flight"] == 4
    assert server.stats()["in_flight_max"] == 4

    again = finished(analyze(two, "--processes", "2"))
    assert server.stats()["answered"] == answered  # nothing asked of the model
    assert again["reused"] == len(again["results"]) == len(sharded["results"])
    assert again["counts"] == sharded["counts"] and queue(two) == queue(one)

    # --force runs everything again, --auto-accept writes every change into the project:
    # the later changes to a file are merged into it, whichever run finished first.
    accepted = [
        finished(analyze(r, "--processes", p, "--force", "--auto-accept"))
        for r, p in ((one, "1"), (two, "2"))
    ]
    assert not any(r["reused"] for r in accepted[1]["results"])
    assert [reviews_by_file(a) for a in accepted[1:]] == [reviews_by_file(accepted[0])]
    states = reviews_by_file(accepted[1])
    assert all(states[f"calc/{name}.py"]["accepted"] == FUNCTIONS for name in FILES), states
    assert not any(counts["conflict"] for counts in states.values())
    for name in FILES:  # a docstring for each function, as with one process
        text = (two / "calc" / f"{name}.py").read_text()
        assert text.count('"""') == 2 + 2 * FUNCTIONS
        assert text == (one / "calc" / f"{name}.py").read_text()
    assert queue(two) == queue(one) == []


def test_a_file_too_heavy_for_one_process_is_cut_between_them(
    tmp_path: Path, standin: list[Standin]
) -> None:
    standin.append(Standin("--latency-ms", "20"))
    (server,) = standin
    roots = [make_project(tmp_path / name, server.base_url) for name in ("one", "two")]
    for root in roots:  # one module of 16 functions beside the package's empty __init__.py
        for name in FILES:
            (root / "calc" / f"{name}.py").unlink()
        body = "".join(f"def f_{i}(x):\n    return x * {i}\n\n\n" for i in range(16))
        (root / "calc" / "core.py").write_text('"""core."""\n\n\n' + body.rstrip() + "\n")
    loaded = load_config(overrides={"sandbox": {"host_processes": 2}}, project_root=roots[1])
    registry = AgentRegistry(loaded.config.agents_dir, project_root=roots[1])
    nodes = discover([roots[1] / "calc"], project_root=roots[1]).nodes
    plan = plan_shards(
        loaded, plan_operations(["docstring", "lint"], loaded.config, registry), nodes
    )
    assert plan is not None and [s.files for s in plan.shards] == [
        ("calc/__init__.py", "calc/core.py"),
        ("calc/core.py",),
    ]
    single = finished(analyze(roots[0], "--processes", "1"))
    sharded = finished(analyze(roots[1], "--processes", "2"))
    assert by_task(sharded) == by_task(single) and single["counts"]["changed"] >= 16
    assert queue(roots[1]) == queue(roots[0])


def called(result: dict[str, Any]) -> list[str]:
    """The tools a run called, from its details."""
    return [t["name"] for t in result["details"].get("transcript", {}).get("tools", [])]


def reviews_by_file(report: dict[str, Any]) -> dict[str, Counter[str]]:
    states: dict[str, Counter[str]] = {}
    for result in report["results"]:
        states.setdefault(result["file_path"], Counter())[result["review"]] += 1
    return states


def test_ctrl_c_stops_every_process(tmp_path: Path, standin: list[Standin]) -> None:
    standin.append(Standin("--latency-ms", "60000"))
    (server,) = standin
    root = make_project(tmp_path / "calc", server.base_url)
    run = analyze(root, "--processes", "2")
    wait_for(lambda: server.stats()["requests"] >= 4, run, "requests from both shards")
    shards = shard_pids(run.pid)
    assert len(shards) == 1
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err[-3000:]
    assert "interrupted: unfinished runs were discarded" in err and out == ""
    assert [pid for sid in shards for pid in session_members(sid)] == []  # no orphan
    with ResultsDB(root) as db:
        (record,) = db.runs()
        assert record.finished is not None
        kept = {r.workspace_id for r in db.list() if r.workspace_id}
    assert set(WorkspaceStore(root).ids()) == kept  # the unfinished runs' were discarded


def test_a_killed_shard_fails_its_unfinished_runs_and_the_other_finishes(
    tmp_path: Path, standin: list[Standin]
) -> None:
    standin.append(Standin("--latency-ms", "300"))
    (server,) = standin
    root = make_project(tmp_path / "calc", server.base_url)
    run = analyze(root, "--processes", "2")
    wait_for(lambda: server.stats()["answered"] >= 3, run, "answers")
    (victim,) = shard_pids(run.pid)  # the other shard runs in the command's own process
    os.kill(victim, signal.SIGKILL)
    report = finished(run, code=1)
    results = report["results"]
    assert len(results) == (len(FILES) * (FUNCTIONS + 1) + 1) * 2  # every task, once
    crashed = [r for r in results if (r["error"] or {}).get("code") == "SHARD_CRASHED"]
    assert crashed and all(f"pid {victim}" in r["summary"] for r in crashed)
    assert "killed by SIGKILL" in crashed[0]["summary"]
    assert "failed" not in {r["status"] for r in results if r not in crashed}
    # Whole files per shard: no file has both crashed and finished runs of the survivor.
    crashed_files = {r["file_path"] for r in crashed}
    assert len(crashed_files) < len(FILES) + 1
    with ResultsDB(root) as db:
        recorded = db.list(run_id=report["run_id"])
    assert sorted(r.result_id for r in recorded) == sorted(r["result_id"] for r in results)
    assert session_members(victim) == []


def test_a_model_no_shard_can_reach_is_one_error(tmp_path: Path) -> None:
    # The bundled example: its child gets ready only after the parent met the error, and is
    # stopped at once, as asyncio.run makes its loop (where a SIGINT printed a traceback).
    root = tmp_path / "sample"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "sample_project", root)
    url = "http://127.0.0.1:9/v1"  # nothing listens
    (root / "remora.yaml").write_text(
        f"model:\n  provider: openai\n  id: standin\n  base_url: {url}\n"
    )
    for _ in range(5):  # before the fix, most runs printed the traceback; some did not
        run = subprocess.Popen([REMORA, "analyze", ".", "--processes", "2"], cwd=root,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=remora_env())  # fmt: skip
        out, err = run.communicate(timeout=120)
        assert run.returncode == 2 and out == ""
        (error, hint) = err.splitlines()
        assert error.startswith("error[AGENT_002]: model 'standin'") and "hint:" in hint
