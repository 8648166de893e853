"""`remora analyze` (the real CLI) against two real stand-in servers on 127.0.0.1.

Each stand-in is ``benchmarks/standin_server.py`` in its own process, answering
every chat completion with a minimal valid tool call after a set latency; it
counts what it answered (``GET /v1/stats``). Checked as a user sees it: each
server gets a fair share of the requests; killing one mid-run loses no run; a
server answering HTTP 429 for a while slows the pool and no run fails; ``remora
models`` shows each server's state.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from standin_support import MODEL_WORDS, REMORA, Standin, remora_env

pytestmark = pytest.mark.integration

FUNCTIONS = 24


@pytest.fixture
def standins() -> Iterator[list[Standin]]:
    started: list[Standin] = []
    yield started
    for server in started:
        server.stop()


def project(tmp_path: Path, urls: list[str], extra: str = "") -> Path:
    """The project, its remora.yaml naming ``urls``; ``extra``: more keys of ``model:``."""
    root = tmp_path / "calc"
    (root / "calc").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\nversion = "0.1"\n')
    (root / "calc" / "__init__.py").write_text("")
    body = "".join(f"def scale_{i}(x, y):\n    return x * {i} + y\n\n\n" for i in range(FUNCTIONS))
    (root / "calc" / "ops.py").write_text('"""Arithmetic."""\n\n\n' + body.rstrip() + "\n")
    servers = "".join(f"\n    - {url}" for url in urls)
    (root / "remora.yaml").write_text(
        f"model:\n  provider: openai\n  id: standin\n  base_url:{servers}\n" + extra + MODEL_WORDS
    )
    return root


def analyze(root: Path, *args: str) -> dict[str, Any]:
    run = subprocess.run(
        [REMORA, "analyze", "calc", "-o", "docstring", "--format", "json", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=remora_env(),
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report: dict[str, Any] = json.loads(run.stdout)
    return report


def docstrings_written(report: dict[str, Any]) -> int:
    rows = [r for r in report["results"] if r["node_type"] == "function"]
    assert len(rows) == FUNCTIONS and {r["status"] for r in rows} == {"success"}
    return sum(1 for r in rows if r["changed_files"])


def test_two_servers_each_get_a_fair_share(tmp_path: Path, standins: list[Standin]) -> None:
    standins += [Standin("--latency-ms", "100"), Standin("--latency-ms", "100")]
    root = project(tmp_path, [s.base_url for s in standins], "  max_in_flight: 4\n")
    report = analyze(root)
    assert docstrings_written(report) == FUNCTIONS
    served = [s.stats()["answered"] for s in standins]
    assert min(served) >= 0.35 * sum(served), served
    states = json.loads((root / ".remora" / "servers.json").read_text())
    assert [s["served"] for s in states["servers"]] == served and not states["running"]

    models = subprocess.run(
        [REMORA, "models", "--format", "json"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env=remora_env(),
    )
    assert models.returncode == 0, models.stderr
    (configured,) = json.loads(models.stdout)["configured"]
    assert configured["agents_at_once"] == 12  # -j by default: 1.5 × 4 in flight × 2 servers
    rows = {row["url"]: row for row in configured["servers"]}
    for server, count in zip(standins, served, strict=True):
        assert rows[server.base_url]["state"] == "in rotation"
        assert rows[server.base_url]["last_run"]["served"] == count


def test_a_server_killed_mid_run_loses_no_run(tmp_path: Path, standins: list[Standin]) -> None:
    standins += [Standin("--latency-ms", "150"), Standin("--latency-ms", "150")]
    survivor, victim = standins
    root = project(tmp_path, [s.base_url for s in standins], "  max_in_flight: 3\n")
    run = subprocess.Popen(
        [REMORA, "analyze", "calc", "-o", "docstring", "--format", "json"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=remora_env(),
    )
    deadline = time.monotonic() + 120
    while victim.stats()["answered"] < 4:  # the run is well under way on both
        assert run.poll() is None and time.monotonic() < deadline, "the run ended too soon"
        time.sleep(0.05)
    victim.stop()
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err[-3000:]
    assert docstrings_written(json.loads(out)) == FUNCTIONS
    states = {
        s["url"]: s for s in json.loads((root / ".remora/servers.json").read_text())["servers"]
    }
    assert states[victim.base_url]["failed"] >= 1
    assert states[survivor.base_url]["served"] == survivor.stats()["answered"]


def test_a_busy_server_slows_the_pool_and_no_run_fails(
    tmp_path: Path, standins: list[Standin]
) -> None:
    # 429 with Retry-After to any request finding 3 in flight, against a -j of 12.
    standins.append(Standin("--latency-ms", "100", "--capacity", "3", "--retry-after-s", "0.2"))
    (server,) = standins
    root = project(tmp_path, [server.base_url], "  max_in_flight: 12\n")
    report = analyze(root)
    assert docstrings_written(report) == FUNCTIONS
    stats = server.stats()
    assert stats["busy"] > 0 and stats["in_flight_max"] <= 3
    (state,) = json.loads((root / ".remora/servers.json").read_text())["servers"]
    assert state["throttled"] == stats["busy"] and state["limit"] < 12 and state["failed"] == 0


def test_j_counts_the_runs_talking_to_the_model(tmp_path: Path, standins: list[Standin]) -> None:
    """-j 2: never more than 2 requests out, while more runs than 2 are under way (the host
    work before and after the conversations: runner/place.py)."""
    standins.append(Standin("--latency-ms", "100"))
    (server,) = standins
    root = project(tmp_path, [server.base_url], "  max_in_flight: 16\n")
    events = tmp_path / "events.jsonl"
    args = ("-j", "2", "--processes", "1", "--events-file", str(events))
    report = analyze(root, *args)
    assert docstrings_written(report) == FUNCTIONS
    stats = server.stats()
    assert stats["in_flight_max"] == 2 and stats["answered"] >= FUNCTIONS
    logged = [json.loads(line) for line in events.read_text().splitlines()]
    (start,) = [e for e in logged if e["kind"] == "coordinator_start"]
    assert start["max_concurrent_agents"] == 2 and start["runs_at_once"] == 4
    under_way = most = 0
    for event in logged:
        under_way += {"run_start": 1, "run_end": -1}.get(event["kind"], 0)
        most = max(most, under_way)
    assert most > 2
    places = [e["place"] for e in logged if e["kind"] == "run_end" and "place" in e]
    assert len(places) >= FUNCTIONS and all(p["held_s"] > 0 for p in places)
