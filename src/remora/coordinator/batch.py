"""The coordinator's batch: nodes × operations, concurrently, under one limit.

Workers take tasks from one queue, so at most ``sandbox.max_concurrent_agents``
(``-j``; by default what the model's servers take, see ``agents_at_once``) agents
talk to the model at once whatever the mix of nodes and operations: a run holds
a place only while it talks (:mod:`remora.runner.place`), and a few runs more
(``runs_beside``) do the host work before and after the conversations. Each run gets its
own workspace; a failure is a result and never stops the others, while a
programming error (TypeError, KeyError, ...) propagates. Cancelling (Ctrl-C)
discards the workspaces of unfinished runs; every recorded result is one
committed transaction, so the results database stays consistent.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from remora.agents import AgentRegistry, node_template_vars
from remora.config import ModelConfig, RemoraConfig
from remora.conversation import TextCompleter
from remora.coordinator.accepting import auto_accept as accept_changes
from remora.coordinator.binding import OptionBoundExecutor
from remora.coordinator.concurrency import agents_at_once, runs_beside
from remora.coordinator.distinct import DistinctProposals
from remora.coordinator.heap import HeapTrimmer, fewer_collections
from remora.coordinator.incremental import (
    BatchPlan,
    PlannedTasks,
    plan_digest,
    reused_outcome,
    task_fingerprint,
)
from remora.coordinator.provider_pool import ProviderFactory, ProviderPool, model_key
from remora.coordinator.rejections import ReviewMemory, review_memory
from remora.coordinator.report import (
    AnalyzeReport,
    NullProgress,
    ProgressSink,
    TaskOutcome,
    transcript_details,
)
from remora.coordinator.server_states import StatesWriter, publish_server_states
from remora.coordinator.tasks import (
    OperationPlan,
    Task,
    not_run_result,
    plan_operations,
)
from remora.coordinator.workers import run_workers
from remora.coordinator.workspace_close import close_workspace
from remora.discovery.node import CSTNode
from remora.errors import RemoraError
from remora.events import Event, EventEmitter, NullEmitter
from remora.results import ResultsDB, new_result_state
from remora.results.review_queue import supersede
from remora.runner import (
    AgentResult,
    AgentRunner,
    MeteredCompleter,
    ModelPlace,
    ResultError,
    RetryRecord,
    SandboxToolExecutor,
    settle,
)
from remora.sandbox import SandboxRuntime
from remora.workspace import Workspace, WorkspaceStore

__all__ = ["OPERATIONAL_ERRORS", "Coordinator", "MoreNodes"]

# Nodes to add to a running batch; an empty list: there are no more.
MoreNodes = Callable[[], Awaitable[list[CSTNode]]]

# Failures of the world, not of Remora's code: they become failed results. A RemoraError
# (a model error included) keeps its code; the others are reported by their class name.
OPERATIONAL_ERRORS: tuple[type[BaseException], ...] = (RemoraError, TimeoutError, OSError)


class Coordinator:
    """Runs operations on nodes; an async context manager holding the shared parts.

    ``async with Coordinator(config, root) as c: report = await c.analyze(nodes, ops)``;
    one coordinator may run many batches (``remora watch``) on the same providers.
    """

    def __init__(
        self,
        config: RemoraConfig,
        project_root: Path,
        *,
        registry: AgentRegistry | None = None,
        emitter: EventEmitter | None = None,
        provider_factory: ProviderFactory | None = None,
        progress: ProgressSink | None = None,
        command: str = "analyze",
    ) -> None:
        self.config = config
        self.project_root = project_root.resolve()
        self.registry = registry or AgentRegistry(config.agents_dir, project_root=self.project_root)
        self.emitter: EventEmitter = emitter or NullEmitter()
        self.progress: ProgressSink = progress or NullProgress()
        self.command = command
        self.providers = ProviderPool(provider_factory)
        # Per model: how its retries went, agent by agent (runner/run_end.py).
        self._retry_records: dict[str, RetryRecord] = {}
        self.store = WorkspaceStore(self.project_root)
        self.db: ResultsDB | None = None
        self._runtime: SandboxRuntime | None = None
        # A tool script hit a limit or a worker crashed (docs/agents.md, "The Monty exit pitfall").
        self.sandbox_faulted = False
        # Where the servers' states go (default .remora/servers.json; a shard: its parent).
        self.publish_states: StatesWriter | None = None
        # False: the report's outcomes are not kept (a shard sends each to its parent as it
        # ends; kept, 28,000 outcomes with their details grew a shard by ~100 MB at 20,000 nodes).
        self.keep_outcomes = True
        # False: kept outcomes drop their details (the tools called; a table needs none).
        self.keep_details = True
        # Where more nodes come from once the batch's queue runs dry (a shard asks its
        # parent for another file); None: the nodes given are the whole batch.
        self.more: MoreNodes | None = None
        self._heap = HeapTrimmer()
        # Words each owner's nodes were proposed in this batch (distinct.py).
        self.distinct = DistinctProposals()

    async def __aenter__(self) -> Coordinator:
        self.db = ResultsDB(self.project_root, durable=False)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        runtime, self._runtime = self._runtime, None
        try:
            if runtime is not None:
                self.sandbox_faulted = runtime.faulted
                await runtime.close()
        finally:
            try:
                await self.providers.aclose()
            finally:
                if self.db is not None:
                    self.db.close()
                    self.db = None

    # ------------------------------------------------------------------ plan

    async def check_models(self, tasks: Sequence[Task]) -> None:
        """Create the providers the runnable tasks need and check every model first."""
        for task in tasks:
            if task.runnable and task.plan.model is not None:
                self.providers.get(task.plan.model, self._profile_name())
        await self.providers.check_all()

    def _profile_name(self) -> str | None:
        return self.config.runner.model_profile

    def _retries(self, model: ModelConfig) -> RetryRecord:
        key = model_key(model, self._profile_name())
        record = self._retry_records.get(key)
        if record is None:
            limit = self.config.runner.policy.max_repeated_retries
            record = self._retry_records[key] = RetryRecord(limit)
        return record

    # ------------------------------------------------------------------- run

    async def analyze(
        self,
        nodes: Sequence[CSTNode],
        operations: Sequence[str] | Mapping[str, OperationPlan],
        *,
        auto_accept: bool = False,
        only: Collection[tuple[str, str]] | None = None,
        force: bool = False,
        run_id: str | None = None,
    ) -> AnalyzeReport:
        """One batch: every node × operation gets exactly one recorded result.

        ``only`` (node_id, operation) pairs limit the batch to those tasks
        (``analyze --retry-rejected``); the others are neither run nor recorded.
        A task whose inputs are unchanged since its standing result keeps that
        result instead of running (see :mod:`remora.coordinator.incremental`),
        unless ``force``. ``run_id``: a run its caller started and finishes (the
        parent of sharded host processes); by default the batch is a run of its own.
        ``operations``: their names, or their plans when the caller made them already
        (:func:`~remora.coordinator.tasks.plan_operations`: the library plans once for
        the shard planner and this batch).
        """
        if self.db is None:
            raise RuntimeError("Coordinator.analyze() outside `async with Coordinator(...)`")
        db = self.db
        self.distinct = DistinctProposals()
        plans = (
            dict(operations)
            if isinstance(operations, Mapping)
            else plan_operations(operations, self.config, self.registry)
        )
        digests = {name: plan_digest(plan, self.config) for name, plan in plans.items()}
        batch = BatchPlan(plans, digests, only, force)
        first = batch.tasks_on(db, self.store, nodes)
        tasks, to_run = first.tasks, first.to_run
        # Nothing to run (an unchanged project): no model check, no sandbox start.
        await self.check_models(to_run)
        own_run = run_id is None
        if run_id is None:
            run_id = db.start_run(
                self.command, {"operations": list(plans), "nodes": len(nodes), "tasks": len(tasks)}
            )
        report = AnalyzeReport(run_id, list(plans), len(nodes))
        started = time.monotonic()
        limit = agents_at_once(self.config, (plan.model for plan in plans.values()))
        runs = limit + runs_beside(limit, self.config.sandbox.workers)
        self._emit(
            "coordinator_start",
            {
                "run_id": run_id,
                "nodes": len(nodes),
                "operations": list(plans),
                "tasks": len(tasks),
                "max_concurrent_agents": limit,
                "runs_at_once": runs,
            },
        )
        self.progress.started(len(tasks))
        order = {(t.node.node_id, t.operation): i for i, t in enumerate(tasks)}
        try:
            await self._start_sandbox(to_run, runs)
            async with publish_server_states(
                self.providers, self.project_root, self.publish_states
            ):
                with fewer_collections():
                    await self._run_all(batch, first, run_id, report, limit, runs)
            if auto_accept:  # in the tasks' order, as the report lists them, not as they ended
                report.outcomes.sort(key=lambda o: order.get((o.node.node_id, o.operation), 0))
                accept_changes(self.store, db, report, self._emit)
        except asyncio.CancelledError:
            report.interrupted = True
            raise
        finally:
            report.duration_s = time.monotonic() - started
            report.outcomes.sort(key=lambda o: order.get((o.node.node_id, o.operation), 0))
            if own_run:
                db.finish_run(run_id)
            self.progress.finished()
            self._emit(
                "coordinator_end",
                {
                    "run_id": run_id,
                    "counts": report.counts(),
                    "interrupted": report.interrupted,
                    "duration_s": round(report.duration_s, 6),
                },
            )
        return report

    async def _start_sandbox(self, to_run: Sequence[Task], runs: int) -> None:
        if to_run and self._runtime is None:
            runtime = SandboxRuntime(self.config.sandbox, workers=runs)
            await runtime.start()
            self._runtime = runtime

    async def _run_all(
        self,
        batch: BatchPlan,
        first: PlannedTasks,
        run_id: str,
        report: AnalyzeReport,
        talking: int,
        runs: int,
    ) -> None:
        """Run the batch: at most ``talking`` runs talk to the model at once, ``runs`` in all."""
        places = asyncio.Semaphore(talking)
        queue: deque[tuple[Task, str]] = deque()

        def enqueue(planned: PlannedTasks) -> None:
            for task in planned.tasks:
                if not task.runnable:
                    self._done(report, self._record(run_id, task, not_run_result(task)))
                    continue
                record = planned.kept.get((task.node.node_id, task.operation))
                if record is None:
                    queue.append((task, task_fingerprint(task, batch.digests)))
                else:
                    self._done(report, reused_outcome(task, record))

        asking = asyncio.Lock()
        more = self.more

        async def refill() -> bool:
            """More tasks queued from ``self.more``; false when it has none left."""
            nonlocal more
            async with asking:  # one asks; the others find the queue it filled
                while not queue and more is not None:
                    nodes = await more()
                    if not nodes:
                        more = None  # no more: never asked again
                        break
                    assert self.db is not None
                    planned = batch.tasks_on(self.db, self.store, nodes)
                    to_run, profile = planned.to_run, self._profile_name()
                    models = [t.plan.model for t in to_run if t.plan.model is not None]
                    if any((model, profile) not in self.providers for model in models):
                        await self.check_models(to_run)  # a model first needed now
                    await self._start_sandbox(to_run, runs)
                    enqueue(planned)
                return bool(queue)

        async def run(item: tuple[Task, str]) -> None:
            task, fingerprint = item
            self.progress.task_started(task.node, task.operation)
            place = ModelPlace(places)
            self._done(report, await self._run_one(task, run_id, fingerprint, place))

        enqueue(first)
        await run_workers(queue, runs, run, refill if more is not None else None)

    def _done(self, report: AnalyzeReport, outcome: TaskOutcome) -> None:
        if not self.keep_outcomes:
            report.count_only(outcome)
        elif self.keep_details:
            report.outcomes.append(outcome)
        else:
            report.outcomes.append(outcome.without_details())
        self.progress.task_done(outcome)
        self._heap.ran()

    async def _run_one(
        self, task: Task, run_id: str, fingerprint: str, place: ModelPlace
    ) -> TaskOutcome:
        plan = task.plan
        assert plan.definition is not None and plan.model is not None and self._runtime
        node = task.node
        agent_run = f"{task.operation}-{node.node_id[:8]}-{uuid.uuid4().hex[:6]}"
        try:
            workspace = self.store.create(task.operation, node.node_id)
        except RemoraError as exc:  # e.g. an interrupted accept still pending there
            failed = AgentResult(
                "failed", summary=exc.message, error=ResultError(exc.code, exc.message)
            )
            return self._record(run_id, task, failed, fingerprint)
        keep = False
        try:
            variables = node_template_vars(node, language=self.config.discovery.language)
            provider = self.providers.get(plan.model, self._profile_name())
            completions = (
                MeteredCompleter(provider, self.config.runner.per_turn_timeout, place)
                if isinstance(provider, TextCompleter)
                else None
            )
            executor: Any = SandboxToolExecutor(
                self._runtime,
                workspace,
                node,
                self.config.sandbox,
                self.emitter,
                context_inputs=variables,
                run_id=agent_run,
                completer=completions,
            )
            if plan.fixed_inputs:
                executor = OptionBoundExecutor(executor, plan.fixed_inputs)
            assert self.db is not None
            memory = review_memory(self.db, node.node_id, task.operation)
            runner = AgentRunner(
                plan.definition,
                provider,
                self.config.runner,
                executor,
                emitter=self.emitter,
                template_vars=variables,
                run_id=agent_run,
                review_feedback=memory.feedback,
                retries=self._retries(plan.model),
                completions=completions,
                place=place,
            )
            try:
                result = await runner.run()
            except OPERATIONAL_ERRORS as exc:
                code, message = _code_and_message(exc)
                result = AgentResult(
                    "failed",
                    workspace_id=workspace.id,
                    summary=message,
                    error=ResultError(code, message),
                )
            transcript = transcript_details(runner.dispatcher.log, plan.model)
            result = result.replace(details={**result.details, "transcript": transcript})
            dropped = self._change_dropped(task, memory, workspace, result)
            if dropped is not None:  # the runner settled it with a change; settled again without
                result = settle(dropped, plan.definition.without_change)
            keep = bool(result.changed_files)
            self.store.mark_finished(workspace)
        finally:
            place.close()  # given back by the runner, unless a bug stopped it
            await close_workspace(self.store, workspace, keep)
        if not keep and result.workspace_id is not None:
            result = result.replace(workspace_id=None)
        outcome = self._record(run_id, task, result, fingerprint)
        if result.status != "failed":
            assert self.db is not None
            # The latest finished run speaks for its node: its change replaces the older
            # ones, and a run that now proposes nothing retires them (they were made from
            # other inputs: older code, another model or toolkit). A failure says nothing.
            # The run's own workspace: a lazy one has no database to open again.
            supersede(self.store, self.db, workspace)
        return outcome

    def _change_dropped(
        self, task: Task, memory: ReviewMemory, workspace: Workspace, result: AgentResult
    ) -> AgentResult | None:
        """The result without its change when the change repeats one the user rejected, or
        the words another method of the owner was proposed in this batch; None when it stands."""
        repeated = memory.repeat_of(workspace.changes()) if result.changed_files else None
        if repeated is not None:
            return memory.not_proposed(result, repeated)
        return self.distinct.repeat(task.operation, task.node, result)

    def _record(
        self, run_id: str, task: Task, result: AgentResult, fingerprint: str | None = None
    ) -> TaskOutcome:
        assert self.db is not None
        result_id = self.db.record_result(
            run_id, task.node, task.operation, result.to_dict(), fingerprint=fingerprint
        )
        review = new_result_state(result.changed_files, result.workspace_id)
        return TaskOutcome(task.node, task.operation, result, result_id, review)

    def _emit(self, kind: Any, data: dict[str, Any]) -> None:
        self.emitter.emit(Event(kind, data))


def _code_and_message(exc: BaseException) -> tuple[str, str]:
    """What a failed result records for an operational error."""
    if isinstance(exc, RemoraError):
        return exc.code, exc.message
    return type(exc).__name__, str(exc) or type(exc).__name__
