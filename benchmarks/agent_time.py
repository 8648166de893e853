"""Where the agents' time goes in a `remora analyze`, from its event log (``--events-file``).

An agent run goes from its ``run_start`` to its ``run_end``, and holds one of the ``-j``
places while it talks to the model (its ``run_end``'s ``place``: ``remora.runner.place``).
Within it, a model turn is out from ``model_request`` to ``model_response``, the
completions its tools ask for (draft_docstring's, draft_fix's) for the ``waited_s`` its
``run_end`` reports, and a tool runs for its ``tool_result``'s ``duration_s`` (its
completions inside). The rest of a run is the loop's own work between events.

Printed (one JSON object):

- runs, span_s (first run_start to last run_end) and runs_active_mean (the runs' wall
  summed over the span: the ``-j`` places plus the runs beside them doing host work);
- request_share: the runs' time with a request out (a turn or a completion), of their
  whole time;
- places_held_mean (the places' held time summed over the span: how full the ``-j``
  places were kept) and request_share_of_places (the time with a request out, of it);
- per_operation: per run on average, wall_ms, model_ms (turns), completions_ms, each
  tool's ms (completions included), and the host's time at the run's two ends, where no
  turn is out: before_first_request_ms (from run_start to the first model_request) and
  after_last_response_ms (from the last model_response to run_end); without_request:
  the runs that asked the model nothing (no turn, no completion: host work only);
  place_held_ms and place_waited_ms (a run that took no place counts 0);
- timeline: runs active on average in (at most 40) equal steps of the span: a tail of
  a few slow runs shows as a drop at its end;
- longest: the five longest runs (run id, wall) with their slowest tool.

Where the cores are enough (the host's work never waits for a core), the runs keep
about places_held_mean × request_share_of_places requests out.

Usage: python benchmarks/agent_time.py EVENTS.jsonl
"""

from __future__ import annotations

import argparse
import collections
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_STEPS = 40


@dataclass
class _Run:
    run_id: str
    operation: str
    start: float = 0.0
    end: float | None = None
    model_s: float = 0.0
    completions_s: float = 0.0
    # Its place among the -j talking to the model (run_end's "place"; 0: it took none).
    place_held_s: float = 0.0
    place_waited_s: float = 0.0
    first_request: float | None = None
    last_response: float | None = None
    tools_s: dict[str, float] = field(default_factory=lambda: collections.defaultdict(float))

    @property
    def _end(self) -> float:
        return self.end if self.end is not None else self.start

    @property
    def wall_s(self) -> float:
        return self._end - self.start

    @property
    def before_first_request_s(self) -> float:
        """From the start to the first turn out (the whole run when it asked none)."""
        return (self.first_request if self.first_request is not None else self._end) - self.start

    @property
    def after_last_response_s(self) -> float:
        """From the last turn's answer to the end (none when it asked none)."""
        return self._end - (self.last_response if self.last_response is not None else self._end)


def _runs(events: Iterable[dict[str, Any]]) -> list[_Run]:
    runs: dict[str, _Run] = {}
    for event in events:
        run_id, kind = event.get("run_id"), event["kind"]
        if run_id is None:
            continue
        if kind == "run_start":
            runs[run_id] = _Run(run_id, run_id.split("-", 1)[0], start=event["ts"])
            continue
        run = runs.get(run_id)
        if run is None:  # a coordinator's own event, or a run that started before the log
            continue
        if kind == "run_end":
            run.end = event["ts"]
            run.completions_s = float((event.get("completions") or {}).get("waited_s", 0.0))
            place = event.get("place") or {}
            run.place_held_s = float(place.get("held_s", 0.0))
            run.place_waited_s = float(place.get("waited_s", 0.0))
        elif kind == "model_request":
            if run.first_request is None:
                run.first_request = event["ts"]
        elif kind == "model_response":
            run.model_s += float(event.get("duration_s", 0.0))
            run.last_response = event["ts"]
        elif kind == "tool_result":
            run.tools_s[event["name"]] += float(event.get("duration_s", 0.0))
    return [run for run in runs.values() if run.end is not None]


def _mean_ms(seconds: list[float]) -> float:
    """Their mean in milliseconds, to a tenth."""
    return round(1000 * sum(seconds) / len(seconds), 1)


def _timeline(runs: list[_Run], first: float, span: float) -> list[list[float]]:
    """[seconds from the start, runs active on average] in equal steps of the span."""
    step = span / _STEPS
    busy = [0.0] * _STEPS
    for run in runs:
        assert run.end is not None
        for index in range(int((run.start - first) / step), _STEPS):
            low, high = first + index * step, first + (index + 1) * step
            if low >= run.end:
                break
            busy[index] += min(high, run.end) - max(low, run.start)
    return [[round(index * step, 1), round(b / step, 1)] for index, b in enumerate(busy)]


def agent_time(events: Iterable[dict[str, Any]]) -> dict[str, Any]:
    runs = _runs(events)
    if not runs:
        return {"runs": 0}
    first = min(run.start for run in runs)
    span = max(run._end for run in runs) - first
    wall = sum(run.wall_s for run in runs)
    out = sum(run.model_s + run.completions_s for run in runs)
    held = sum(run.place_held_s for run in runs)
    per_operation: dict[str, Any] = {}
    for operation in sorted({run.operation for run in runs}):
        mine = [run for run in runs if run.operation == operation]
        tools: dict[str, float] = collections.Counter()
        for run in mine:
            tools.update(run.tools_s)
        per_operation[operation] = {
            "runs": len(mine),
            "wall_ms": _mean_ms([run.wall_s for run in mine]),
            "model_ms": _mean_ms([run.model_s for run in mine]),
            "completions_ms": _mean_ms([run.completions_s for run in mine]),
            "without_request": sum(
                1 for run in mine if run.first_request is None and not run.completions_s
            ),
            "before_first_request_ms": _mean_ms([run.before_first_request_s for run in mine]),
            "after_last_response_ms": _mean_ms([run.after_last_response_s for run in mine]),
            "place_held_ms": _mean_ms([run.place_held_s for run in mine]),
            "place_waited_ms": _mean_ms([run.place_waited_s for run in mine]),
            "tools_ms": {
                name: round(1000 * seconds / len(mine), 1)
                for name, seconds in sorted(tools.items(), key=lambda item: -item[1])
            },
        }
    longest = sorted(runs, key=lambda run: -run.wall_s)[:5]
    return {
        "runs": len(runs),
        "span_s": round(span, 2),
        "runs_active_mean": round(wall / span, 2) if span else 0.0,
        "request_share": round(out / wall, 3) if wall else 0.0,
        "places_held_mean": round(held / span, 2) if span else 0.0,
        "request_share_of_places": round(out / held, 3) if held else 0.0,
        "per_operation": per_operation,
        "timeline": _timeline(runs, first, span) if span else [],
        "longest": [
            {
                "run": run.run_id,
                "wall_s": round(run.wall_s, 2),
                "slowest_tool": max(run.tools_s, key=run.tools_s.__getitem__, default=None),
            }
            for run in longest
        ],
    }


def read_events(path: Path) -> list[dict[str, Any]]:
    """The log's events; ValueError naming the line that is not one."""
    events = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                events.append(json.loads(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: not a JSON event ({exc})") from None
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events", type=Path, help="the JSONL log of analyze --events-file")
    args = parser.parse_args()
    try:
        events = read_events(args.events)
    except (OSError, ValueError) as exc:
        parser.error(f"{exc}; give the file `remora analyze --events-file FILE` wrote")
    print(json.dumps(agent_time(events), indent=2))


if __name__ == "__main__":
    main()
