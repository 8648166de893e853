"""How ``remora analyze`` and ``remora watch`` show progress and results."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from remora.cli.output import print_table
from remora.coordinator import AnalyzeReport, TaskOutcome
from remora.discovery.node import CSTNode
from remora.results import ResultsDB

__all__ = ["RichProgress", "outcome_cell", "print_report", "report_line", "result_items"]

_DETAILS_PER_READ = 500


class RichProgress:
    """A progress bar with live counts: done/total, succeeded, failed, skipped, running."""

    def __init__(self, console: Console) -> None:
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("[bold]analyze"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._task: TaskID | None = None
        self._counts = {"success": 0, "failed": 0, "skipped": 0}
        self._running: set[tuple[str, str]] = set()

    def _label(self) -> str:
        c = self._counts
        return (
            f"[green]{c['success']} ok[/] [red]{c['failed']} failed[/] "
            f"[dim]{c['skipped']} skipped, {len(self._running)} running[/]"
        )

    def started(self, total: int) -> None:
        self._counts = {"success": 0, "failed": 0, "skipped": 0}
        self._running.clear()
        self._progress.start()
        self._task = self._progress.add_task("analyze", total=total, counts=self._label())

    def task_started(self, node: CSTNode, operation: str) -> None:
        self._running.add((node.node_id, operation))
        if self._task is not None:
            self._progress.update(self._task, counts=self._label())

    def task_done(self, outcome: TaskOutcome) -> None:
        self._counts[outcome.result.status] += 1
        self._running.discard((outcome.node.node_id, outcome.operation))
        if self._task is not None:
            self._progress.update(self._task, advance=1, counts=self._label())

    def finished(self) -> None:
        self._progress.stop()
        if self._task is not None:
            self._progress.remove_task(self._task)
            self._task = None


def outcome_cell(outcome: TaskOutcome) -> Text:
    cell = _result_cell(outcome)
    if outcome.reused:  # not run: its inputs are unchanged since this result
        cell.append(" (kept)", style="dim")
    return cell


def _result_cell(outcome: TaskOutcome) -> Text:
    result = outcome.result
    if result.status == "skipped":
        return Text("–", style="dim")
    if result.status == "failed":
        code = result.error.code if result.error else "failed"
        return Text(f"✗ {code}", style="red")
    if outcome.review == "accepted":
        return Text("✓ accepted", style="green")
    if outcome.review == "conflict":
        return Text("✓ conflict", style="yellow")
    if result.changed_files:
        files = len(result.changed_files)
        return Text(f"✓ {files} file{'s' if files != 1 else ''}", style="green")
    return Text("✓", style="green")


def report_line(report: AnalyzeReport) -> str:
    counts = report.counts()
    line = (
        f"{len(report.outcomes)} results for {report.nodes} nodes × "
        f"{len(report.operations)} operations in {report.duration_s:.1f}s: "
        f"{counts['success']} succeeded ({counts['changed']} with changes), "
        f"{counts['failed']} failed, {counts['skipped']} skipped"
    )
    kept = sum(1 for o in report.outcomes if o.reused)
    if kept:
        line += f"; {kept} kept from earlier runs (inputs unchanged; --force re-runs them)"
    return line


def print_report(report: AnalyzeReport, console: Console) -> None:
    """A table: one row per node, one column per operation."""
    # A node and its location are ids: never wrapped (print_table widens instead).
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("node", no_wrap=True)
    for operation in report.operations:
        table.add_column(operation, no_wrap=True)
    rows: dict[str, dict[str, TaskOutcome]] = {}
    nodes: dict[str, CSTNode] = {}
    for outcome in report.outcomes:
        rows.setdefault(outcome.node.node_id, {})[outcome.operation] = outcome
        nodes.setdefault(outcome.node.node_id, outcome.node)
    for node_id, cells in rows.items():
        node = nodes[node_id]
        label = Text(f"{node.node_type} {node.full_name}")
        label.append(f"\n{node.file_path}:{node.start_line}", style="dim")
        table.add_row(
            label,
            *[outcome_cell(cells[op]) if op in cells else Text("") for op in report.operations],
        )
    print_table(table, console)
    failures = [o for o in report.outcomes if o.result.status == "failed"]
    for outcome in failures[:10]:
        console.print(
            f"[red]✗[/] {outcome.operation} {outcome.node.full_name}: "
            f"{outcome.result.summary[:200]}",
            markup=True,
            highlight=False,
        )
    if len(failures) > 10:
        console.print(f"  … and {len(failures) - 10} more failures (--format json lists all)")
    console.print(report_line(report))
    pending = sum(1 for o in report.outcomes if o.review == "pending")
    if pending:
        console.print(f"{pending} change(s) to review: [bold]remora review[/]", markup=True)
    if report.interrupted:
        console.print("[yellow]interrupted[/]: unfinished runs were discarded", markup=True)


def result_items(report: AnalyzeReport, db: ResultsDB) -> Iterator[dict[str, Any]]:
    """Each outcome as ``--format json`` shows it, with the details it was kept without
    (read back from the results database, a few hundred at a time)."""
    outcomes = report.outcomes
    for start in range(0, len(outcomes), _DETAILS_PER_READ):
        chunk = outcomes[start : start + _DETAILS_PER_READ]
        details = db.details(o.result_id for o in chunk if o.result_id and not o.result.details)
        for outcome in chunk:
            item = outcome.to_dict()
            if outcome.result_id in details:
                item["details"] = details[outcome.result_id]
            yield item
