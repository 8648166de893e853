"""A fixed number of workers taking items from one queue, refilled as it runs dry."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

__all__ = ["run_workers"]

T = TypeVar("T")


async def run_workers(
    queue: deque[T],
    limit: int,
    run: Callable[[T], Awaitable[None]],
    refill: Callable[[], Awaitable[bool]] | None = None,
) -> None:
    """Up to ``limit`` workers run the items of ``queue`` until it is empty and ``refill``
    (which queues more, or says false: there are none) has none to give.

    A worker that raises (a bug) stops the others, then the error propagates;
    cancelling this cancels every worker.
    """

    async def more() -> bool:
        return refill is not None and await refill()

    async def worker() -> None:
        while queue or await more():
            await run(queue.popleft())

    count = limit if refill is not None else min(limit, len(queue))
    workers = [asyncio.create_task(worker(), name=f"remora-worker-{i}") for i in range(count)]
    if not workers:
        return
    try:
        done, pending = await asyncio.wait(workers, return_when=asyncio.FIRST_EXCEPTION)
    except asyncio.CancelledError:
        await _cancel(workers)
        raise
    if pending:
        # One worker raised (a bug): stop the others, then let the error out.
        await _cancel(list(pending))
    for finished in done:
        error = finished.exception()
        if error is not None:
            raise error


async def _cancel(tasks: Sequence[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
