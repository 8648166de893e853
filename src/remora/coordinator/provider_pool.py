"""One provider per model, shared by every agent run that uses it.

The embedded engine serves concurrent runs in parallel slots, a remote server
takes concurrent requests; either way one client per model is enough. Every
model is checked before any agent starts, so an unavailable model is one clear
AGENT_002 error instead of a failed result per node.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from remora.config import ModelConfig
from remora.errors import ModelUnavailableError
from remora.providers.base import Provider

__all__ = ["ProviderFactory", "ProviderPool", "model_key"]

ProviderFactory = Callable[[ModelConfig, "str | None"], Provider]


def model_key(model: ModelConfig, profile: str | None) -> str:
    return json.dumps([model.model_dump(mode="json"), profile], sort_keys=True)


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
