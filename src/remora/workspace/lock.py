"""One accept at a time per project: an advisory ``flock`` on ``.remora/accept.lock``.

Two ``remora review accept`` processes writing the same files would each check
conflicts against a project the other is changing; holding this lock for the
whole check-and-write makes the second one wait, then refuse cleanly. The
kernel drops the lock when its holder dies (``kill -9`` included), so a crash
never leaves the project locked.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from remora.errors import WorkspaceConflictError
from remora.project import STATE_DIR

__all__ = ["LOCK_NAME", "ProjectLocked", "project_lock"]

LOCK_NAME = "accept.lock"
DEFAULT_WAIT_S = 60.0
_POLL_S = 0.05


class ProjectLocked(WorkspaceConflictError):
    """Another process holds the project's accept lock (WORKSPACE_001)."""

    def __init__(self, holder: str, waited_s: float) -> None:
        super().__init__(
            f"another Remora process ({holder}) is accepting or rejecting changes in this "
            f"project; waited {waited_s:g}s",
            "let it finish, then run the command again",
        )


@contextlib.contextmanager
def project_lock(project_root: Path, wait_s: float | None = None) -> Iterator[None]:
    """Hold the project's accept lock, waiting up to ``wait_s`` (DEFAULT_WAIT_S) for another."""
    if wait_s is None:
        wait_s = DEFAULT_WAIT_S
    state = project_root / STATE_DIR
    state.mkdir(exist_ok=True)
    fd = os.open(state / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
                    raise ProjectLocked(holder or "unknown pid", wait_s) from None
                time.sleep(_POLL_S)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock
