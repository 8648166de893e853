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
import threading
import time

__all__ = ["HostProcesses", "become_subreaper", "machine_busy_s", "reap_orphans"]

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


def _rss_kb(pid: int) -> int:
    return _proc_kb(f"/proc/{pid}/status", "VmRSS:")


def _pss_kb(pid: int) -> int:
    """Its proportional set size: each shared page (the interpreter, the extension modules
    every host process maps) counted once over the processes sharing it, not once each."""
    return _proc_kb(f"/proc/{pid}/smaps_rollup", "Pss:")


def _proc_kb(path: str, key: str) -> int:
    try:
        with open(path) as lines:
            for line in lines:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as kids:
            return [int(k) for k in kids.read().split()]
    except (OSError, ValueError):
        return []


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read()
    except OSError:
        return b""


def _cpu_s(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


class HostProcesses:
    """A process and its children whose command line holds ``marker`` (a sharded analyze's
    host processes), sampled every ``every_s`` (Linux): the peak of their RSS summed, and
    each child's CPU seconds at its last sample (short of its last ``every_s`` at most).
    Their PSS summed (what they take of the machine's memory together, shared pages once)
    is sampled every ``PSS_EVERY`` samples: the kernel walks each process's pages for it."""

    PSS_EVERY = 10

    def __init__(self, pid: int, marker: bytes, every_s: float = 0.1) -> None:
        self.peak_rss_kb = 0
        self.peak_pss_kb = 0
        self.cpu_s: dict[int, float] = {}
        self.seen_s: dict[int, list[float]] = {}  # first and last sample, from the start
        self._stop = threading.Event()
        started = time.monotonic()

        def sample() -> None:
            samples = 0
            while not self._stop.wait(every_s):
                kids = [k for k in _children(pid) if marker in _cmdline(k)]
                for kid in kids:
                    self.cpu_s[kid] = max(self.cpu_s.get(kid, 0.0), _cpu_s(kid))
                    now = round(time.monotonic() - started, 1)
                    self.seen_s.setdefault(kid, [now, now])[1] = now
                rss = _rss_kb(pid) + sum(map(_rss_kb, kids))
                self.peak_rss_kb = max(self.peak_rss_kb, rss)
                if samples % self.PSS_EVERY == 0:
                    pss = _pss_kb(pid) + sum(map(_pss_kb, kids))
                    self.peak_pss_kb = max(self.peak_pss_kb, pss)
                samples += 1

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
