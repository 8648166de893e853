"""What a killed run leaves in ``.remora/workspaces/``, cleared by the next one.

A run claims its workspace id with an empty file and writes the database into it only
when it ends (store.py, database.py); a run killed half-way (SIGKILL, a power cut)
leaves the empty claim, and one killed while saving leaves a ``.<id>.db.<pid>.part``
image. Neither is ever offered for review, but nothing removed them: they piled up.

An empty claim cannot tell a killed run from a live one in another process, so every
process that claims ids holds a shared ``flock`` on ``.remora/workspaces.lock`` from
its first claim to its end (the kernel drops it when the process dies, however it dies).
The first claim of a process first asks for the lock exclusively, without waiting:
granted, no other process is claiming, so every empty claim and part image there is a
killed run's, and they are removed before the lock is turned to shared. Refused, another
process is running and nothing is removed (its runs' claims are live); a later run
clears them.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Callable
from pathlib import Path

__all__ = ["LOCK_NAME", "hold_claims"]

LOCK_NAME = "workspaces.lock"  # beside the folder: a listing of it shows workspaces only

# Per folder, the descriptor holding this process's shared lock (kept to the end).
_held: dict[Path, int] = {}
_holding = threading.Lock()


def hold_claims(directory: Path, remove: Callable[[str], None]) -> None:
    """Hold this process's shared claim lock on ``directory`` (once per process); the first
    time, when no other process holds it, ``remove`` each workspace id whose file is an
    empty claim and delete the part images a killed save left."""
    with _holding:
        if directory in _held:
            return
        fd = os.open(directory.parent / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pass  # another process is claiming: its empty claims may be live
        else:
            _clear_leftovers(directory, remove)
        fcntl.flock(fd, fcntl.LOCK_SH)
        _held[directory] = fd


def _clear_leftovers(directory: Path, remove: Callable[[str], None]) -> None:
    with os.scandir(directory) as entries:
        found = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    for name, st in found:
        if name.startswith(".") and name.endswith(".part"):
            (directory / name).unlink(missing_ok=True)
        elif name.endswith(".db") and st.st_size == 0:
            remove(name.removesuffix(".db"))
