"""A run's place among the runs that talk to the model at once (``-j``).

A run holds a place while it talks to the model: from its first turn to the
model's last answer, and for each completion its tools ask for outside a
conversation (a host step's draft). Its host work before and after (host
steps, a lint fix that asks nothing, the tools that end the run, the record)
needs none, so the coordinator runs a few runs more than ``-j`` and the places
stay filled with runs that have a request out or are about to send the next.
A conversation keeps its place between its turns, so a server goes on serving
the same ``-j`` conversations (a slot's prompt cache stays warm) instead of
switching among more.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

__all__ = ["ModelPlace"]


class ModelPlace:
    """One run's place, from ``places`` (None: no limit).

    Counted: the run's conversation and its tools' completions each hold it, and it
    goes back to ``places`` when the last of them gives it back.
    """

    def __init__(self, places: asyncio.Semaphore | None = None) -> None:
        self._places = places
        self._taking = asyncio.Lock()
        self._holders = 0
        self._closed = False
        self._taken_at = 0.0
        # Seconds waited for the place, and held, over the run (a run may take it again).
        self.waited_s = 0.0
        self.held_s = 0.0

    async def take(self) -> None:
        """Hold the place, waiting for one when the run holds none."""
        async with self._taking:  # completions side by side: one of them waits
            if self._closed:
                return  # the run is over (interrupted): a late completion takes no place
            if self._holders == 0:
                began = time.monotonic()
                if self._places is not None:
                    await self._places.acquire()
                self._taken_at = time.monotonic()
                self.waited_s += self._taken_at - began
            self._holders += 1

    def give_back(self) -> None:
        """One holder is done; the last one's place goes to the next run.

        After :meth:`close` (the run ended while a completion still held the place, as an
        interrupt ends it) the place has gone back already: nothing to give.
        """
        if self._closed:
            return
        if self._holders == 0:
            raise RuntimeError("a run gave back a place it did not hold")
        self._holders -= 1
        if self._holders == 0:
            self._release()

    def close(self) -> None:
        """The run is over: its place, if held, goes back whoever held it."""
        self._closed = True
        if self._holders:
            self._holders = 0
            self._release()

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """Hold the place for one request."""
        await self.take()
        try:
            yield
        finally:
            self.give_back()

    def _release(self) -> None:
        self.held_s += time.monotonic() - self._taken_at
        if self._places is not None:
            self._places.release()

    def report(self) -> dict[str, Any]:
        """What the run's end says of its place ({} when it asked the model nothing)."""
        if not self.held_s:
            return {}
        return {"waited_s": round(self.waited_s, 6), "held_s": round(self.held_s, 6)}
