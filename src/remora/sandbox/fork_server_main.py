"""The fork server's own program: sent as text and run as ``python -c`` inside the sandbox.

Standard library only, never imported by Remora (see :mod:`remora.sandbox.fork_server`).
It reads requests on standard input and answers on standard output, as frames:
a 4-byte length, a JSON header, then the byte strings the header's ``sizes`` give.

* ``{"op": "run", "id", "timeout_s", "out_cap", "err_cap", "module", "paths"}`` +
  a prelude (compiled once per server and text) and the rest of the program
  (compiled in the child, lines numbered after the prelude's): a child is forked
  (its own session, standard output and error on pipes, its own ``HOME`` and
  ``TMPDIR``) that runs the program as ``python -`` would, and the answer is
  ``{"id", "exit_code", "timed_out", "out_dropped", "err_dropped"}`` + its
  output, sent once its output pipes end and its exit status is known: the child
  writes it on a status pipe just before it exits, so the answer does not wait for
  the process's teardown (waited for after); past ``timeout_s`` its process group
  is killed.
* ``{"op": "cancel", "id"}``: that child is killed.
* end of input: every child is killed and the server exits.

With ``module``, the request goes to a zygote: a forked server that imported that
module (``paths`` first on ``sys.path``) under the request's time limit, and forks
its probe children from there, so they skip the import. A zygote forks the child for
its next request as soon as it hands one out (``Server.spare``: set up, waiting on a pipe
for its program), so that fork is off the request's path. Zygotes form a tree by the
module's dotted name: the server's zygote for ``pkg`` imported ``pkg``, and forks the
zygote for ``pkg.sub`` (which then imports only ``pkg.sub``), which forks the one for
``pkg.sub.mod`` -- the order in which a fresh ``import pkg.sub.mod`` runs them; a
module its package imported itself is probed from the package's zygote. A
package's modules share its import: SQLAlchemy's costs ~0.45 s, each of its modules
after it 0-0.26 s, where each module's zygote importing all of it took 0.5-0.8 s. A
zygote whose import failed, hung or died leaves its requests to the server (or
zygote) above it: their children import the rest themselves, as a fresh interpreter
would. No zygote runs a program itself, so no child sees what another child changed.
One whose project files changed on disk since its import is replaced by a fresh
import; past ``_MAX_ZYGOTES`` below one server the least recently used idle one ends.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import sys
import time
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sent after these modules' texts (fork_server.server_text)
    from remora.sandbox.fork_server_child import (
        CHUNK,
        Inbox,
        child,
        frame,
        preload,
        stamp,
        waiting,
    )
    from remora.sandbox.fork_server_runs import DRAIN_S, Forked, Run, Zygote, end

# A zygote's import past its limit is stopped by its own alarm; this kills it otherwise.
_IMPORT_GRACE_S = 2.0
# Zygotes alive at once (each holds its own import of the project's modules): past it
# the least recently used idle one ends; with none idle, a request imports for itself.
_MAX_ZYGOTES = 8


def _imported(module: str) -> bool:
    """Whether ``module`` is imported in this process (None marks a failed import)."""
    return sys.modules.get(module) is not None


class Server:
    """Answers requests from ``inbox`` on ``outbox`` (both pipes), one child per request.

    ``top``: the server itself, whose interpreter's own modules are not the project's;
    else a zygote. ``idle_s``: a zygote below it that served nothing for that long ends
    (a new one imports its module again when asked): only the modules in use keep one.
    """

    def __init__(self, inbox: int, outbox: int, base: str, top: bool, idle_s: float) -> None:
        self.inbox = Inbox(inbox)
        self.outbox = outbox
        self.base = base
        self.top = top
        self.idle_s = idle_s
        self.zygotes: dict[tuple[str, tuple[str, ...]], Zygote | None] = {}
        self.runs: dict[int, Run] = {}  # by request id
        self.pending: dict[int, bytearray] = {}  # bytes not yet written, by fd
        self.selector = selectors.DefaultSelector()
        self.selector.register(inbox, selectors.EVENT_READ, ("inbox", None))
        os.set_blocking(outbox, False)
        self.count = 0
        self.compiled: dict[bytes, types.CodeType] = {}  # preludes, by their text
        self.spare: Forked | None = None  # a zygote's child forked ahead of its request

    # -------------------------------------------------------------- writing

    def send(self, fd: int, data: bytes) -> None:
        """Queues ``data`` for the non-blocking ``fd``: a reader that is itself writing to
        this server (a zygote's answers) never waits for it, nor it for the reader."""
        self.pending.setdefault(fd, bytearray()).extend(data)
        self.flush(fd)

    def flush(self, fd: int) -> None:
        buffered = self.pending[fd]
        try:
            while buffered:
                del buffered[: os.write(fd, buffered[:CHUNK])]
        except BlockingIOError:
            pass
        except BrokenPipeError:
            buffered.clear()
        watched = self.selector.get_map().get(fd) is not None
        if buffered and not watched:
            self.selector.register(fd, selectors.EVENT_WRITE, ("write", fd))
        elif not buffered and watched:
            self.selector.unregister(fd)

    # ------------------------------------------------------------- children

    def own_fds(self) -> list[int]:
        fds = [self.inbox.fd, self.outbox, self.selector.fileno()]
        for run in self.runs.values():
            fds += [run.pidfd, *run.open, *([] if run.status is None else [run.status])]
        for zygote in self.zygotes.values():
            if zygote is not None:
                fds += [zygote.send, zygote.inbox.fd]
        if self.spare is not None:
            fds += self.spare.fds()
        return fds

    def start(self, header: dict[str, Any], program: list[bytes]) -> None:
        prelude = self.compiled.get(program[0])
        if prelude is None and program[0]:
            with contextlib.suppress(SyntaxError, ValueError):  # the child meets it itself
                prelude = self.compiled[program[0]] = compile(program[0], "<stdin>", "exec")
        forked, self.spare = self.spare, None
        if forked is None or not forked.send(frame({}, *program)):
            forked = self.fork(
                lambda pipes, folder: child(program[1], pipes, folder, (program[0], prelude))
            )
        run = Run(header, forked.pid, forked.pipes, forked.status, forked.folder)
        self.runs[int(header["id"])] = run
        self.selector.register(run.pidfd, selectors.EVENT_READ, ("exit", run))
        self.selector.register(forked.status, selectors.EVENT_READ, ("status", run))
        for fd in run.order:
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_READ, ("output", run))
        if not self.top:  # a zygote's next request finds its child forked already
            self.spare = self.fork_spare()

    def fork_spare(self) -> Forked:
        go, send = os.pipe()
        compiled = self.compiled
        spare = self.fork(lambda pipes, folder: waiting(go, pipes, folder, compiled), send)
        os.close(go)
        spare.go = send
        return spare

    def fork(self, then: Callable[[tuple[int, int, int], str], None], *keep: int) -> Forked:
        """A child with its own folder and pipes (output, error, status) that runs ``then``;
        ``keep``: descriptors of this process the child closes too."""
        self.count += 1
        folder = os.path.join(self.base, f"run-{os.getpid()}-{self.count}")
        for name in ("home", "tmp"):
            os.makedirs(os.path.join(folder, name))
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        status_r, status_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                for fd in (*self.own_fds(), out_r, err_r, status_r, *keep):
                    os.close(fd)
                then((out_w, err_w, status_w), folder)
            finally:
                os._exit(70)
        for fd in (out_w, err_w, status_w):
            os.close(fd)
        return Forked(pid, (out_r, err_r), status_r, folder)

    def finish(self, run: Run) -> None:
        """Answers ``run`` once it can be, and forgets it once it is also waited for."""
        known = run.exit_code is not None or run.reported is not None
        if not run.answered and known and not run.open:
            run.answered = True
            self.send(self.outbox, run.answer())
        if run.answered and run.exit_code is not None:
            del self.runs[int(run.header["id"])]
            os.close(run.pidfd)
            self.close_status(run)
            shutil.rmtree(run.folder, ignore_errors=True)

    def close_status(self, run: Run) -> None:
        if run.status is not None:
            self.selector.unregister(run.status)
            os.close(run.status)
            run.status = None

    def read_status(self, run: Run) -> None:
        """The exit status the child wrote before exiting (nothing: it died first)."""
        if run.status is None:  # forgotten earlier in the same wake-up, its exit seen first
            return
        written = os.read(run.status, 1)
        self.close_status(run)
        if written and not run.timed_out:
            run.reported = written[0]
            self.finish(run)

    def close_stream(self, run: Run, fd: int) -> None:
        self.selector.unregister(fd)
        os.close(fd)
        run.open.discard(fd)
        self.finish(run)

    def exited(self, run: Run) -> None:
        self.selector.unregister(run.pidfd)
        _, status = os.waitpid(run.pid, 0)
        run.exit_code = os.waitstatus_to_exitcode(status)
        run.kill()  # what it left behind in its group
        run.deadline = time.monotonic() + DRAIN_S
        self.finish(run)

    # -------------------------------------------------------------- zygotes

    def route(self, header: dict[str, Any], program: list[bytes], arrived: float) -> None:
        parts = str(header.get("module") or "").split(".")
        # The zygote below imports the first part of the name not yet imported here (the
        # top server imports none): a package that imported its module itself forks that
        # module's probes, as a fresh import of it would find it imported by the package.
        known = 0  # the leading parts imported here
        while not self.top and known < len(parts) and _imported(".".join(parts[: known + 1])):
            known += 1
        if not parts[0] or known >= len(parts):
            self.start(header, program)  # no module, or this zygote has it: a child of it
            return
        key = (".".join(parts[: known + 1]), tuple(header.get("paths") or ()))
        old = self.zygotes.get(key)
        if old is not None and old.ready and any(stamp(f) != t for f, t in old.files.items()):
            self.drop(old)  # what it imported changed: a fresh one imports it as it is now
            del self.zygotes[key]
        if key not in self.zygotes and self.room():
            self.zygotes[key] = self.spawn(key, float(header["timeout_s"]))
        zygote = self.zygotes.get(key)
        if zygote is None:
            self.start(header, program)
        elif zygote.ready:
            self.forward(zygote, header, program, arrived)
        else:
            zygote.waiting.append((header, program, arrived))

    def room(self) -> bool:
        """Whether a zygote may start: fewer than the most, or an idle one ended for it."""
        alive = [(z.used, k, z) for k, z in self.zygotes.items() if z is not None]
        if len(alive) < _MAX_ZYGOTES:
            return True
        idle = [entry for entry in alive if entry[2].ready and not entry[2].forwarded]
        if not idle:
            return False
        _, key, zygote = min(idle)
        self.retire(key, zygote)
        return True

    def retire(self, key: tuple[str, tuple[str, ...]], zygote: Zygote) -> None:
        """Ends an idle zygote; its module gets a new one when it is asked for again."""
        self.drop(zygote)
        del self.zygotes[key]

    def ends(self, zygote: Zygote) -> float | None:
        """When ``zygote`` ends unless something happens first: its import's deadline, or
        its time unused; None while it serves a request."""
        if not zygote.ready:
            return zygote.deadline
        return None if zygote.forwarded else zygote.used + self.idle_s

    def forward(
        self, zygote: Zygote, header: dict[str, Any], program: list[bytes], arrived: float
    ) -> None:
        """To ``zygote``, with the time the request has left."""
        zygote.used = time.monotonic()
        left = float(header["timeout_s"]) - (time.monotonic() - arrived)
        zygote.forwarded[int(header["id"])] = (header, program, arrived)
        self.send(zygote.send, frame({**header, "timeout_s": max(left, 0.001)}, *program))

    def spawn(self, key: tuple[str, tuple[str, ...]], limit: float) -> Zygote:
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                for fd in (*self.own_fds(), down_w, up_r):
                    os.close(fd)
                os.setsid()
                files = preload(key[0], list(key[1]), limit)
                os.write(up_w, frame({"ready": files is not None, "files": files}))
                if files is not None:
                    Server(down_r, up_w, self.base, top=False, idle_s=self.idle_s).serve()
            finally:
                os._exit(0)
        os.close(down_r)
        os.close(up_w)
        os.set_blocking(down_w, False)
        zygote = Zygote(pid, down_w, Inbox(up_r), time.monotonic() + limit + _IMPORT_GRACE_S)
        self.selector.register(up_r, selectors.EVENT_READ, ("zygote", zygote))
        return zygote

    def heard(self, zygote: Zygote) -> None:
        for header, blobs in zygote.inbox.read():
            if header.get("ready") is False:  # its import failed: it has exited
                self.drop(zygote)
                return
            if header.get("ready"):
                zygote.ready = True
                zygote.files = header["files"]
                waiting, zygote.waiting = zygote.waiting, []
                for request in waiting:
                    self.forward(zygote, *request)
            else:
                zygote.forwarded.pop(int(header["id"]), None)
                self.send(self.outbox, frame(header, *blobs))
        if zygote.inbox.closed:
            self.drop(zygote)

    def drop(self, zygote: Zygote) -> None:
        """A zygote that failed, hung or died: its requests run here, importing for themselves."""
        for key, value in self.zygotes.items():
            if value is zygote:
                self.zygotes[key] = None
        for fd in (zygote.inbox.fd, zygote.send):
            if self.selector.get_map().get(fd) is not None:
                self.selector.unregister(fd)
            self.pending.pop(fd, None)
        os.close(zygote.inbox.fd)
        end([zygote])
        for header, program, arrived in [*zygote.waiting, *zygote.forwarded.values()]:
            left = float(header["timeout_s"]) - (time.monotonic() - arrived)
            self.start({**header, "timeout_s": max(left, 0.001)}, program)

    # ----------------------------------------------------------------- loop

    def request(self, header: dict[str, Any], blobs: list[bytes]) -> None:
        if header["op"] == "run":
            self.route(header, blobs, time.monotonic())
            return
        if header["op"] != "cancel":
            raise ValueError(f"fork server: unknown request {header['op']!r}")
        run = self.runs.get(int(header["id"]))
        if run is not None:
            run.kill()
        for zygote in self.zygotes.values():
            if zygote is not None and int(header["id"]) in zygote.forwarded:
                self.send(zygote.send, frame(header))

    def serve(self) -> None:
        while not self.inbox.closed:
            now = time.monotonic()
            deadlines = [run.deadline for run in self.runs.values()]
            ends = [self.ends(z) for z in self.zygotes.values() if z is not None]
            deadlines += [t for t in ends if t is not None]
            wait = max(0.0, min(deadlines) - now) if deadlines else None
            for key, mask in self.selector.select(wait):
                kind, item = key.data
                if kind == "inbox":
                    for header, blobs in self.inbox.read():
                        self.request(header, blobs)
                elif kind == "write" and mask & selectors.EVENT_WRITE:
                    self.flush(item)
                elif kind == "output" and not item.take(key.fd):
                    self.close_stream(item, key.fd)
                elif kind == "status":
                    self.read_status(item)
                elif kind == "exit":
                    self.exited(item)
                elif kind == "zygote":
                    self.heard(item)
            self.expire(time.monotonic())
        self.shutdown()

    def expire(self, now: float) -> None:
        for run in list(self.runs.values()):
            if run.deadline > now:
                continue
            if run.exit_code is None:  # past its limit: killed, answered when reaped
                run.timed_out = not run.answered
                run.kill()
                # A finite wait: an infinite one is a timeout select() refuses (the
                # server died with every timed-out child); killed again if not reaped.
                run.deadline = now + DRAIN_S
            else:  # exited, but something it left holds its pipes
                for fd in list(run.open):
                    self.close_stream(run, fd)
        for key, zygote in list(self.zygotes.items()):
            ends = None if zygote is None else self.ends(zygote)
            if zygote is None or ends is None or ends > now:
                continue
            if zygote.ready:
                self.retire(key, zygote)
            else:  # its import hung past its limit
                self.drop(zygote)

    def shutdown(self) -> None:
        """Every child killed and every zygote ended, and all of them waited for: a process
        no one waits for is lost to the CPU accounts (getrusage) of those above it."""
        for run in self.runs.values():
            run.kill()
        for run in self.runs.values():
            os.waitpid(run.pid, 0)
        if self.spare is not None:
            self.spare.end()
        end([z for z in self.zygotes.values() if z is not None])


def serve(base: str, idle_s: float) -> None:
    """The server: the protocol on copies of standard input and output, which become null."""
    inbox, outbox = os.dup(0), os.dup(1)
    # As ``python -`` has them, for what a module's import reads.
    sys.argv, sys.orig_argv = ["-"], [sys.orig_argv[0], "-"]
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    Server(inbox, outbox, base, top=True, idle_s=idle_s).serve()
