"""``asyncio.run`` for a command's own event loop, the tasks its coroutine leaves ended first.

``asyncio.run`` ends by cancelling every task still pending, all at once
(``asyncio.runners._cancel_all_tasks``). One of them can be asyncio's own task that
connects a starting subprocess's pipes (``BaseSubprocessTransport._connect_pipes``),
beside the task awaiting ``create_subprocess_exec``: that one, cancelled, kills the
process and waits for its transport to finish, which never happens once the connecting
task is cancelled too (CPython gh-103847, gh-125502; Python 3.11 keeps the bug). The
command then waits forever. Ctrl-C leaves such tasks behind: the host functions a
cancelled Monty script had called (pydantic_monty neither cancels nor awaits them, and
a lint tool's probe may be starting bubblewrap), the ruff runs ``ruff_runs`` shields
for their other waiters. Caught by a stress run of ``remora analyze`` interrupted in its
first 2.5 s of runs, at load 7-11: 7 of 67 interrupts hung, each task dump one task left in
``create_subprocess_exec`` inside ``_cancel_all_tasks`` (2 ruff runs, 2 probes); the
red-team Ctrl-C test's timeouts in full-suite runs fit it (no dump of those).

:func:`run_main` runs the coroutine, then, in the same loop, ends the tasks left: each
cancelled once, except those that only start a process (they finish by themselves), and
all awaited, until none is left; ``asyncio.run``'s own cancelling then finds nothing. Then
the processes started through ``sandbox.ending`` that a cancelled task left running (or
killed, its pipes not yet read to their end) are ended while the loop can still hear
them: a transport finished after the loop closed prints "Exception ignored ... Event
loop is closed" at exit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from remora.sandbox.ending import SELF_ENDING, end_started_processes

__all__ = ["end_other_tasks", "run_main"]

_T = TypeVar("_T")


def run_main(main: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(main)``, with every task ``main`` leaves ended before the loop closes.

    Ctrl-C cancels ``main`` and raises KeyboardInterrupt, as ``asyncio.run`` does, once the
    tasks left are ended; a second Ctrl-C while they end raises it at once.
    """
    with asyncio.Runner() as runner:
        try:
            return runner.run(main)
        finally:
            runner.run(end_other_tasks())
            runner.run(end_started_processes())


async def end_other_tasks() -> None:
    """Cancel every other task of this loop once (those that end by themselves, soon, are
    left to finish: ``sandbox.ending.SELF_ENDING``) and wait until none is left, those
    started meanwhile too."""
    current = asyncio.current_task()
    cancelled: set[asyncio.Task[Any]] = set()
    while True:
        others = {task for task in asyncio.all_tasks() if task is not current}
        if not others:
            return
        for task in others - cancelled:
            if getattr(task.get_coro(), "__qualname__", "") not in SELF_ENDING:
                task.cancel()
                cancelled.add(task)
        await asyncio.wait(others, return_when=asyncio.FIRST_COMPLETED)
