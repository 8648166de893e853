"""The assistant's own costs: one capability call, and one question without the model.

- ``capabilities``: each capability through ``Capabilities.call`` (schema check,
  evaluation, envelope) on a small live namespace; p50/p90 in microseconds.
- ``question``: a whole question on the shared loop with a ScriptedProvider that
  answers at once: two steps of two calls each, then a text answer (3 model
  steps, 4 capability calls); p50/p90 per question and per step in milliseconds.
- ``--embedded``: one real question to the embedded model (wall time, steps,
  tokens); slow, and only as fast as the machine is idle.

    .venv/bin/python benchmarks/assistant.py [--runs 300] [--embedded]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import time
from typing import Any

from remora.assistant.capabilities import Capabilities
from remora.assistant.session import AssistantLimits, ask
from remora.providers.scripted import ScriptedProvider, call, text_turn, tool_turn

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_globals", {}),
    ("get_type", {"expr": "orders"}),
    ("get_repr", {"expr": "orders"}),
    ("get_dir", {"expr": "orders"}),
    ("get_doc", {"expr": "total"}),
    ("eval_expr", {"expr": "total(orders)"}),
    ("get_last_exception", {}),
]


def namespace() -> dict[str, Any]:
    ns: dict[str, Any] = {"__builtins__": __builtins__}
    exec(
        "orders = [{'id': i, 'price': i * 1.5} for i in range(50)]\n"
        "def total(rows):\n    'Sum of the prices.'\n    return sum(r['price'] for r in rows)\n",
        ns,
    )
    return ns


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_capabilities(runs: int) -> dict[str, Any]:
    empty: dict[str, int] = {}
    try:
        empty["missing"]
    except KeyError as exc:
        error: BaseException = exc
    caps = Capabilities(namespace(), last_exception=lambda: error)
    out: dict[str, Any] = {}
    for name, args in CALLS:
        samples = []
        for _ in range(runs):
            began = time.perf_counter()
            envelope = caps.call(name, args)
            samples.append((time.perf_counter() - began) * 1e6)
            assert envelope["ok"], envelope
        out[name] = {
            "p50_us": round(statistics.median(samples), 1),
            "p90_us": round(pct(samples, 0.9), 1),
        }
    return out


def script() -> list[Any]:
    return [
        tool_turn(call("get_type", {"expr": "orders"}), call("get_repr", {"expr": "orders"})),
        tool_turn(call("eval_expr", {"expr": "total(orders)"}), call("get_last_exception")),
        text_turn("orders holds 50 rows; their prices sum to 1837.5."),
    ]


async def bench_question(runs: int) -> dict[str, Any]:
    caps = Capabilities(namespace(), last_exception=lambda: None)
    limits = AssistantLimits()
    samples = []
    for _ in range(runs):
        provider = ScriptedProvider(script())
        began = time.perf_counter()
        answer = await ask("what is in orders?", provider, caps, limits)
        samples.append((time.perf_counter() - began) * 1e3)
        assert not answer.degraded and answer.steps == 3 and len(answer.calls) == 4
    return {
        "steps": 3,
        "calls": 4,
        "question_p50_ms": round(statistics.median(samples), 3),
        "question_p90_ms": round(pct(samples, 0.9), 3),
        "per_step_p50_ms": round(statistics.median(samples) / 3, 3),
    }


def bench_embedded() -> dict[str, Any]:
    from remora.assistant.service import AssistantService
    from remora.config import ModelConfig
    from remora.providers.factory import create_provider
    from remora.providers.model_store import DEFAULT_MODEL, ensure_model

    model = ModelConfig(provider="embedded", path=ensure_model(DEFAULT_MODEL), n_parallel=1)
    service = AssistantService(create_provider(model), model, AssistantLimits())
    try:
        began = time.perf_counter()
        service.check()
        load_s = time.perf_counter() - began
        caps = Capabilities(namespace(), last_exception=lambda: None)
        began = time.perf_counter()
        answer = service.ask("What is the total price of the orders?", caps)
        wall = time.perf_counter() - began
    finally:
        service.close()
    return {
        "load_s": round(load_s, 3),
        "question_s": round(wall, 3),
        "steps": answer.steps,
        "calls": [c.name for c in answer.calls],
        "degraded": answer.degraded,
        "stopped_by": answer.stopped_by,
        "usage": answer.usage.to_dict(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--embedded", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "runs": args.runs,
        "capabilities": bench_capabilities(args.runs),
        "question_scripted": asyncio.run(bench_question(args.runs)),
    }
    if args.embedded:
        report["question_embedded"] = bench_embedded()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
