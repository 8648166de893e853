"""The fork server's forked children as it sees them: a program's (its output, exit status
and limits; one forked ahead of its request), and a zygote's.

Sent between :mod:`remora.sandbox.fork_server_child` and
:mod:`remora.sandbox.fork_server_main` in the server's ``python -c`` text; standard
library only.
"""

from __future__ import annotations

import os
import shutil
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sent after that module's text (fork_server.server_text)
    from remora.sandbox.fork_server_child import CHUNK, Inbox, frame, kill

# After a child exits: how long its pipes may stay open (a process it left behind).
DRAIN_S = 2.0


class Stream:
    """A child's output: the first ``cap`` bytes, and how many followed."""

    def __init__(self, cap: int) -> None:
        self.kept = bytearray()
        self.dropped = 0
        self.cap = cap


class Forked:
    """A forked child before it is a :class:`Run`: its pid, output and status pipes and
    folder; ``go``, its program's pipe, while it waits for one (forked ahead of its
    request: ``fork_server_child.waiting``)."""

    def __init__(self, pid: int, pipes: tuple[int, int], status: int, folder: str) -> None:
        self.pid, self.pipes, self.status, self.folder = pid, pipes, status, folder
        self.go: int | None = None

    def fds(self) -> list[int]:
        return [*self.pipes, self.status, *([] if self.go is None else [self.go])]

    def send(self, program: bytes) -> bool:
        """Hands it ``program`` (a frame); false when it is gone (then it is ended)."""
        assert self.go is not None
        try:
            while program:
                program = program[os.write(self.go, program) :]
        except BrokenPipeError:
            self.end()
            return False
        os.close(self.go)
        self.go = None
        return True

    def end(self) -> None:
        """Killed and waited for, its pipes closed and its folder removed."""
        kill(self.pid)
        os.waitpid(self.pid, 0)
        for fd in self.fds():
            os.close(fd)
        self.go = None
        shutil.rmtree(self.folder, ignore_errors=True)


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


# A request as it came: its header, its program's two parts, when it came.
Request = tuple[dict[str, Any], list[bytes], float]


class Zygote:
    """A forked server that imported one module: requests for it and the modules below it
    go there."""

    def __init__(self, pid: int, send: int, inbox: Inbox, deadline: float) -> None:
        self.pid, self.send, self.inbox, self.deadline = pid, send, inbox, deadline
        self.ready = False
        self.used = time.monotonic()
        # What its own import loaded (past what its parent had): path -> (time, size).
        self.files: dict[str, list[int]] = {}
        self.waiting: list[Request] = []  # until it is ready
        self.forwarded: dict[int, Request] = {}


def end(zygotes: list[Zygote]) -> None:
    """Ends ``zygotes`` and waits for them: one that is serving sees its input end, kills its
    children and waits for them (killed, it would leave them running); one still importing
    is killed."""
    for zygote in zygotes:
        os.close(zygote.send)
        if not zygote.ready:
            kill(zygote.pid)
    deadline = time.monotonic() + DRAIN_S
    for zygote in zygotes:
        while os.waitpid(zygote.pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                kill(zygote.pid)
                os.waitpid(zygote.pid, 0)
                break
            time.sleep(0.01)
