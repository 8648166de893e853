"""The fork server's parts: the frames both ends speak, and what its forked processes run
(a program as ``python -`` would, a zygote's import).

Sent before :mod:`remora.sandbox.fork_server_main` in the same ``python -c`` text;
standard library only. Remora imports only :func:`frame` from it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import struct
import sys
import types
from typing import Any

_HEAD = struct.Struct(">I")
CHUNK = 1 << 16


def kill(pid: int) -> None:
    """SIGKILL to ``pid``'s process group (its session), and to it before it made one."""
    for killer in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError):
            killer(pid, signal.SIGKILL)


def frame(header: dict[str, Any], *blobs: bytes) -> bytes:
    """One frame: ``header`` (with the blobs' sizes) and the blobs."""
    data = json.dumps({**header, "sizes": [len(b) for b in blobs]}).encode()
    return b"".join([_HEAD.pack(len(data)), data, *blobs])


class Inbox:
    """Frames read from a non-blocking pipe, as they complete."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = bytearray()
        self.closed = False
        os.set_blocking(fd, False)

    def read(self) -> list[tuple[dict[str, Any], list[bytes]]]:
        try:
            chunk = os.read(self.fd, CHUNK)
        except BlockingIOError:
            return []
        if not chunk:
            self.closed = True
        self.data += chunk
        frames = []
        while len(self.data) >= _HEAD.size:
            (size,) = _HEAD.unpack_from(self.data)
            if len(self.data) < _HEAD.size + size:
                break
            header = json.loads(bytes(self.data[_HEAD.size : _HEAD.size + size]))
            end = _HEAD.size + size + sum(header["sizes"])
            if len(self.data) < end:
                break
            at, blobs = _HEAD.size + size, []
            for length in header["sizes"]:
                blobs.append(bytes(self.data[at : at + length]))
                at += length
            del self.data[:end]
            frames.append((header, blobs))
        return frames


class _ImportTimeout(Exception):
    pass


def _on_alarm(_signum: int, _frame: types.FrameType | None) -> None:
    raise _ImportTimeout


def preload(module: str, paths: list[str], limit: float) -> dict[str, list[int]] | None:
    """Imports ``module`` as a probe would (``paths`` first), within ``limit`` seconds: the
    project's files this import loaded (not those loaded before it, in a zygote above),
    with their times and sizes. None when it failed, or when it started a thread: a forked
    child would have none of its threads, a probe's import would."""
    import importlib

    if sys.path[: len(paths)] != paths:  # a zygote above put them there already
        sys.path[:0] = paths
    before = set(sys.modules)
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        importlib.import_module(module)
    except BaseException:  # the module's own failure: each child meets it again itself
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    if len(os.listdir("/proc/self/task")) > 1:
        return None
    return loaded_files(set(sys.modules) - before)


def loaded_files(names: set[str]) -> dict[str, list[int]]:
    """The project's files among the modules ``names`` (the project is the working folder)."""
    project = os.getcwd() + os.sep
    found = {}
    for loaded in [sys.modules[name] for name in names if name in sys.modules]:
        name = getattr(loaded, "__file__", None)
        path = os.path.abspath(name) if isinstance(name, str) else ""
        if path.startswith(project) and os.path.isfile(path):
            found[path] = stamp(path)
    return found


def stamp(path: str) -> list[int]:
    """What tells a file's change: its time and size (none when it is gone)."""
    try:
        status = os.stat(path)
    except OSError:
        return []
    return [status.st_mtime_ns, status.st_size]


def child(
    program: bytes,
    pipes: tuple[int, int, int],
    folder: str,
    prelude: tuple[bytes, types.CodeType | None],
) -> None:
    """Runs the prelude's text then ``program`` as ``python -`` would run them as one text,
    in this forked process (the prelude's code compiled already, or None); never returns.

    ``pipes``: its standard output, standard error and a status pipe, where its exit status
    goes once its output is flushed, before the process is torn down (~2 ms for a zygote
    that imported SQLAlchemy), so the server answers without waiting for that."""
    status = _become_program(pipes, folder)
    _run(program, status, prelude)


def waiting(
    go: int,
    pipes: tuple[int, int, int],
    folder: str,
    compiled: dict[bytes, types.CodeType],
) -> None:
    """A child forked before its request came (the fork is off the request's path): set
    up as :func:`child`, it waits for one frame on ``go`` (the prelude and the program)
    and runs it; never returns. At the end of ``go`` without one (the server ended, or
    dropped it), it exits."""
    status = _become_program(pipes, folder)
    inbox = Inbox(go)
    os.set_blocking(go, True)
    while not inbox.closed:
        for _, (text, program) in inbox.read():
            _run(program, status, (text, compiled.get(text)))
    os._exit(0)


def _become_program(pipes: tuple[int, int, int], folder: str) -> tuple[int, int]:
    """This process as a program's: its own session, output on the pipes, ``HOME`` and
    ``TMPDIR`` in ``folder``, a fresh ``__main__``; the status pipe and its inode."""
    out, err, status = pipes
    status_inode = os.fstat(status).st_ino
    os.setsid()
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.close(out)
    os.close(err)
    os.environ["HOME"] = os.path.join(folder, "home")
    os.environ["TMPDIR"] = os.path.join(folder, "tmp")
    if "tempfile" in sys.modules:
        # Cached from the zygote's TMPDIR, if its import asked.
        sys.modules["tempfile"].tempdir = None  # type: ignore[attr-defined]
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__="<stdin>", __cached__=None, __loader__=None, __spec__=None)
    sys.modules["__main__"] = main
    return status, status_inode


def _run(
    program: bytes, status: tuple[int, int], prelude: tuple[bytes, types.CodeType | None]
) -> None:
    main = sys.modules["__main__"]
    code = 0
    try:
        text, compiled = prelude
        # Numbered as in the whole text (blank lines in place of the prelude's), and
        # compiled first: a text that does not compile runs nothing.
        rest = compile(b"\n" * text.count(b"\n") + program, "<stdin>", "exec")
        if text:
            exec(compiled or compile(text, "<stdin>", "exec"), main.__dict__)
        exec(rest, main.__dict__)
    except SystemExit as exc:
        code = _exit_status(exc)
    except BaseException as exc:
        # As the interpreter reports it, less this function's own frame.
        exc.__traceback__ = exc.__traceback__.tb_next if exc.__traceback__ else None
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code = 1
    code = _finalize(code)
    _report(*status, code)
    os._exit(code)


def _report(status: int, inode: int, code: int) -> None:
    """Writes ``code`` on the status pipe and closes the output pipes: unless the program
    closed that descriptor (or another file took its number), then the exit tells."""
    with contextlib.suppress(OSError):
        if os.fstat(status).st_ino == inode:
            os.close(1)
            os.close(2)
            os.write(status, bytes([code & 0xFF]))


def _exit_status(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return 1


def _finalize(code: int) -> int:
    """What the interpreter does at exit: threads joined, atexit functions run, output flushed."""
    import atexit

    threading = sys.modules.get("threading")
    try:
        if threading is not None:
            threading._shutdown()
        atexit._run_exitfuncs()
    except SystemExit as exc:
        code = _exit_status(exc)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    return code
