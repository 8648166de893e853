"""The parent of a sharded ``remora analyze``: N shards, one run, one report, one bar.

The parent has discovered and planned (:func:`remora.coordinator.shards.plan_shards`);
here it starts the run in the results database, writes each other shard's spec to a
temp file, starts ``python -m remora.coordinator.shard_child SPEC`` for it (a
session of its own, so a terminal's Ctrl-C reaches the parent only, which
forwards it once), runs the first shard itself, and reads each child's pipe: tasks
started and their outcomes go to the one progress bar and into the report, the
servers' states into ``.remora/servers.json`` (merged), a child's stderr to
``on_stderr`` line by line. The files of the plan's pool are handed out one at a
time to the shard whose queue ran dry first (a child asks on its pipe and is
answered on its stdin), so the shards end together. The first shard runs here
rather than in a child of its own: N processes do host work, not N + 1 with one of
them waiting, and there is one interpreter fewer (its imports and its libraries'
pages, ~100 MB).

The report is the one a single process would give: every task once, in the
batch's order; ``--auto-accept`` runs here once every shard is done. A shard
that ends before its runs did (killed, crashed) leaves its finished runs
recorded; each of its other tasks becomes a failed result (SHARD_CRASHED) saying
so, and the other shards go on. A RemoraError in a shard (a model that is not
available) stops the others and is raised here, as the coordinator raises it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import pickle
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from remora.config.loading import LoadedConfig
from remora.coordinator.accepting import auto_accept as accept_changes
from remora.coordinator.report import AnalyzeReport, ProgressSink, TaskOutcome, outcome_from_dict
from remora.coordinator.server_states import merge_server_states, write_server_states
from remora.coordinator.shard_child import shard_coordinator
from remora.coordinator.shard_crash import crash_outcomes
from remora.coordinator.shards import FilePool, Shard, ShardPlan, ShardSpec
from remora.coordinator.tasks import Task
from remora.discovery.node import CSTNode
from remora.errors import RemoraError, error_for
from remora.events import Event, EventEmitter
from remora.providers.shared_slots import SlotPools, SlotsSpec
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

__all__ = ["forward_lines", "run_shards"]

# How long interrupted shards get to discard their unfinished runs before SIGKILL.
_INTERRUPT_WAIT_S = 60.0
# A progress line carries a whole outcome (its transcript included).
_LINE_LIMIT = 2**26
_STATES_EVERY_S = 1.0
# How long a shard's stderr is read after it ended (its own last lines are already there).
_DRAIN_S = 5.0
_SRC = str(Path(__file__).resolve().parents[2])  # the folder `remora` is imported from


@dataclass
class _Child:
    shard: Shard
    tasks: list[Task]
    process: asyncio.subprocess.Process | None = None  # None: the shard run in this process
    outcomes: dict[tuple[str, str], TaskOutcome] = field(default_factory=dict)
    states: list[dict[str, Any]] = field(default_factory=list)
    ready: bool = False  # its SIGINT handler is set: it stops cleanly at a SIGINT
    interrupt_when_ready: bool = False
    ended: bool = False
    error: dict[str, str] | None = None


def _child_env() -> dict[str, str]:
    """This environment, with the same ``remora`` first on the path (a checkout's src/)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_SRC, env.get("PYTHONPATH")) if p)
    return env


async def forward_lines(stream: asyncio.StreamReader, on_line: Callable[[str], None]) -> None:
    """A shard's stderr, line by line (a line may come in pieces, or end without a newline),
    until it closes: nothing is dropped."""
    pending = b""
    while chunk := await stream.read(65536):
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            on_line(line.decode(errors="replace"))
    if pending:
        on_line(pending.decode(errors="replace"))


class _Shards:
    def __init__(
        self,
        plan: ShardPlan,
        spec: Callable[[Shard, int, SlotsSpec], ShardSpec],
        progress: ProgressSink,
        on_stderr: Callable[[str], None],
        project_root: Path,
        emitter: EventEmitter,
    ) -> None:
        shard_of = {node.node_id: s.index for s in plan.shards for node in s.nodes}
        self.plan = plan
        self.children = [_Child(shard, []) for shard in plan.shards]
        self.pool = FilePool(plan)
        for task in plan.tasks:
            if task.node.node_id in shard_of:
                self.children[shard_of[task.node.node_id]].tasks.append(task)
        self.nodes = {task.node.node_id: task.node for task in plan.tasks}
        self._spec = spec
        self._progress = progress
        self._on_stderr = on_stderr
        self._root = project_root
        self._emitter = emitter
        self._states_changed = False
        self._supervisors: list[asyncio.Future[None]] = []
        self._here: asyncio.Future[None] | None = None
        self.arrived: list[TaskOutcome] = []  # every shard's outcomes, as they came
        self.faulted = False  # a tool script of the shard run here hit a limit

    async def start(self, folder: Path, slots: SlotPools) -> None:
        here, *others = self.children
        for child in others:
            read_fd, write_fd = os.pipe()
            path = folder / f"shard-{child.shard.index}.pickle"
            spec = self._spec(child.shard, write_fd, slots.spec)
            path.write_bytes(pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL))
            try:
                child.process = await asyncio.create_subprocess_exec(
                    *(sys.executable, "-m", "remora.coordinator.shard_child", str(path)),
                    stdin=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    pass_fds=(write_fd, *slots.spec.pass_fds()),
                    start_new_session=True,
                    env=_child_env(),
                )
            except BaseException:
                os.close(read_fd)
                raise
            finally:
                os.close(write_fd)  # the child's copy is the only writer: EOF when it ends
            supervising = self._supervise(child, read_fd, slots)
            self._supervisors.append(asyncio.ensure_future(supervising))
        self._here = asyncio.ensure_future(self._run_here(here, slots))
        self._supervisors.append(self._here)

    async def _run_here(self, child: _Child, slots: SlotPools) -> None:
        """The first shard, run by a coordinator in this process as a child runs its own."""
        spec = self._spec(child.shard, -1, slots.spec)
        copy = spec.loaded.config.model_copy(deep=True)  # the shard's shares are set in it
        loaded = dataclasses.replace(spec.loaded, config=copy)
        here = _Here(self, child, self._progress, spec.details)
        coordinator = shard_coordinator(loaded, spec, self._emitter, here)
        coordinator.publish_states = lambda states, running: self._got_states(child, states)

        async def more() -> list[CSTNode]:
            return self.pool.nodes(self.pool.hand_out(child.tasks))

        coordinator.more = more
        try:
            async with coordinator:
                await coordinator.analyze(
                    spec.nodes,
                    spec.operations,
                    only=spec.only,
                    force=spec.force,
                    run_id=spec.run_id,
                )
        except RemoraError as exc:  # as a child's: the others stop, then it is raised
            child.error = exc.to_dict()
            self._stop(signal.SIGINT)
        except Exception:  # a bug: the others stop, then it propagates
            self._stop(signal.SIGINT)
            raise
        finally:
            child.ended = True
            self.faulted = coordinator.sandbox_faulted

    async def run(self, folder: Path) -> None:
        models = (plan.model for plan in self.plan.plans.values() if plan.model is not None)
        slots = SlotPools.for_models(models, len(self.children), folder)
        states = asyncio.ensure_future(self._publish_states())
        try:
            await self.start(folder, slots)
            await asyncio.wait(self._supervisors)
        except BaseException:  # Ctrl-C (CancelledError), or a shard that could not start
            await self._interrupt()
            raise
        finally:
            slots.close()
            states.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await states
            if any(child.states for child in self.children):
                write_server_states(self._root, self._merged_states(), running=False)
        for supervisor in self._supervisors:
            if not supervisor.cancelled():  # the shard here, stopped by another's error
                supervisor.result()  # a bug in reading a shard, or in the shard here, propagates

    async def _interrupt(self) -> None:
        """Ctrl-C: each shard discards its unfinished runs and ends; SIGKILL after a wait."""
        self._stop(signal.SIGINT)
        if not self._supervisors:
            return
        _, pending = await asyncio.wait(self._supervisors, timeout=_INTERRUPT_WAIT_S)
        if pending:
            self._stop(signal.SIGKILL)
            await asyncio.wait(pending)

    def _stop(self, signum: int) -> None:
        """``signum`` to each child; the shard here is cancelled (it discards its unfinished
        runs as a child does at SIGINT). A child still importing gets its SIGINT once it
        says it is ready: before that, Python's own handler would print a traceback."""
        if self._here is not None and asyncio.current_task() is not self._here:
            self._here.cancel()
        for child in self.children:
            if signum == signal.SIGINT and not child.ready:
                child.interrupt_when_ready = True
            else:
                self._send(child, signum)

    @staticmethod
    def _send(child: _Child, signum: int) -> None:
        if child.process is not None and child.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                child.process.send_signal(signum)

    async def _supervise(self, child: _Child, read_fd: int, slots: SlotPools) -> None:
        process = child.process
        assert process is not None and process.stderr is not None
        messages = asyncio.ensure_future(self._read_messages(child, read_fd))
        errors = asyncio.ensure_future(forward_lines(process.stderr, self._on_stderr))
        try:
            await process.wait()
            slots.put_back(child.shard.index)  # what it held when it ended, if killed
            # Its last lines are in the pipes. The messages' pipe is its own (EOF now); its
            # stderr a program it started (a sandboxed pytest) may hold: not waited for long.
            await asyncio.wait([messages], timeout=_DRAIN_S * 12)
            await asyncio.wait([errors], timeout=_DRAIN_S)
        finally:
            cut = not errors.done()
            for reader in (messages, errors):
                reader.cancel()
            await asyncio.gather(messages, errors, return_exceptions=True)
            if process.stdin is not None:
                process.stdin.close()
        if cut:
            self._on_stderr(
                f"(host process {child.shard.index + 1} ended; what the programs "
                "it started still write to its stderr is not shown)"
            )
        if not messages.cancelled():
            messages.result()  # a bug in reading it propagates

    async def _read_messages(self, child: _Child, read_fd: int) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=_LINE_LIMIT)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb", buffering=0)
        )
        try:
            while line := await reader.readline():
                if line.endswith(b"\n"):  # else cut short by a kill: nothing to read in it
                    self._handle(child, json.loads(line))
        finally:
            transport.close()

    def _handle(self, child: _Child, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "ready":
            child.ready = True
            if child.interrupt_when_ready:
                self._send(child, signal.SIGINT)
        elif kind == "run":
            self._progress.task_started(self.nodes[message["node"]], message["op"])
        elif kind == "done":
            data = message["outcome"]
            self.arrive(child, outcome_from_dict(data, self.nodes[data["node_id"]]))
        elif kind == "servers":
            self._got_states(child, message["states"])
        elif kind == "more":
            self._answer_more(child)
        elif kind == "end":
            child.ended = True
        elif kind == "error":
            child.error = message
            self._stop(signal.SIGINT)  # as one process stops at the error: the others too

    def _answer_more(self, child: _Child) -> None:
        stdin = child.process.stdin if child.process is not None else None
        if stdin is not None and not stdin.is_closing():
            stdin.write(json.dumps({"files": self.pool.hand_out(child.tasks)}).encode() + b"\n")

    def arrive(self, child: _Child, outcome: TaskOutcome) -> None:
        child.outcomes[(outcome.node.node_id, outcome.operation)] = outcome
        self.arrived.append(outcome)
        self._progress.task_done(outcome)

    def _got_states(self, child: _Child, states: list[dict[str, Any]]) -> None:
        child.states = states
        self._states_changed = True

    def _merged_states(self) -> list[dict[str, Any]]:
        return merge_server_states([child.states for child in self.children])

    async def _publish_states(self) -> None:
        while True:
            await asyncio.sleep(_STATES_EVERY_S)
            if self._states_changed:
                self._states_changed = False
                write_server_states(self._root, self._merged_states(), running=True)


class _Here:
    """The progress of the shard run here: into the report and the one bar, as a child's."""

    def __init__(
        self, shards: _Shards, child: _Child, progress: ProgressSink, details: bool
    ) -> None:
        self._shards = shards
        self._child = child
        self._progress = progress
        self._details = details

    def started(self, total: int) -> None:
        return None

    def task_started(self, node: CSTNode, operation: str) -> None:
        self._progress.task_started(node, operation)

    def task_done(self, outcome: TaskOutcome) -> None:
        self._shards.arrive(self._child, outcome if self._details else outcome.without_details())

    def finished(self) -> None:
        return None


def _raise_error(message: dict[str, str]) -> None:
    # A child sends only its RemoraErrors, whose codes all have a class: a code without one
    # is a programming error, and error_for's ValueError says so.
    raise error_for(message["code"], message["message"], message.get("hint", ""))


async def run_shards(
    plan: ShardPlan,
    loaded: LoadedConfig,
    operations: list[str],
    nodes: int,
    *,
    progress: ProgressSink,
    emitter: EventEmitter,
    events_output: str,
    only: Collection[tuple[str, str]] | None = None,
    force: bool = False,
    auto_accept: bool = False,
    on_stderr: Callable[[str], None] | None = None,
    details: bool = True,
) -> tuple[AnalyzeReport, bool]:
    """Run ``plan``'s shards, the first here and each other in a process of its own; the
    batch's one report, and whether a tool script of the shard run here faulted (the
    sandbox's exit pitfall: see :class:`~remora.coordinator.batch.Coordinator`).

    ``nodes``: how many nodes the batch has (the report's count). Raises the
    RemoraError a shard stopped at; KeyboardInterrupt/CancelledError after every
    shard has ended.
    """
    root = loaded.project_root
    count = len(plan.shards)
    wanted = None if only is None else frozenset(only)
    with ResultsDB(root) as db:
        config = {"operations": list(plan.plans), "nodes": nodes, "tasks": len(plan.tasks)}
        run_id = db.start_run("analyze", {**config, "host_processes": count})

        def spec(shard: Shard, progress_fd: int, slots: SlotsSpec) -> ShardSpec:
            ids = {node.node_id for node in (*shard.nodes, *plan.pool_nodes)}
            return ShardSpec(
                index=shard.index,
                count=count,
                run_id=run_id,
                loaded=loaded,
                operations=operations,
                nodes=list(shard.nodes),
                only=None if wanted is None else frozenset(p for p in wanted if p[0] in ids),
                force=force,
                jobs=plan.jobs,
                events_output=events_output,
                details=details,
                progress_fd=progress_fd,
                pool_nodes=list(plan.pool_nodes),
                slots=slots,
            )

        shards = _Shards(plan, spec, progress, on_stderr or _to_stderr, root, emitter)
        report = AnalyzeReport(run_id, list(plan.plans), nodes)
        started = time.monotonic()
        progress.started(len(plan.tasks))
        try:
            with tempfile.TemporaryDirectory(prefix="remora-shards-") as folder:
                await shards.run(Path(folder))
            error = next((c.error for c in shards.children if c.error is not None), None)
            if error is not None:
                _raise_error(error)
            report.outcomes.extend(shards.arrived)  # the order the runs finished in
            for child in shards.children:
                for outcome, message in crash_outcomes(child, count, db, run_id):
                    report.outcomes.append(outcome)
                    progress.task_done(outcome)
                    emitter.emit(Event("warning", {"shard": child.shard.index, "message": message}))
            if auto_accept:  # as one process: in the order the runs finished, then sorted
                store = WorkspaceStore(root)
                accept_changes(store, db, report, lambda k, d: emitter.emit(Event(k, d)))
            order = {(t.node.node_id, t.operation): i for i, t in enumerate(plan.tasks)}
            report.outcomes.sort(key=lambda o: order.get((o.node.node_id, o.operation), 0))
        except asyncio.CancelledError:
            report.interrupted = True
            raise
        finally:
            report.duration_s = time.monotonic() - started
            progress.finished()
            db.finish_run(run_id)
    return report, shards.faulted


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
