"""A fork server for read-only programs: one sandbox per command, a forked child per program.

Each probe of the project's code (``call_probe``) used to start bubblewrap and a
fresh interpreter, which then imported the project's module: about 95 of the 125
CPU ms of a ``sample_data`` run on click. While a workspace has no change, a
program that only observes (:func:`remora.code.probes.sandboxed.run_program` with
``read_only``) now goes to a long-lived server instead: ``python -c`` with
:mod:`remora.sandbox.fork_server_main` in the same sandbox as run_command's
read-only mode (the live project read-only, its own writable folder, no network,
its own PID namespace, the same minimal environment). Per request it forks a
child that runs the program as ``python -`` would, in a session of its own with
its own ``HOME`` and ``TMPDIR``; past its time limit the child's process group is
killed and the answer is run_command's timed-out result (exit status 124, the
same note). A request naming a module goes to that module's zygote, a process
that imported it once (forked from the zygote of its package, which imported the
package once for all its modules), so its probes skip the import. No program runs
in a process another program ran in: what one probe changes (module globals,
monkeypatches, files in its folders) never reaches the next.

One server per project and event loop serves all the command's runs, many
requests at once. One that dies is started afresh and the requests it held sent
again (once; then they take run_command's path). :func:`close_fork_servers` ends
them when the command ends (``SandboxRuntime.close``, in the coordinator's
``aclose``), or else when the loop shuts down: input closed, the sandbox gone
with its last process, the folder removed; any left at interpreter exit are
killed. Where no sandbox can be created, or the workspace has changes,
run_command's per-process path is taken, exactly as before.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import itertools
import json
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from remora.sandbox.commands import (
    MAX_OUTPUT_BYTES,
    command_env,
    command_folder,
    output_text,
    read_only_mounts,
    run_command,
)
from remora.sandbox.ending import end_sandbox, start_in_group, wait_ended
from remora.sandbox.fork_server_child import frame
from remora.sandbox.isolation import bwrap_argv, find_sandbox_problem
from remora.sandbox.project_metadata import metadata_path

if TYPE_CHECKING:
    from remora.workspace import Workspace

__all__ = ["ForkServer", "ServerGone", "close_fork_servers", "run_read_only_python"]

# Past a request's own limit: the server did not answer, it is stuck (killed).
GRACE_S = 10.0
# How long a closing server may take to end its children and exit.
CLOSE_S = 5.0
_KEEP_ERRORS = 4096
# A zygote that served no probe for this long ends (its module's next probe imports it
# again): a large project's packages would otherwise keep one per module they ever probed.
ZYGOTE_IDLE_S = 30.0
_NONE_DROPPED = {"out_dropped": 0, "err_dropped": 0}


class ServerGone(Exception):
    """The fork server ended (or was killed) before it answered."""


@dataclass(frozen=True)
class Answer:
    """A child's end as the server reported it, and its output."""

    header: dict[str, Any]
    stdout: bytes
    stderr: bytes


@functools.cache
def server_text() -> str:
    """The server's program: the child's part first (it holds ``__future__``), then the loop."""
    here = resources.files("remora.sandbox")
    child, *rest = (
        here.joinpath(f"fork_server_{part}.py").read_text("utf-8")
        for part in ("child", "runs", "main")
    )
    later = (text.replace("from __future__ import annotations", "") for text in rest)
    return "\n".join([child, *later]) + "\n"


