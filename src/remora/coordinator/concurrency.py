"""How many agent runs go at once: ``-j`` (the runs that talk to the model) and the runs beside.

The coordinator sizes its places (:mod:`remora.runner.place`) and its Monty workers with
these; the shard planner splits the total over host processes
(:mod:`remora.coordinator.shards`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from remora.config import ModelConfig, RemoraConfig

__all__ = [
    "AGENTS_PER_SERVER_SLOT",
    "DEFAULT_AGENTS_AT_ONCE",
    "agents_at_once",
    "runs_beside",
]

# -j for models served in this process (embedded, scripted) or by a provider's own client (llm,
# gemini): the embedded engine queues requests for its slots, so more agents only wait longer.
DEFAULT_AGENTS_AT_ONCE = 4
# -j for servers, per slot (max_in_flight) they take: a conversation spends part of its time on
# tools between its turns with no request out, so as many places as slots leave slots idle
# (before places, on 16 cores at 200 ms a request, 64 agents kept 41 of 64 slots busy). Half
# again as many keep them full; the extra requests wait for a slot in the server router. With
# places, on 2 cores at 200 ms and 4 slots: -j 4 kept 3.83-3.86 requests out, the default 3.91.
AGENTS_PER_SERVER_SLOT = 1.5

# Runs beside the -j that talk to the model, per place: they do the host work before a run's
# first request and after its conversation (runner/place.py), so a place given back is taken
# again at once by a run that is ready to ask, and a run that asks nothing takes none. A
# process does its host work on one core, so a few suffice and more only crowd it: click at
# -j 64 on 2 cores (32 places a process), 16 beside a process kept 17.9 in flight (mean of 5
# runs), 4 beside 19.3 (8 runs), and before places 19.5 (11 runs; each 16-22).
RUNS_BESIDE_PER_PLACE = 0.5
RUNS_BESIDE_AT_LEAST = 2
RUNS_BESIDE_AT_MOST = 4


def agents_at_once(config: RemoraConfig, models: Iterable[ModelConfig | None]) -> int:
    """How many agents run at once: ``-j`` (sandbox.max_concurrent_agents) when given, else
    :data:`AGENTS_PER_SERVER_SLOT` per slot the openai servers take (max_in_flight per server,
    summed over distinct servers), else :data:`DEFAULT_AGENTS_AT_ONCE`."""
    chosen = config.sandbox.max_concurrent_agents
    if chosen is not None:
        return chosen
    capacity: dict[str, int] = {}
    for model in models:
        if model is not None and model.provider == "openai":
            for url in model.server_urls() or [""]:
                capacity[url] = max(capacity.get(url, 0), model.max_in_flight)
    slots = sum(capacity.values())
    return math.ceil(slots * AGENTS_PER_SERVER_SLOT) if slots else DEFAULT_AGENTS_AT_ONCE


def runs_beside(places: int, monty_workers: int | None) -> int:
    """How many runs go on beside the ``places`` (-j) that talk to the model.

    A run waiting for its place inside a tool holds a Monty worker: with the pool's size
    set (``sandbox.workers``), fewer runs than workers wait, so a run with a place always
    finds one.
    """
    wanted = math.ceil(places * RUNS_BESIDE_PER_PLACE)
    beside = min(RUNS_BESIDE_AT_MOST, max(RUNS_BESIDE_AT_LEAST, wanted))
    return beside if monty_workers is None else max(0, min(beside, monty_workers - 1))
