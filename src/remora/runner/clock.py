"""The clock of one model turn's time limit (see remora.conversation.WorkClock)."""

from __future__ import annotations

import asyncio
import time

__all__ = ["TurnClock"]


class TurnClock:
    """A turn's time limit that stands still while the provider says it is queued."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.scope: asyncio.Timeout | None = None
        self.queued_s = 0.0
        self._queued_since: float | None = None

    def queued(self) -> None:
        self._queued_since = time.monotonic()
        if self.scope is not None:
            self.scope.reschedule(None)

    def started(self) -> None:
        if self._queued_since is not None:
            self.queued_s += time.monotonic() - self._queued_since
            self._queued_since = None
        if self.scope is not None:
            self.scope.reschedule(asyncio.get_running_loop().time() + self.limit)
