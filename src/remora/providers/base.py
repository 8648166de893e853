"""The Provider protocol every model backend implements (DESIGN §7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from remora.conversation import ModelRequest, ModelTurn
from remora.providers.profiles import ModelProfile

__all__ = ["Availability", "Provider", "ProviderError"]


@dataclass(frozen=True, slots=True)
class Availability:
    ok: bool
    model: str
    provider: str
    reason: str = ""
    hint: str = ""


class ProviderError(Exception):
    """An operational failure talking to a model: unreachable, timed out, refused.

    ``code`` is AGENT_002 (unavailable/timeout) or AGENT_004 (malformed output).
    The loop turns it into a failed result; it never reaches the user as a traceback.
    """

    def __init__(self, code: str, message: str, *, retryable: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable


@runtime_checkable
class Provider(Protocol):
    profile: ModelProfile

    async def complete(self, request: ModelRequest) -> ModelTurn: ...

    async def check(self) -> Availability: ...

    async def aclose(self) -> None: ...
