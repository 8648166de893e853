"""One host process of a sharded ``remora analyze``.

``python -m remora.coordinator.shard_child SPEC``: SPEC is a pickled
:class:`~remora.coordinator.shards.ShardSpec` the parent wrote
(:mod:`remora.coordinator.shard_parent`). The process runs the normal coordinator on its
nodes with its share of ``-j``, taking each server's slots from those all the processes
share, in the run the parent started, and tells the parent what happens as JSON lines on
the pipe ``spec.progress_fd``: ``ready`` (a SIGINT now stops it cleanly; before, the
interpreter would print a traceback), ``run`` (a task started), ``done`` (its outcome),
``servers`` (the servers' states, every second), ``more`` (its queue ran dry: the parent
answers on stdin with the next file of ``spec.pool_nodes`` to run, or none), then
``end`` or ``error`` (a RemoraError, such as a model that is not available). Its stderr
goes to the parent, which shows it; nothing else is printed.

SIGINT (the parent forwarding Ctrl-C) stops it as it stops ``remora analyze``:
unfinished runs discarded, finished ones recorded; exit 130. When the parent
goes away (its end of stdin closes, or the pipe breaks) the process interrupts
itself, so no shard outlives its parent.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import sys
import threading
import traceback
import warnings
from pathlib import Path
from typing import Any, NoReturn

from remora.agents import AgentRegistry
from remora.config import ModelConfig
from remora.config.loading import LoadedConfig
from remora.coordinator.batch import Coordinator
from remora.coordinator.main_loop import run_main
from remora.coordinator.provider_pool import ProviderFactory
from remora.coordinator.report import ProgressSink, TaskOutcome
from remora.coordinator.shards import ShardSpec, jobs_per_process, nodes_by_file
from remora.discovery.node import CSTNode
from remora.errors import RemoraError
from remora.events import EventEmitter, build_emitter
from remora.providers.base import Provider
from remora.providers.shared_slots import SharedSlots, join_slots, slot_keys

__all__ = ["Channel", "ChannelProgress", "Parent", "main", "shard_coordinator", "shared_limits"]


class Channel:
    """JSON lines to the parent on a pipe; a broken pipe (the parent gone) interrupts us."""

    def __init__(self, fd: int) -> None:
        # Not passed on to the programs this process starts (Monty's workers, ruff): the
        # parent's end must see EOF when this process ends, however it ends.
        os.set_inheritable(fd, False)
        self._fd: int | None = fd
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message, default=str, separators=(",", ":")) + "\n").encode()
        with self._lock:
            if self._fd is None:
                return
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(self._fd, view) :]
            except BrokenPipeError:
                self._fd = None
                os.kill(os.getpid(), signal.SIGINT)

    def servers(self, states: list[dict[str, Any]], running: bool) -> None:
        self.send({"t": "servers", "states": states, "running": running})

    def close(self) -> None:
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


class ChannelProgress:
    """The coordinator's progress, sent to the parent (which draws the one bar)."""

    def __init__(self, channel: Channel, details: bool = True) -> None:
        self._channel = channel
        self._details = details

    def started(self, total: int) -> None:
        self._channel.send({"t": "total", "tasks": total})

    def task_started(self, node: CSTNode, operation: str) -> None:
        self._channel.send({"t": "run", "node": node.node_id, "op": operation})

    def task_done(self, outcome: TaskOutcome) -> None:
        sent = outcome if self._details else outcome.without_details()
        self._channel.send({"t": "done", "outcome": sent.to_dict()})

    def finished(self) -> None:
        return None


def shared_limits(slots: dict[str, SharedSlots]) -> ProviderFactory:
    """A provider factory whose servers take their slots from ``slots``, which this process
    shares with the others of the run: each server's ``max_in_flight`` holds in total."""
    from remora.providers.factory import create_provider  # adapters import lazily
    from remora.providers.openai_compat import OpenAIProvider

    def create(model: ModelConfig, profile: str | None) -> Provider:
        provider = create_provider(model, profile)
        if isinstance(provider, OpenAIProvider):
            for server, key in zip(provider.router.servers, slot_keys(model), strict=True):
                server.slots = slots[key]
        return provider

    return create


