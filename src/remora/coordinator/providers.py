"""One provider per model, shared by every agent run that uses it.

The embedded engine serves concurrent runs in parallel slots, a remote server
takes concurrent requests; either way one client per model is enough. Every
model is checked before any agent starts, so an unavailable model is one clear
AGENT_002 error instead of a failed result per node.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from remora.config import ModelConfig, RemoraConfig
from remora.errors import ModelUnavailableError
from remora.providers.base import Provider

__all__ = [
    "AGENTS_PER_SERVER_SLOT",
    "DEFAULT_AGENTS_AT_ONCE",
    "ProviderFactory",
    "ProviderPool",
    "agents_at_once",
    "model_key",
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

ProviderFactory = Callable[[ModelConfig, "str | None"], Provider]


def model_key(model: ModelConfig, profile: str | None) -> str:
    return json.dumps([model.model_dump(mode="json"), profile], sort_keys=True)


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


def _default_factory(model: ModelConfig, profile: str | None) -> Provider:
    from remora.providers.factory import create_provider  # adapters import lazily

    return create_provider(model, profile)


class ProviderPool:
    """Providers by (model config, profile); created on first use, closed together."""

    def __init__(self, factory: ProviderFactory | None = None) -> None:
        self._factory = factory or _default_factory
        self._providers: dict[str, Provider] = {}
        self._models: dict[str, ModelConfig] = {}

    def get(self, model: ModelConfig, profile: str | None) -> Provider:
        key = model_key(model, profile)
        provider = self._providers.get(key)
        if provider is None:
            provider = self._providers[key] = self._factory(model, profile)
            self._models[key] = model
        return provider

    def __len__(self) -> int:
        return len(self._providers)

    def __contains__(self, item: tuple[ModelConfig, str | None]) -> bool:
        """Whether the provider of (model, profile) was made already."""
        return model_key(*item) in self._providers

    async def check_all(self) -> None:
        """Raise AGENT_002 naming the model, the provider and what to do, for the first
        model that is not available."""
        for key, provider in self._providers.items():
            availability = await provider.check()
            if not availability.ok:
                model = self._models[key]
                urls = model.server_urls()
                where = f" at {', '.join(urls)}" if urls else ""
                raise ModelUnavailableError(
                    f"model {availability.model or model.id!r} ({model.provider}{where}) is not "
                    f"available: {availability.reason or 'no reason given'}",
                    availability.hint
                    or "check the model section of remora.yaml; "
                    "`remora models` shows what is available",
                )

    def servers(self) -> list[dict[str, Any]]:
        """The state of every server behind the providers that route requests (openai)."""
        states: list[dict[str, Any]] = []
        for key, provider in self._providers.items():
            snapshot = getattr(provider, "servers", None)
            if callable(snapshot):
                model = self._models[key]
                states.extend({"model": model.id, **state} for state in snapshot())
        return states

    async def aclose(self) -> None:
        providers, self._providers = list(self._providers.values()), {}
        for provider in providers:
            await provider.aclose()
