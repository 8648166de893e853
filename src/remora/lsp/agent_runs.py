"""Agent runs the server starts: "run agent X on this node now" and re-analysis on save.

A run goes through the coordinator as `remora analyze` and `remora watch` do
(results recorded, changes waiting for review), one at a time per server, with
work-done progress the user can cancel; cancelling discards the unfinished
runs, as Ctrl-C does for `analyze`.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any, Protocol

from lsprotocol import types

from remora.agents import AgentRegistry
from remora.config import LoadedConfig
from remora.coordinator import AnalyzeReport, Coordinator, TaskOutcome
from remora.discovery import CSTNode
from remora.lsp.open_projects import Project

__all__ = ["ProgressClient", "RunProgress", "run_agents"]


class ProgressClient(Protocol):
    """What a run needs of the server: progress tokens and their cancellation."""

    def supports_progress(self) -> bool: ...

    async def create_progress(self, token: str) -> None: ...

    def send_progress(self, token: str, value: Any) -> None: ...

    def cancel_future(self, token: str) -> Future[Any] | None: ...


class RunProgress:
    """The coordinator's ProgressSink as LSP work-done progress reports."""

    def __init__(self, client: ProgressClient, token: str | None) -> None:
        self.client = client
        self.token = token
        self.total = 0
        self.done = 0

    def _report(self, message: str) -> None:
        if self.token is None:
            return
        percentage = int(100 * self.done / self.total) if self.total else None
        value = types.WorkDoneProgressReport(
            message=message, percentage=percentage, cancellable=True
        )
        self.client.send_progress(self.token, value)

    def started(self, total: int) -> None:
        self.total = total

    def task_started(self, node: CSTNode, operation: str) -> None:
        self._report(f"{operation} on {node.full_name}")

    def task_done(self, outcome: TaskOutcome) -> None:
        self.done += 1
        self._report(f"{outcome.operation} on {outcome.node.full_name}: {outcome.result.status}")

    def finished(self) -> None:
        return None


def _summary(report: AnalyzeReport | None) -> str:
    if report is None:
        return "cancelled: unfinished runs were discarded"
    counts = report.counts()
    return (
        f"{counts['success']} succeeded, {counts['failed']} failed, {counts['skipped']} skipped; "
        f"{counts['changed']} change(s) to review"
    )


async def run_agents(
    client: ProgressClient,
    project: Project,
    nodes: Sequence[CSTNode],
    operations: Sequence[str],
    title: str,
) -> AnalyzeReport | None:
    """Run ``operations`` on ``nodes``; None when the user cancelled."""
    loaded = project.config()
    token: str | None = None
    if client.supports_progress():
        token = f"remora-{uuid.uuid4().hex[:12]}"
        await client.create_progress(token)
        client.send_progress(token, types.WorkDoneProgressBegin(title=title, cancellable=True))
    registry = AgentRegistry(loaded.config.agents_dir, project_root=project.root)
    progress = RunProgress(client, token)
    task = asyncio.ensure_future(_analyze(loaded, project, registry, nodes, operations, progress))
    cancel = client.cancel_future(token) if token is not None else None
    by_user: list[bool] = []
    if cancel is not None:
        loop = asyncio.get_running_loop()

        def stop(_future: Future[Any]) -> None:
            by_user.append(True)
            loop.call_soon_threadsafe(task.cancel)

        cancel.add_done_callback(stop)
    report: AnalyzeReport | None = None
    try:
        report = await task
    except asyncio.CancelledError:
        if not by_user:
            raise  # the server itself is stopping
    finally:
        if token is not None:
            client.send_progress(token, types.WorkDoneProgressEnd(message=_summary(report)))
    return report


async def _analyze(
    loaded: LoadedConfig,
    project: Project,
    registry: AgentRegistry,
    nodes: Sequence[CSTNode],
    operations: Sequence[str],
    progress: RunProgress,
) -> AnalyzeReport:
    coordinator = Coordinator(
        loaded.config, project.root, registry=registry, progress=progress, command="lsp"
    )
    async with coordinator:
        return await coordinator.analyze(list(nodes), list(operations))
