"""CPU seconds of a command and of every process it started, orphans included.

``getrusage(RUSAGE_CHILDREN)`` counts a descendant only when its own parent
reaps it. bubblewrap breaks that chain: with a PID namespace the outer
``bwrap`` exits as soon as the sandboxed program does, leaving the namespace's
init (which reaped the program, and holds its CPU time) to the system's init.
A benchmark that became a child subreaper gets those orphans instead, reaps
them, and so counts every sandboxed program. Linux only; elsewhere the figure
counts only what each parent reaped, and ``become_subreaper`` says so.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

__all__ = ["become_subreaper", "machine_busy_s", "reap_orphans"]

_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make orphaned descendants this process's children; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


def reap_orphans(timeout_s: float = 10.0) -> int:
    """Reap every child left (orphans handed over, still running or not); how many.

    Waits up to ``timeout_s`` for ones still running: a sandbox's init exits
    right after its program, so they are only moments behind the command.
    """
    reaped = 0
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # no children left
            return reaped
        if pid:
            reaped += 1
        elif time.monotonic() >= deadline:
            return reaped
        else:
            time.sleep(0.02)


def machine_busy_s() -> float | None:
    """CPU seconds every CPU of the machine has spent not idle since boot (/proc/stat)."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal (guest time is already in user)
    busy = sum(fields[:8]) - fields[3] - fields[4]
    return busy / os.sysconf("SC_CLK_TCK")