class ForkServer:
    """One sandboxed server for ``ws``'s project; :meth:`start` it, then :meth:`run` programs."""

    def __init__(self, ws: Workspace) -> None:
        self.base = command_folder("remora-fork-")
        self.project = self.base / "project"
        self.proc: asyncio.subprocess.Process | None = None
        self.waiting: dict[int, asyncio.Future[Answer]] = {}
        self.ids = itertools.count(1)
        self.tasks: list[asyncio.Task[None]] = []
        self.errors = bytearray()  # the tail of the server's own stderr, for a death's report
        self.gone = False
        self._mounts = read_only_mounts(ws, self.project)
        self._read = ws.read

    async def start(self) -> ForkServer:
        home, tmp = self.base / "home", self.base / "tmp"
        for folder in (home, tmp, self.project):  # the project's: a mount point
            folder.mkdir()
        bwrap = shutil.which("bwrap") or "bwrap"
        code = f"{server_text()}\nserve({str(self.base)!r}, {ZYGOTE_IDLE_S!r})\n"
        argv = bwrap_argv(
            bwrap, self.base, sys.executable, ["-c", code], self.project, self._mounts
        )
        _LIVE[id(self)] = self
        self.proc = await start_in_group(
            argv,
            self.base,
            cwd=self.project,
            env=command_env(home, tmp, metadata_path(self._read, home)),
            stdin=subprocess.PIPE,
        )
        self.tasks = [asyncio.create_task(self._answers()), asyncio.create_task(self._errors())]
        return self

    async def _answers(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while True:
                size = int.from_bytes(await out.readexactly(4), "big")
                header = json.loads(await out.readexactly(size))
                blobs = [await out.readexactly(n) for n in header["sizes"]]
                future = self.waiting.pop(int(header["id"]), None)
                if future is not None and not future.done():
                    future.set_result(Answer(header, *blobs))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # it ended
        finally:
            self.gone = True
            why = self.errors.decode("utf-8", "replace").strip()[-500:]
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ServerGone(f"the fork server ended: {why}"))
            self.waiting.clear()

    async def _errors(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while chunk := await self.proc.stderr.read(1 << 16):
            self.errors += chunk
            del self.errors[:-_KEEP_ERRORS]

    async def run(
        self,
        program: tuple[bytes, bytes],
        timeout_s: float,
        caps: tuple[int, int],
        module: str | None = None,
        paths: Sequence[str] = (),
    ) -> Answer:
        """The end of ``program`` (a prelude the server compiles once, and the rest) in a
        forked child, within ``timeout_s``; ``caps``: the stdout and stderr bytes kept.
        Raises :class:`ServerGone`, or TimeoutError when the server hangs."""
        if self.gone or self.proc is None or self.proc.stdin is None:
            raise ServerGone("the fork server ended")
        request_id = next(self.ids)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        header = {
            "op": "run",
            "id": request_id,
            "timeout_s": timeout_s,
            "out_cap": caps[0],
            "err_cap": caps[1],
            "module": module,
            "paths": list(paths),
        }
        try:
            self.proc.stdin.write(frame(header, *program))
            await self.proc.stdin.drain()
            return await asyncio.wait_for(future, timeout_s + GRACE_S)
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise ServerGone(f"the fork server ended: {exc}") from exc
        except asyncio.CancelledError:
            if not self.gone and not self.proc.stdin.is_closing():
                self.proc.stdin.write(frame({"op": "cancel", "id": request_id}))
            raise
        finally:
            self.waiting.pop(request_id, None)

    async def close(self) -> None:
        """Ends the server and its children, and removes its folder."""
        proc = self.proc
        try:
            if proc is not None:
                if proc.stdin is not None:
                    proc.stdin.close()  # the server kills its children and exits
                if not await wait_ended(proc, CLOSE_S):
                    end_sandbox(proc.pid, self.base)
                    await wait_ended(proc, CLOSE_S)
            # Its readers end with it; asyncio.run may have cancelled them already.
            await asyncio.gather(*self.tasks, return_exceptions=True)
        finally:
            if proc is None or proc.returncode is not None:  # else the exit hook kills it
                _LIVE.pop(id(self), None)
            self.gone = True
            await asyncio.to_thread(shutil.rmtree, self.base, True)

    def kill_now(self) -> None:
        """At interpreter exit, without an event loop: the sandbox killed, the folder removed."""
        if self.proc is not None and self.proc.returncode is None:
            end_sandbox(self.proc.pid, self.base)
        shutil.rmtree(self.base, ignore_errors=True)


_SERVERS: dict[tuple[asyncio.AbstractEventLoop, Path], ForkServer] = {}
_LOCKS: dict[tuple[asyncio.AbstractEventLoop, Path], asyncio.Lock] = {}
_GUARDS: dict[asyncio.AbstractEventLoop, AsyncGenerator[None]] = {}
_LIVE: dict[int, ForkServer] = {}  # every started server, for the exit hook


@atexit.register
def _kill_left() -> None:
    for server in list(_LIVE.values()):
        server.kill_now()
    _LIVE.clear()


async def _loop_guard(loop: asyncio.AbstractEventLoop) -> AsyncGenerator[None]:
    """Closes the loop's servers when the loop shuts its async generators down (asyncio.run
    does, before it closes the loop): a caller without a coordinator leaves none running."""
    try:
        yield
    finally:
        _GUARDS.pop(loop, None)
        await close_fork_servers()


async def _server(ws: Workspace) -> ForkServer:
    """This loop's server for ``ws``'s project, started (again, if it died) when needed."""
    loop = asyncio.get_running_loop()
    if loop not in _GUARDS:
        _GUARDS[loop] = guard = _loop_guard(loop)
        await anext(guard)
    key = (loop, ws.project_root)
    async with _LOCKS.setdefault(key, asyncio.Lock()):
        server = _SERVERS.get(key)
        if server is not None and server.gone:
            await server.close()
            server = None
        if server is None:
            server = _SERVERS[key] = await ForkServer(ws).start()
        return server


async def close_fork_servers() -> None:
    """Ends the running event loop's servers (at the end of a command)."""
    loop = asyncio.get_running_loop()
    for key in [key for key in _SERVERS if key[0] is loop]:
        _LOCKS.pop(key, None)
        await _SERVERS.pop(key).close()


def _result(
    answer: Answer, project: Path, timeout_s: float, chars: int, started: float
) -> dict[str, Any]:
    """run_command's result dict, from a server's answer."""
    head = answer.header
    err = output_text(answer.stderr, project, int(head["err_dropped"]))
    if head["timed_out"]:
        err += f"\n[remora] command killed after {timeout_s:g}s (command timeout)"
    return {
        "stdout": output_text(answer.stdout, project, int(head["out_dropped"]), chars),
        "stderr": err,
        "exit_code": int(head["exit_code"]),
        "timed_out": bool(head["timed_out"]),
        "changed_files": [],
        "duration_s": round(time.monotonic() - started, 3),
        "sandboxed": True,
    }


async def run_read_only_python(
    ws: Workspace,
    program: bytes,
    timeout_s: float,
    *,
    allow_unsandboxed: bool = False,
    stdout_chars: int,
    module: str | None = None,
    paths: Sequence[str] = (),
    prelude: bytes = b"",
) -> dict[str, Any]:
    """``python -`` with ``prelude + program`` on its input, seeing the project read-only:
    run_command's result (``read_only=True``, nothing absorbed), from a fork server where
    one can serve.

    ``module`` (with ``paths`` first on ``sys.path``): what the program will import, so
    a zygote imports it once for every program that names it. ``prelude``: the part many
    programs share, compiled once by the server (``program`` is compiled on its own,
    its lines numbered after the prelude's: no ``__future__`` import of the prelude's
    applies to it).
    """
    if not ws.overlay_rows() and await find_sandbox_problem() is None:
        started = time.monotonic()
        caps = (4 * stdout_chars, MAX_OUTPUT_BYTES)  # as run_command keeps them
        for _ in range(2):  # a server that died is started afresh, once
            server = await _server(ws)
            try:
                answer = await server.run((prelude, program), timeout_s, caps, module, paths)
            except ServerGone:
                continue
            except TimeoutError:  # no answer long past the limit: the server is stuck
                await server.close()
                answer = Answer({"timed_out": True, "exit_code": 124} | _NONE_DROPPED, b"", b"")
            return _result(answer, server.project, timeout_s, stdout_chars, started)
    return await run_command(
        ws,
        ["python", "-"],
        timeout_s,
        allow_unsandboxed=allow_unsandboxed,
        input_data=prelude + program,
        absorb=False,
        read_only=True,
        stdout_chars=stdout_chars,
    )
