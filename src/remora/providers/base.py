"""The Provider protocol every model backend implements (docs/architecture.md, "Providers")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from remora.conversation import ModelRequest, ModelTurn
from remora.errors import ModelError
from remora.profiles import ModelProfile

__all__ = ["Availability", "Provider", "ProviderError"]


@dataclass(frozen=True, slots=True)
class Availability:
    ok: bool
    model: str
    provider: str
    reason: str = ""
    hint: str = ""


# What a provider raises when a request fails: ModelUnavailableError (unreachable, refused,
# timed out) or InvalidModelOutputError (an answer that cannot be read), both ModelError,
# with ``retryable`` set when trying again may help. ``except ProviderError`` catches either;
# raise the concrete class.
ProviderError = ModelError


@runtime_checkable
class Provider(Protocol):
    profile: ModelProfile

    async def complete(self, request: ModelRequest) -> ModelTurn: ...

    async def check(self) -> Availability: ...

    async def aclose(self) -> None: ...
