"""Loop overhead per turn: the runner's own cost, without the model or the tool.

The model is a ScriptedProvider (answers at once) and the tool a trivial
in-process executor; the time spent inside the executor's ``call`` is measured
and subtracted, so what is left is the loop: turn policy, request building,
argument validation against the schema, the repeat guard, dispatch, transcript
updates, events and the result. Each run has ``--turns`` turns (tool calls,
then submit_result) on an agent with four tools; the per-turn figure is the
run's loop time divided by its turns; runs repeat ``--runs`` times and the
median and p90 are reported, with events off (NullEmitter) and on (recorded
in memory, and written to a JSONL file as `--events` does).
Target: <= 2 ms per turn (docs/performance.md, "The latest figures").

    .venv/bin/python benchmarks/loop.py [--runs 200] [--turns 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from remora.agents import SubagentDefinition, ToolDefinition
from remora.config import RunnerConfig
from remora.events import EventEmitter, JsonlSink, NullEmitter, RecordingEmitter
from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import AgentRunner, envelope_ok

TARGET_MS = 2.0

DEFINITION = SubagentDefinition.model_validate(
    {
        "name": "bench",
        "initial_context": {
            "system_prompt": "You fix Python lint issues. Call one tool per turn.",
            "node_context": "{{ node_type }} {{ node_name }} in {{ file_path }}:\n{{ node_text }}",
        },
        "tools": [
            {
                "name": "run_linter",
                "description": "Run the linter.",
                "parameters": {"type": "object", "properties": {}},
            },
            {
                "name": "apply_fix",
                "description": "Apply one fix.",
                "parameters": {
                    "type": "object",
                    "required": ["issue_code"],
                    "properties": {
                        "issue_code": {"type": "string"},
                        "line": {"type": "integer", "minimum": 1},
                    },
                },
            },
            {
                "name": "read_file",
                "description": "Read a file.",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
            {
                "name": "submit_result",
                "description": "Finish.",
                "parameters": {
                    "type": "object",
                    "required": ["summary"],
                    "properties": {
                        "summary": {"type": "string"},
                        "issues_fixed": {"type": "integer"},
                        "changed_files": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
        ],
    }
)
VARIABLES = {
    "node_type": "function",
    "node_name": "total",
    "file_path": "shop/orders.py",
    "node_text": "def total(xs):\n    return sum(xs)\n" * 20,
}


class TrivialExecutor:
    """Returns at once; keeps the time spent inside it, to subtract."""

    def __init__(self) -> None:
        self.inside_s = 0.0

    async def call(self, tool: ToolDefinition, arguments: dict[str, Any]) -> dict[str, Any]:
        began = time.perf_counter()
        envelope = envelope_ok({"issues": [], "tool": tool.name})
        self.inside_s += time.perf_counter() - began
        return envelope

    async def context(self, provider_script: Path) -> str:
        return ""


def _turns(count: int) -> list[Any]:
    # Alternate different calls so the repeat guard never short-cuts a turn.
    calls: list[tuple[str, dict[str, Any]]] = [
        ("run_linter", {}),
        ("apply_fix", {"issue_code": "F401", "line": 3}),
        ("read_file", {"path": "shop/orders.py"}),
    ]
    turns = [tool_turn(calls[i % len(calls)]) for i in range(count - 1)]
    turns.append(tool_turn(("submit_result", {"summary": "fixed", "issues_fixed": 1})))
    return turns


async def _one_run(turns: int, emitter: EventEmitter) -> float:
    """Loop seconds per turn for one run (tool time excluded)."""
    executor = TrivialExecutor()
    provider = ScriptedProvider(_turns(turns))
    runner = AgentRunner(
        DEFINITION,
        provider,
        RunnerConfig(max_turns=turns),
        executor,
        emitter=emitter,
        template_vars=VARIABLES,
        run_id="bench",
    )
    began = time.perf_counter()
    result = await runner.run()
    elapsed = time.perf_counter() - began
    if result.status != "success" or result.turns != turns:
        raise SystemExit(f"benchmark run did not complete as scripted: {result.to_dict()}")
    return (elapsed - executor.inside_s) / turns


async def _measure(runs: int, turns: int, make: Callable[[], EventEmitter]) -> dict[str, float]:
    for _ in range(max(5, runs // 10)):  # warm-up: imports, schema validators, caches
        await _one_run(turns, make())
    samples = []
    for _ in range(runs):
        samples.append(await _one_run(turns, make()))
    ms = sorted(s * 1000 for s in samples)
    return {
        "per_turn_ms_p50": round(statistics.median(ms), 4),
        "per_turn_ms_p90": round(ms[int(len(ms) * 0.9) - 1], 4),
        "per_turn_ms_min": round(ms[0], 4),
        "per_turn_ms_mean": round(statistics.fmean(ms), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--turns", type=int, default=8)
    args = parser.parse_args()
    quiet = asyncio.run(_measure(args.runs, args.turns, NullEmitter))
    recorded = asyncio.run(_measure(args.runs, args.turns, RecordingEmitter))
    with tempfile.TemporaryDirectory() as tmp:
        sink = JsonlSink(Path(tmp) / "events.jsonl")
        try:
            jsonl = asyncio.run(_measure(args.runs, args.turns, lambda: sink))
        finally:
            sink.close()
    print(
        json.dumps(
            {
                "benchmark": "loop_overhead_per_turn",
                "runs": args.runs,
                "turns_per_run": args.turns,
                "events_off": quiet,
                "events_recorded": recorded,
                "events_jsonl_file": jsonl,
                "target_ms": TARGET_MS,
                "meets_target": max(
                    quiet["per_turn_ms_p50"], recorded["per_turn_ms_p50"], jsonl["per_turn_ms_p50"]
                )
                <= TARGET_MS,
                "python": platform.python_version(),
                "machine": platform.machine(),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
