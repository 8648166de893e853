"""The embedded model (the catalogue default, or --model-path, through xllamacpp), measured.

Prints one JSON object:

- ``prompt_tokens_per_s`` / ``generation_tokens_per_s``: llama.cpp's own timings
  for a ~300-token prompt with the cache off and 128 generated tokens (median of
  ``--repeat`` runs).
- ``tool_exchange``: a real 4-turn tool exchange through ``EmbeddedProvider``
  (system + user, model call, tool result, ... ; every turn JSON-schema
  constrained); ``cached_share_from_turn_2`` = cached / prompt tokens summed over
  turns 2-4 (target >= 0.8).
- ``concurrency``: aggregate generated tokens/s of 4 concurrent requests on the
  shared engine (4 slots) versus 1 request alone (target ratio >= 1.5).
- ``peak_rss_mb``: the process's peak resident set (``getrusage``).

    .venv/bin/python benchmarks/embedded.py [--repeat 3] [--threads N] [--slots 4]
        [--kv-cache f16|q8_0] [--model-path FILE.gguf]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ModelTurn, ToolResult, ToolSpec, Usage
from remora.profiles import resolve_profile
from remora.providers.embedded import EmbeddedProvider
from remora.providers.llama_engine import Engine
from remora.providers.model_store import DEFAULT_MODEL, ensure_model

CODE = """def load_rows(path, sep=","):
    import os, sys
    rows = []
    for line in open(path).read().splitlines():
        if line == "": continue
        rows.append([c.strip() for c in line.split(sep)])
    return rows
"""

TOOLS = (
    ToolSpec(
        "run_linter",
        "Run ruff on the code and list the issues.",
        {"type": "object", "properties": {}, "additionalProperties": False},
    ),
    ToolSpec(
        "apply_fix",
        "Apply ruff's fix for one rule code.",
        {
            "type": "object",
            "properties": {"issue_code": {"type": "string", "description": "Rule code, e.g. F401"}},
            "required": ["issue_code"],
            "additionalProperties": False,
        },
    ),
    ToolSpec(
        "submit_result",
        "Finish and report what was done.",
        {
            "type": "object",
            "properties": {"summary": {"type": "string"}},
            "required": ["summary"],
            "additionalProperties": False,
        },
    ),
)

# Scripted tool results, so the exchange is the same every run.
RESULTS = {
    "run_linter": {
        "ok": True,
        "result": {
            "issues": [
                {"code": "F401", "line": 2, "message": "`os` imported but unused"},
                {"code": "F401", "line": 2, "message": "`sys` imported but unused"},
                {"code": "E701", "line": 5, "message": "Multiple statements on one line"},
            ]
        },
    },
    "apply_fix": {"ok": True, "result": {"fixed": 2, "remaining": 1}},
    "submit_result": {"ok": True, "result": "submitted"},
}
TURN_CHOICES = ("run_linter", "auto", "auto", "submit_result")


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


async def throughput(engine: Engine, repeat: int) -> dict[str, Any]:
    """llama.cpp's timings for a cold prompt and a fixed-length generation."""
    filler = " ".join(f"Line {i}: the quick brown fox jumps over the lazy dog." for i in range(22))
    prompt_rates, gen_rates, prompt_tokens = [], [], 0
    for i in range(repeat):
        response = await engine.chat(
            {
                "messages": [{"role": "user", "content": f"Run {i}. {filler} Summarise."}],
                "max_tokens": 128,
                "temperature": 0.0,
                "cache_prompt": False,
                "ignore_eos": True,
            }
        )
        timings = response["timings"]
        prompt_rates.append(timings["prompt_per_second"])
        gen_rates.append(timings["predicted_per_second"])
        prompt_tokens = timings["prompt_n"]
    return {
        "prompt_tokens": prompt_tokens,
        "prompt_tokens_per_s": _median(prompt_rates),
        "generated_tokens": 128,
        "generation_tokens_per_s": _median(gen_rates),
    }


