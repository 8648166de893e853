"""Ending a sandboxed process kills what outlived bwrap: real processes, the real bwrap."""

from __future__ import annotations

import asyncio
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from remora.sandbox.ending import end_process, end_sandbox, start_in_group
from remora.sandbox.isolation import bwrap_argv, sandbox_problem

pytestmark = pytest.mark.integration

SLEEP = "import time; time.sleep(60)"


def _sleeping(*arguments: str) -> subprocess.Popen[bytes]:
    """A process in a session of its own, past its ``exec``: ``Popen`` returns as the child
    leaves the parent's memory, before the kernel shows its new arguments in
    /proc/PID/cmdline (empty for a moment: the scan would miss a process there)."""
    process = subprocess.Popen([sys.executable, "-c", SLEEP, *arguments], start_new_session=True)
    cmdline = Path(f"/proc/{process.pid}/cmdline")
    while not cmdline.read_bytes():
        assert process.poll() is None, "the sleeping process ended as it started"
        time.sleep(0.001)
    return process


def _alive(process: subprocess.Popen[bytes]) -> bool:
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return True
    return False


def test_a_process_naming_the_folder_outside_the_group_is_killed_another_folder_is_not(
    tmp_path: Path,
) -> None:
    # What a sandbox left by bwrap's early death looks like: its first process in a session
    # of its own (re-parented), the sandbox's folder among its arguments.
    folder, other = tmp_path / "sandbox", tmp_path / "other"
    leader, left, neighbour = _sleeping(), _sleeping(str(folder)), _sleeping(str(other))
    try:
        end_sandbox(leader.pid, folder)
        assert not _alive(leader) and not _alive(left)
        assert _alive(neighbour)
    finally:
        for process in (leader, left, neighbour):
            process.kill()
            process.wait()


def test_without_a_folder_only_the_group_is_killed(tmp_path: Path) -> None:
    leader, apart = _sleeping(), _sleeping(str(tmp_path))
    try:
        end_sandbox(leader.pid, None)
        assert not _alive(leader) and _alive(apart)
    finally:
        for process in (leader, apart):
            process.kill()
            process.wait()


@pytest.mark.skipif(sandbox_problem() is not None, reason="no bubblewrap here")
def test_bwrap_killed_as_it_starts_leaves_no_sandbox_holding_the_pipes(tmp_path: Path) -> None:
    # Killed in its first milliseconds, bwrap's child outlived it about once in twenty
    # (at 10-15 ms on a 2-core machine), holding the output pipes open: reading them, and
    # asyncio's wait for the process, never ended. Every moment of the first 20 ms, twice.
    (tmp_path / "project").mkdir()
    bwrap = shutil.which("bwrap") or "bwrap"
    argv = bwrap_argv(bwrap, tmp_path, "/bin/sh", ["-c", "sleep 60 & sleep 60"], tmp_path)
    held = []
    for step in range(80):
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, start_new_session=True)
        time.sleep(step % 40 / 2000)
        end_sandbox(process.pid, tmp_path)
        process.wait()
        assert process.stdout is not None
        readable, _, _ = select.select([process.stdout], [], [], 5)
        if not readable:
            held.append(step)
        process.stdout.close()
    assert held == []


@pytest.mark.skipif(sandbox_problem() is not None, reason="no bubblewrap here")
async def test_a_start_cancelled_midway_ends_with_its_sandbox(tmp_path: Path) -> None:
    bwrap = shutil.which("bwrap") or "bwrap"
    argv = bwrap_argv(bwrap, tmp_path, "/bin/sh", ["-c", "sleep 60"], tmp_path)
    for step in range(20):
        start = asyncio.ensure_future(start_in_group(argv, tmp_path, stdin=subprocess.PIPE))
        await asyncio.sleep(step / 1000)
        start.cancel()
        async with asyncio.timeout(10):
            try:
                process = await start
            except asyncio.CancelledError:
                continue  # ended by start_in_group
        await end_process(process, tmp_path)
        assert process.returncode is not None
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _names(p, tmp_path)]


def _names(pid: str, folder: Path) -> bool:
    try:
        arguments = Path("/proc", pid, "cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return os.fsencode(str(folder)) in arguments
