"""Ending a sandboxed process: its process group, and the sandbox that outlived bwrap.

A command and a fork server start in their own process group, so one ``killpg``
ends bwrap and, with its PID namespace, every process of the sandbox. Not when
bwrap is killed as it starts its child: for a few milliseconds the child (the
namespace's first process, in a session of its own) runs before bwrap's
``--die-with-parent`` holds, and it then lives on, re-parented to init, with the
sandbox's program under it and the command's pipes open. asyncio reports a process's
end only once its pipes close, so the command, and Remora's exit, waited forever:
about one kill in twenty at 10-15 ms after the start did that (a loop of killed
``bwrap ... sh -c 'sleep 30 & sleep 30'`` starts on this 2-core machine).

Every bwrap of a sandbox names the sandbox's own folder among its arguments
(``--bind FOLDER FOLDER``), and no other process does: :func:`end_sandbox` kills
the group, then every process left whose arguments name that folder. Killing that
first process ends its namespace, and the sandbox with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import subprocess
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

__all__ = [
    "SELF_ENDING",
    "end_process",
    "end_sandbox",
    "end_started_processes",
    "start_in_group",
    "wait_ended",
]

_PROC = Path("/proc")
# How long a cancelled process's end is waited for once its group and sandbox are killed.
_END_WAIT_S = 5.0
# The processes start_in_group started and not yet seen finished (exited, output read to
# its end), with their bwrap folder: what end_started_processes ends when the loop ends.
_STARTED: dict[asyncio.subprocess.Process, Path | None] = {}


async def start_in_group(
    argv: list[str], folder: Path | None, **options: Any
) -> asyncio.subprocess.Process:
    """``create_subprocess_exec(*argv, **options)`` with piped output, in a process group
    of its own (a kill ends bwrap and the sandbox with it; ``folder``: its bwrap's, or
    None). Cancelled while it starts (Ctrl-C), the start ends first, then the process:
    asyncio's own clean-up of a cancelled start kills bwrap alone and waits for the pipes
    a sandbox living on holds open, and the loop's close hung forever."""
    spawn = asyncio.ensure_future(
        asyncio.create_subprocess_exec(
            *argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            **options,
        )
    )
    spawn.add_done_callback(functools.partial(_started, folder))
    try:
        return await asyncio.shield(spawn)
    except asyncio.CancelledError:
        await end_process(await spawn, folder)  # cancelled again: end_started_processes
        raise


def _started(folder: Path | None, spawn: asyncio.Future[asyncio.subprocess.Process]) -> None:
    """Remember a process as soon as it started, whatever becomes of the task awaiting it."""
    if spawn.cancelled() or spawn.exception() is not None:
        return
    for finished in [proc for proc in _STARTED if _finished(proc)]:
        del _STARTED[finished]
    _STARTED[spawn.result()] = folder


async def end_process(proc: asyncio.subprocess.Process, folder: Path | None) -> None:
    """Kill a process :func:`start_in_group` started (and its sandbox), close its input,
    read its output to the end (no task reads it any more) and wait for it, at most
    ``_END_WAIT_S``: asyncio finishes a process only once its pipes are read to their end,
    and a transport finished after its loop closed prints "Exception ignored ... Event
    loop is closed" at exit."""
    end_sandbox(proc.pid if proc.returncode is None else None, folder)
    if proc.stdin is not None:
        proc.stdin.close()
    if not await _within(proc.communicate(), _END_WAIT_S):
        warnings.warn(
            f"a cancelled process (pid {proc.pid}) still held its pipes {_END_WAIT_S:g}s "
            "after its group and sandbox were killed; left to the system",
            RuntimeWarning,
            stacklevel=2,
        )


async def end_started_processes() -> None:
    """End every process :func:`start_in_group` started and not seen finished: at the end
    of a command's loop, after its tasks, those a cancelled task left behind."""
    left = [(proc, folder) for proc, folder in _STARTED.items() if not _finished(proc)]
    _STARTED.clear()
    await asyncio.gather(*(end_process(proc, folder) for proc, folder in left))


async def wait_ended(proc: asyncio.subprocess.Process, within: float) -> bool:
    """Wait at most ``within`` seconds for ``proc`` to exit; whether it did (its output is
    left to its readers). Cancelled meanwhile, the wait goes on (still bounded)."""
    return await _within(proc.wait(), within)


def _finished(proc: asyncio.subprocess.Process) -> bool:
    streams = (proc.stdout, proc.stderr)
    return proc.returncode is not None and all(s is None or s.at_eof() for s in streams)


async def _within(step: Coroutine[Any, Any, Any], within: float) -> bool:
    """Await ``step`` at most ``within`` seconds; whether it ended. A cancel meanwhile lets
    it go on (still bounded) before it is raised: a task cancelled as the loop ends
    (Ctrl-C) must not leave a killed process unfinished."""
    waiting = asyncio.ensure_future(_bounded(step, within))
    try:
        return await asyncio.shield(waiting)
    except asyncio.CancelledError:
        await asyncio.wait([waiting])
        raise


async def _bounded(step: Coroutine[Any, Any, Any], within: float) -> bool:
    try:
        await asyncio.wait_for(step, within)
    except TimeoutError:
        return False
    return True


# The tasks that end by themselves, soon, and must not be cancelled: asyncio's own, that
# connects a new subprocess's pipes (asyncio/base_subprocess.py); a start (cancelled, its
# clean-up waits on the pipes of the process it kills as they connect: CPython gh-103847,
# gh-125502, in 3.11); the bounded end of a process above.
SELF_ENDING = frozenset(
    {"BaseSubprocessTransport._connect_pipes", "create_subprocess_exec", _bounded.__qualname__}
)


def end_sandbox(pid: int | None, folder: Path | None) -> None:
    """SIGKILL the process group ``pid`` leads (None: it has ended) and, when the process ran
    under bwrap in ``folder``, every process whose arguments name that folder (the
    sandbox left)."""
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    if folder is None:
        return
    for survivor in _naming(os.fsencode(str(folder))):
        with contextlib.suppress(ProcessLookupError):
            os.kill(survivor, signal.SIGKILL)


def _naming(argument: bytes) -> list[int]:
    """The processes with ``argument`` as one of their arguments."""
    found = []
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if argument in arguments:
            found.append(int(entry.name))
    return found