async def tool_exchange(provider: EmbeddedProvider) -> dict[str, Any]:
    """Four constrained turns; each call's scripted result goes back to the model."""
    messages = [
        Message.system(
            "You fix Python lint issues. Call one tool per turn. Finish with submit_result."
        ),
        Message.user(f"function load_rows in data.py:\n```python\n{CODE}```"),
    ]
    turns: list[dict[str, Any]] = []
    usages: list[Usage] = []
    for number, choice in enumerate(TURN_CHOICES, start=1):
        started = time.perf_counter()
        turn: ModelTurn = await provider.complete(
            ModelRequest(tuple(messages), TOOLS, tool_choice=choice, max_tokens=256)
        )
        seconds = time.perf_counter() - started
        calls = turn.message.tool_calls
        usages.append(turn.usage)
        turns.append(
            {
                "turn": number,
                "tool_choice": choice,
                "finish": turn.finish,
                "call": calls[0].name if calls else None,
                "error": turn.error,
                "seconds": round(seconds, 3),
                **turn.usage.to_dict(),
            }
        )
        if not calls:
            break
        messages += [
            turn.message,
            Message.tool_results(tuple(ToolResult(c.id, c.name, RESULTS[c.name]) for c in calls)),
        ]
    later = usages[1:]
    prompt = sum(u.prompt_tokens for u in later)
    cached = sum(u.cached_tokens for u in later)
    return {
        "turns": turns,
        "cached_share_from_turn_2": round(cached / prompt, 3) if prompt else None,
        "target_cached_share": 0.8,
    }


async def concurrency(engine: Engine, n: int, rounds: int) -> dict[str, Any]:
    """Aggregate generated tokens/s: n requests at once versus one alone.

    Rounds alternate single and parallel runs and the best of each counts, so a
    burst of load from other processes hurts neither side more than the other.
    """

    async def one(tag: str) -> int:
        response = await engine.chat(
            {
                "messages": [
                    {
                        "role": "user",
                        "content": f"Request {tag}: write a long story "
                        f"about a lighthouse keeper named {tag}.",
                    }
                ],
                "max_tokens": 96,
                "temperature": 0.0,
                "cache_prompt": False,
                "ignore_eos": True,
            }
        )
        return int(response["usage"]["completion_tokens"])

    singles, parallels = [], []
    for r in range(rounds):
        started = time.perf_counter()
        tokens = await one(f"solo{r}")
        singles.append(tokens / (time.perf_counter() - started))
        started = time.perf_counter()
        counts = await asyncio.gather(*(one(f"p{r}-{i}") for i in range(n)))
        parallels.append(sum(counts) / (time.perf_counter() - started))
    single, parallel = max(singles), max(parallels)
    return {
        "requests": n,
        "rounds": rounds,
        "single_tokens_per_s": round(single, 1),
        "aggregate_tokens_per_s": round(parallel, 1),
        "ratio": round(parallel / single, 2),
        "target_ratio": 1.5,
        "samples_single": [round(x, 1) for x in singles],
        "samples_aggregate": [round(x, 1) for x in parallels],
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    load_before = round(os.getloadavg()[0], 2)
    path: Path = args.model_path or ensure_model(DEFAULT_MODEL)
    config = ModelConfig(
        path=path,
        id=DEFAULT_MODEL,
        n_parallel=args.slots,
        n_ctx_per_slot=4096,
        threads=args.threads,
        kv_cache=args.kv_cache,
    )
    repeat = args.repeat
    provider = EmbeddedProvider.from_config(config, resolve_profile(None, DEFAULT_MODEL))
    started = time.perf_counter()
    engine = await provider.engine()
    load_s = time.perf_counter() - started
    try:
        result = {
            "model": DEFAULT_MODEL,
            "file": str(path),
            "threads": engine.key.threads,
            "n_parallel": engine.key.n_parallel,
            "n_ctx": engine.key.n_ctx_per_slot * engine.key.n_parallel,
            "kv_cache": engine.key.kv_cache,
            "load_seconds": round(load_s, 2),
            **await throughput(engine, repeat),
            "tool_exchange": await tool_exchange(provider),
            "concurrency": await concurrency(engine, args.slots, repeat),
        }
    finally:
        await provider.aclose()
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    result["machine"] = {
        "cpus": os.cpu_count(),
        "load_average_1m_at_start": load_before,
        "load_average_1m_at_end": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "platform": sys.platform,
    }
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="default: CPU count")
    parser.add_argument("--slots", type=int, default=4, help="parallel slots")
    parser.add_argument("--kv-cache", choices=["f16", "q8_0"], default="f16")
    parser.add_argument("--model-path", type=Path, default=None, help="default: the fetched model")
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
