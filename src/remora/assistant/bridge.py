"""Run async assistant questions from synchronous consoles.

Capabilities touch the user's objects, and some of those only work on the
thread that made them (sqlite3 connections, GUI handles), so a question runs
on the calling thread whenever it can: on one event loop kept for the life of
the console (a provider's async clients stay bound to it). Only when that
thread already runs a loop (a Jupyter kernel) does the question go to a helper
thread with its own loop, the caller waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["LoopBridge"]

T = TypeVar("T")


class LoopBridge:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread_loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def run(self, make: Callable[[], Awaitable[T]]) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return self._run_here(make)
        return self._run_in_thread(make)

    def _run_here(self, make: Callable[[], Awaitable[T]]) -> T:
        if self._loop is None or self._loop.is_closed():
            self._loop = asyncio.new_event_loop()
        task = self._loop.create_task(_as_coroutine(make))
        try:
            return self._loop.run_until_complete(task)
        except KeyboardInterrupt:
            # Ctrl-C stops the question, not the console; let the task unwind.
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
                self._loop.run_until_complete(task)
            raise

    def _run_in_thread(self, make: Callable[[], Awaitable[T]]) -> T:
        if self._thread_loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="remora-assistant", daemon=True)
            thread.start()
            self._thread_loop, self._thread = loop, thread
        future = asyncio.run_coroutine_threadsafe(_as_coroutine(make), self._thread_loop)
        try:
            return future.result()
        except KeyboardInterrupt:
            future.cancel()
            raise

    def close(self, final: Callable[[], Awaitable[None]] | None = None) -> None:
        """Run ``final`` (closing the provider) the way questions ran, then stop the loops."""
        if final is not None:
            self.run(final)
        if self._loop is not None and not self._loop.is_closed():
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()
        if self._thread_loop is not None and self._thread is not None:
            self._thread_loop.call_soon_threadsafe(self._thread_loop.stop)
            self._thread.join()
            self._thread_loop.close()
            self._thread_loop = self._thread = None


async def _as_coroutine(make: Callable[[], Awaitable[T]]) -> T:
    return await make()