class Parent:
    """The parent's side of stdin (a pipe from it): the files it hands this process, a JSON
    line each (``{"files": [...]}``, none left when empty), asked for with ``more`` on the
    channel. When it closes (the parent went away) this process interrupts itself."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: tuple[asyncio.AbstractEventLoop, asyncio.Future[list[str]]] | None = None

    def watch(self) -> None:
        threading.Thread(target=self._read, name="remora-parent-watch", daemon=True).start()

    def _read(self) -> None:
        pending = b""
        try:
            while chunk := os.read(0, 65536):
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    self._answer(json.loads(line)["files"])
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGINT)

    def _answer(self, files: list[str]) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, None
        if waiting is not None:  # a reply is only sent to a question: one is waiting
            loop, future = waiting
            loop.call_soon_threadsafe(_settle, future, files)

    async def files(self, channel: Channel) -> list[str]:
        """The next files the parent hands this process; none: there are no more."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[str]] = loop.create_future()
        with self._lock:
            self._waiting = (loop, future)
        channel.send({"t": "more"})
        return await future


def _settle(future: asyncio.Future[list[str]], files: list[str]) -> None:
    if not future.done():  # not cancelled meanwhile (an interrupt)
        future.set_result(files)


def shard_coordinator(
    loaded: LoadedConfig,
    spec: ShardSpec,
    emitter: EventEmitter,
    progress: ProgressSink,
) -> Coordinator:
    """The coordinator of ``spec``'s shard: its share of ``-j`` and of the sandbox's workers,
    each server's slots shared with the other processes. ``loaded.config`` is changed: give
    it a copy."""
    config = loaded.config
    config.sandbox.max_concurrent_agents = spec.jobs
    if config.sandbox.workers is not None:  # a limit on Monty workers holds in total too
        config.sandbox.workers = jobs_per_process(config.sandbox.workers, spec.count)
    root = loaded.project_root
    coordinator = Coordinator(
        config,
        root,
        registry=AgentRegistry(config.agents_dir, project_root=root),
        emitter=emitter,
        provider_factory=shared_limits(join_slots(spec.slots, spec.index)),
        progress=progress,
    )
    coordinator.keep_outcomes = False  # each went to the parent as it ended
    return coordinator


async def _run(spec: ShardSpec, channel: Channel, parent: Parent) -> bool:
    # A SIGINT from now on stops it cleanly: asyncio.run's handler cancels this task. One
    # while asyncio.run was still making its loop left a traceback on stderr.
    channel.send({"t": "ready"})
    config = spec.loaded.config
    emitter = build_emitter(
        config.events.enabled, spec.events_output, config.events.max_payload_chars
    )
    progress = ChannelProgress(channel, spec.details)
    coordinator = shard_coordinator(spec.loaded, spec, emitter, progress)
    coordinator.publish_states = channel.servers
    pool = nodes_by_file(spec.pool_nodes)

    async def more() -> list[CSTNode]:
        return [node for path in await parent.files(channel) for node in pool[path]]

    coordinator.more = more
    try:
        async with coordinator:
            await coordinator.analyze(
                spec.nodes, spec.operations, only=spec.only, force=spec.force, run_id=spec.run_id
            )
    finally:
        emitter.close()
    return coordinator.sandbox_faulted


def _show_warning(message: Any, *args: object, **kwargs: object) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def _ending() -> None:
    """The shard is done: a SIGINT now (the parent stopping the others at an error) must
    not cut the last message short."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv: list[str]) -> NoReturn:
    """Run the shard described by the file ``argv[0]``; exit 0, 130 (interrupted), a
    RemoraError's exit code, or 1 with a traceback on stderr (a bug)."""
    code = 1
    channel: Channel | None = None
    try:
        # The parent forwards Ctrl-C as SIGINT, whatever this process inherited (a shell
        # starts a background job with SIGINT ignored).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        parent = Parent()
        parent.watch()
        spec: ShardSpec = pickle.loads(Path(argv[0]).read_bytes())
        channel = Channel(spec.progress_fd)
        warnings.showwarning = _show_warning
        faulted = run_main(_run(spec, channel, parent))
        _ending()
        channel.send({"t": "end", "faulted": faulted})
        code = 0
    except KeyboardInterrupt:
        code = 130
    except RemoraError as exc:
        _ending()
        if channel is not None:
            channel.send({"t": "error", **exc.to_dict()})
        code = exc.exit_code
    except BaseException:  # a bug: the parent shows this and fails the shard's runs
        traceback.print_exc()
    finally:
        if channel is not None:
            channel.close()
        sys.stdout.flush()
        sys.stderr.flush()
    # Not a normal exit: Monty's runtime threads can abort the interpreter's shutdown
    # after a tool hit a limit (docs/architecture.md); everything is recorded by now.
    os._exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
