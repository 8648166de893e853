"""The embedded engine's host-RAM prompt cache under `remora analyze`'s traffic, measured.

`remora analyze` keeps four agents in flight, each with its own system prompt, and
a run's next turn repeats its whole conversation. This sends that traffic to one
engine (one slot by default, as `analyze` uses) for each cache size and prints one
JSON object: per size, the share of prompt tokens the engine did not have to read
again, for first turns (the system prompt is what can be reused) and for second
turns (their own first turn is), the wall time and the process's peak RSS so far.

Prompts are synthetic but shaped like the agents' (a ~450-token system prompt, a
~300-token node, a ~100-token tool result), so the figures are the same every run.

    .venv/bin/python benchmarks/prompt_cache.py [--sizes 0,64,128] [--slots 1] [--nodes 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import time
from typing import Any

from remora.providers.llama_engine import Engine, EngineKey, acquire_engine, release_engine
from remora.providers.model_store import DEFAULT_MODEL, ensure_model

AGENTS = 4
WORDS = [
    "item",
    "price",
    "order",
    "sku",
    "total",
    "value",
    "stock",
    "warehouse",
    "report",
    "line",
    "amount",
    "discount",
]


def _text(seed: int, words: int) -> str:
    pick = random.Random(seed).choice
    return " ".join(pick(WORDS) for _ in range(words))


def _conversation(agent: int, node: int, turn: int) -> list[dict[str, str]]:
    messages = [
        {"role": "system", "content": f"Agent {agent}. " + _text(agent, 330)},
        {"role": "user", "content": f"Node {node}. " + _text(1000 * agent + node, 220)},
    ]
    if turn == 2:
        messages += [
            {"role": "assistant", "content": '{"name": "write", "arguments": {}}'},
            {"role": "user", "content": "Result of write: " + _text(node, 70)},
        ]
    return messages


async def _turn(engine: Engine, agent: int, node: int, turn: int) -> dict[str, Any]:
    request = {
        "messages": _conversation(agent, node, turn),
        "max_tokens": 8,
        "temperature": 0.0,
        "cache_prompt": True,
    }
    timings = (await engine.chat(request))["timings"]
    return {"turn": turn, "read": timings["prompt_n"], "cached": timings.get("cache_n", 0)}


async def _traffic(engine: Engine, nodes: int) -> list[dict[str, Any]]:
    """Node-major like the coordinator: every agent on node 1, then node 2, ...;
    each run's second turn comes after the other agents' first turns."""
    done: list[dict[str, Any]] = []

    async def run(agent: int, node: int) -> None:
        done.append(await _turn(engine, agent, node, 1))
        await asyncio.sleep(0)  # the tool call between the turns
        done.append(await _turn(engine, agent, node, 2))

    for node in range(nodes):
        await asyncio.gather(*(run(agent, node) for agent in range(AGENTS)))
    return done


def _share(turns: list[dict[str, Any]], turn: int) -> float:
    picked = [t for t in turns if t["turn"] == turn]
    cached = sum(t["cached"] for t in picked)
    total = cached + sum(t["read"] for t in picked)
    return round(cached / total, 3) if total else 0.0


async def main(args: argparse.Namespace) -> dict[str, Any]:
    path = ensure_model(DEFAULT_MODEL)
    figures: dict[str, Any] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        key = EngineKey.create(path, args.slots, 4096, None, prompt_cache_mib=size)
        engine = acquire_engine(key)
        try:
            started = time.perf_counter()
            turns = await _traffic(engine, args.nodes)
            figures[f"{size}_mib"] = {
                "cached_share_turn1": _share(turns, 1),
                "cached_share_turn2": _share(turns, 2),
                "tokens_read": sum(t["read"] for t in turns),
                "wall_s": round(time.perf_counter() - started, 1),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            }
        finally:
            release_engine(engine)
    return {
        "slots": args.slots,
        "agents": AGENTS,
        "nodes": args.nodes,
        "cache_mib": figures,
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0,64,128", help="cache sizes in MiB, comma-separated")
    parser.add_argument("--slots", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=6)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
