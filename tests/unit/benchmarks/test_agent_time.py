"""benchmarks/agent_time.py: where the agents' time went, read from analyze's event log."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import remora

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from agent_time import agent_time, read_events  # noqa: E402  (a script folder, not a package)
from scale import in_flight_until  # noqa: E402


def _event(ts: float, kind: str, run_id: str | None, **data: Any) -> dict[str, Any]:
    return {"ts": ts, "kind": kind, "run_id": run_id, **data}


def test_two_slots_a_turn_a_drafting_tool_and_a_tail() -> None:
    lint, doc = "lint-aaaa-1", "docstring-bbbb-2"
    events = [
        _event(0.0, "coordinator_start", "batch"),
        _event(0.0, "run_start", lint),
        _event(0.0, "run_start", doc),
        _event(0.0, "model_request", lint),
        _event(1.0, "model_response", lint, duration_s=1.0),
        _event(2.0, "tool_result", lint, name="fix_safe", duration_s=1.0),
        _event(2.0, "run_end", lint, place={"waited_s": 0.0, "held_s": 1.0}),
        # The drafting tool waited 3 of its 4 s for its completions; the run ends last.
        _event(4.0, "tool_result", doc, name="draft_docstring", duration_s=4.0),
        _event(
            8.0,
            "run_end",
            doc,
            completions={"requests": 2, "waited_s": 3.0},
            place={"waited_s": 0.5, "held_s": 3.0},  # held for its completions only
        ),
    ]
    figures = agent_time(events)
    assert figures["runs"] == 2 and figures["span_s"] == 8.0
    assert figures["runs_active_mean"] == 1.25  # 2 + 8 s of runs over 8 s
    assert figures["request_share"] == 0.4  # 1 s of a turn + 3 s of completions of 10 s
    assert figures["places_held_mean"] == 0.5  # 1 + 3 s held over 8 s
    assert figures["request_share_of_places"] == 1.0
    assert figures["per_operation"]["lint"] == {
        "runs": 1,
        "wall_ms": 2000.0,
        "model_ms": 1000.0,
        "completions_ms": 0.0,
        "without_request": 0,
        "before_first_request_ms": 0.0,
        "after_last_response_ms": 1000.0,  # the fix after the answer
        "place_held_ms": 1000.0,  # the fix may end the run: it ran without the place
        "place_waited_ms": 0.0,
        "tools_ms": {"fix_safe": 1000.0},
    }
    # The docstring run asked no turn: all of it is before a first request.
    assert figures["per_operation"]["docstring"]["before_first_request_ms"] == 8000.0
    assert figures["per_operation"]["docstring"]["after_last_response_ms"] == 0.0
    assert figures["per_operation"]["docstring"]["completions_ms"] == 3000.0
    assert figures["per_operation"]["docstring"]["place_waited_ms"] == 500.0
    # Two runs active for the first 2 s, then the docstring run alone: the tail.
    timeline = figures["timeline"]
    assert len(timeline) == 40 and timeline[0] == [0.0, 2.0] and timeline[-1] == [7.8, 1.0]
    assert figures["longest"][0] == {"run": doc, "wall_s": 8.0, "slowest_tool": "draft_docstring"}


def test_a_real_analyze_log_is_read(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "shop.py").write_text("import os\n\n\ndef total(prices):\n    return sum(prices)\n")
    (root / "turns.yaml").write_text("[]\n")
    log = tmp_path / "events.jsonl"
    remora.analyze(
        root,
        operations="lint",
        model={"provider": "scripted", "id": "scripted", "path": str(root / "turns.yaml")},
        project=root,
        config={"events": {"enabled": True, "output": str(log)}},
    )
    figures = agent_time(read_events(log))
    assert figures["runs"] == 2 and set(figures["per_operation"]) == {"lint"}
    assert json.loads(json.dumps(figures)) == figures


def test_a_line_that_is_not_an_event_is_named(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"ts": 1, "kind": "run_start", "run_id": "lint-a-1"}\n\nnot json\n')
    with pytest.raises(ValueError, match=r"events.jsonl:3: not a JSON event"):
        read_events(log)


def test_in_flight_while_runs_remain_to_be_started_leaves_the_drain_out() -> None:
    # 60 in flight for 3 s, then the last runs draining: 20, then 4.
    seconds = [60.0, 60.0, 60.0, 20.0, 4.0]
    assert in_flight_until(seconds, 1000.0, 1003.5) == 60.0  # the last run started at 3.5 s
    assert in_flight_until(seconds, 1000.0, 1005.0) == 40.8  # all of it
    assert in_flight_until(seconds, 1000.0, 1000.5) == 0.0  # under a second: no figure
    assert in_flight_until(seconds, None, 1003.0) == 0.0  # no request came
