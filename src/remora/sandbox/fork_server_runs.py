"""The fork server's forked children as it sees them: their output, exit status and limits.

Sent between :mod:`remora.sandbox.fork_server_child` and
:mod:`remora.sandbox.fork_server_main` in the server's ``python -c`` text; standard
library only.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sent after that module's text (fork_server.server_text)
    from remora.sandbox.fork_server_child import CHUNK, frame, kill

# After a child exits: how long its pipes may stay open (a process it left behind).
DRAIN_S = 2.0


class Stream:
    """A child's output: the first ``cap`` bytes, and how many followed."""

    def __init__(self, cap: int) -> None:
        self.kept = bytearray()
        self.dropped = 0
        self.cap = cap


class Run:
    """A forked child running one program, and what it printed so far.

    It is answered once its output pipes are at their end and its exit status is known:
    from its status pipe (written just before it exits) or from waiting for it. It is
    forgotten once it is answered and waited for.
    """

    def __init__(
        self, header: dict[str, Any], pid: int, pipes: tuple[int, int], status: int, folder: str
    ):
        self.header = header
        self.pid = pid
        self.pidfd = os.pidfd_open(pid)
        self.folder = folder
        self.deadline = time.monotonic() + float(header["timeout_s"])
        caps = int(header["out_cap"]), int(header["err_cap"])
        self.streams = {fd: Stream(cap) for fd, cap in zip(pipes, caps, strict=True)}
        self.order = pipes
        self.open = set(pipes)  # its pipes not yet at their end (fd numbers are reused)
        self.status: int | None = status  # the status pipe, until it is read
        self.reported: int | None = None  # the exit status it wrote there
        self.exit_code: int | None = None  # once waited for
        self.timed_out = False
        self.answered = False

    def take(self, fd: int) -> bool:
        """Reads from ``fd``; false at its end."""
        try:
            chunk = os.read(fd, CHUNK)
        except BlockingIOError:
            return True
        stream = self.streams[fd]
        room = max(0, stream.cap - len(stream.kept))
        stream.kept += chunk[:room]
        stream.dropped += max(0, len(chunk) - room)
        return bool(chunk)

    def kill(self) -> None:
        kill(self.pid)

    def answer(self) -> bytes:
        out, err = (self.streams[fd] for fd in self.order)
        code = self.exit_code if self.exit_code is not None else self.reported
        header = {
            "id": self.header["id"],
            "exit_code": 124 if self.timed_out else code,
            "timed_out": self.timed_out,
            "out_dropped": out.dropped,
            "err_dropped": err.dropped,
        }
        return frame(header, bytes(out.kept), bytes(err.kept))
