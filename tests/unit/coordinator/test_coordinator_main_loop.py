"""run_main: asyncio.run with the tasks the main coroutine leaves ended first.

The first test is CPython gh-103847/gh-125502 in its deterministic form: the main
coroutine ends while another task awaits create_subprocess_exec, the process started and
asyncio's task connecting its pipes not yet run. Plain ``asyncio.run`` cancels both at
once and waits forever (checked by hand on Python 3.11.7: every run hangs); the Ctrl-C of
``remora analyze`` hung the same way on a probe starting bubblewrap or a ruff run left
running by a cancelled Monty script. Under run_main these tests end (a regression hangs
them until pytest-timeout fails them)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from remora.coordinator.main_loop import end_other_tasks, run_main
from remora.sandbox.ending import start_in_group


def _starting_subprocess() -> asyncio.Task[None]:
    async def start() -> None:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", "", stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        await process.communicate()

    return asyncio.create_task(start(), name="left-starting")


def _connecting_pipes() -> list[asyncio.Task[Any]]:
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "BaseSubprocessTransport._connect_pipes"
    ]


async def _leave_a_subprocess_starting(left: list[asyncio.Task[None]]) -> str:
    left.append(_starting_subprocess())
    # One turn of the loop: the task runs to `await waiter` (Popen done, the pipes'
    # connecting task scheduled after this one), then this coroutine goes on.
    await asyncio.sleep(0)
    assert _connecting_pipes() and not any(task.done() for task in _connecting_pipes())
    return "done"


def test_a_task_left_starting_a_subprocess_is_ended_before_the_loop_closes() -> None:
    left: list[asyncio.Task[None]] = []
    assert run_main(_leave_a_subprocess_starting(left)) == "done"
    assert left[0].cancelled()


async def _interrupted(left: list[asyncio.Task[None]]) -> None:
    left.append(_starting_subprocess())
    await asyncio.sleep(0)
    assert _connecting_pipes()
    signal.raise_signal(signal.SIGINT)  # asyncio.Runner's handler cancels this task
    await asyncio.Event().wait()


def test_ctrl_c_raises_keyboardinterrupt_once_the_tasks_left_have_ended() -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    left: list[asyncio.Task[None]] = []
    with pytest.raises(KeyboardInterrupt):
        run_main(_interrupted(left))
    assert left[0].cancelled()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


async def _cleanup_awaits_after_its_cancel(steps: list[str]) -> None:
    async def slow_cleanup() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            # a cancelled task's own cleanup awaits (a killed process, a written file):
            # it is cancelled once, not again while it cleans up
            for _ in range(5):
                await asyncio.sleep(0)
            steps.append("cleaned up")
            raise

    cleanup = asyncio.create_task(slow_cleanup())
    await asyncio.sleep(0)
    await end_other_tasks()
    steps.append("all ended" if cleanup.cancelled() else "not cancelled")


def test_each_task_left_is_cancelled_once_and_awaited() -> None:
    steps: list[str] = []
    run_main(_cleanup_awaits_after_its_cancel(steps))
    assert steps == ["cleaned up", "all ended"]


async def _leave_a_started_process(
    left: list[asyncio.subprocess.Process], tasks: list[asyncio.Task[None]]
) -> None:
    started = asyncio.Event()

    async def talk() -> None:
        process = await start_in_group(
            [sys.executable, "-c", "import time; print('x' * 200000); time.sleep(60)"],
            None,
            stdin=subprocess.PIPE,
        )
        left.append(process)
        started.set()
        await process.communicate()

    tasks.append(asyncio.create_task(talk()))
    await started.wait()


def test_a_process_whose_task_was_cancelled_is_ended_and_read_to_its_end() -> None:
    # The task reading it is cancelled as the loop ends: the process, killed, must be read
    # to its end while the loop lives, or its transport is finished after the loop closed
    # ("Exception ignored in BaseSubprocessTransport.__del__ ... Event loop is closed").
    left: list[asyncio.subprocess.Process] = []
    tasks: list[asyncio.Task[None]] = []
    run_main(_leave_a_started_process(left, tasks))
    [process] = left
    assert tasks[0].cancelled()
    assert process.returncode is not None
    assert process.stdout is not None and process.stdout.at_eof()


def _running(marker: str) -> bool:
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if marker.encode() in (entry / "cmdline").read_bytes():
                return True
    return False


async def _cancel_a_start(marker: str, starts: list[asyncio.Future[Any]]) -> str:
    code = f"import time; time.sleep(60)  # {marker}"
    starts.append(asyncio.ensure_future(start_in_group([sys.executable, "-c", code], None)))
    await asyncio.sleep(0)  # the start's own task now runs create_subprocess_exec
    starting = [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "create_subprocess_exec"
    ]
    assert starting
    return "left starting"


def test_a_task_only_starting_a_process_is_left_to_finish_then_the_process_ended() -> None:
    # Cancelled, create_subprocess_exec's own clean-up can wait forever (gh-103847): the
    # start is spared, and the process it started is ended with the others.
    marker = f"remora-test-{os.getpid()}-start"
    starts: list[asyncio.Future[Any]] = []
    assert run_main(_cancel_a_start(marker, starts)) == "left starting"
    assert starts[0].cancelled()
    assert not _running(marker)
