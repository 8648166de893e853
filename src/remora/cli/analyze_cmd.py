"""``remora analyze`` and ``remora watch``: run the agents on the nodes under PATHS."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from remora import analysis, review
from remora.analysis import AnalysisPlan
from remora.cli.analyze_view import RichProgress, print_report, result_items
from remora.cli.changed_opts import BaseOpt, ChangedOpt, StagedOpt, print_picked, wants_changed
from remora.cli.discover_cmd import parse_types
from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import console, err_console, print_json_items
from remora.coordinator import (
    AnalyzeReport,
    ChangeBatch,
    Coordinator,
    NodeIndex,
    NullProgress,
    ProgressSink,
    watch_loop,
)
from remora.coordinator.main_loop import run_main
from remora.coordinator.rejections import rerun_plan
from remora.discovery import CSTNode
from remora.discovery.changed_nodes import discover_changed
from remora.discovery.result import DiscoveryResult, DiscoveryWarning
from remora.errors import UsageError
from remora.results import ResultsDB

__all__ = ["register"]

OperationsOpt = Annotated[
    str | None,
    typer.Option(
        "--operations",
        "-o",
        help="Operations to run, comma-separated (default: the enabled "
        "ones in remora.yaml: lint, docstring, test, sample_data).",
    ),
]
TypesOpt = Annotated[
    str | None,
    typer.Option(
        "--type", "-t", help="Only these node types, comma-separated: file,class,function,method."
    ),
]
AutoAcceptOpt = Annotated[
    bool,
    typer.Option(
        "--auto-accept",
        help="Accept every successful change right away (conflicts are kept for review).",
    ),
]
RetryRejectedOpt = Annotated[
    bool,
    typer.Option(
        "--retry-rejected",
        help="Re-run only the agents whose change was rejected with a reason, telling them "
        "the reason (see `remora review reject --reason`).",
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Run every node × operation again, also those whose inputs are unchanged "
        "since their recorded result (kept by default).",
    ),
]
ProcessesOpt = Annotated[
    str | None,
    typer.Option(
        "--processes",
        help="Host processes sharing the nodes, file by file: N, or auto (one per CPU, up to "
        "8, from 150 runs each); openai servers only (default: sandbox.host_processes, auto).",
        show_default=False,
    ),
]
FailOnPendingOpt = Annotated[
    bool,
    typer.Option(
        "--fail-on-pending",
        help="Exit 1 while changes to the nodes run wait for review (a pre-commit hook, CI).",
    ),
]
PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Files and directories to analyse (default: the current directory).",
        show_default=False,
        metavar="PATHS",
    ),
]


def _prepare(
    opts: SharedOptions,
    paths: list[Path] | None,
    operations: str | None,
    processes: str | None = None,
) -> AnalysisPlan:
    """What analyze and watch both start from: targets, config, agents, operations, events."""
    targets = list(paths) if paths else [Path.cwd()]
    overrides = opts.to_overrides()
    if processes is not None:
        overrides.setdefault("sandbox", {})["host_processes"] = _processes(processes)
    return analysis.prepare(
        targets,
        operations,
        config_path=opts.config_path,
        overrides=overrides,
        project=opts.project_root(targets),
    )


def _processes(value: str) -> int | str:
    text = value.strip().lower()
    if text == "auto":
        return text
    if text.isdigit() and int(text) >= 1:
        return int(text)
    raise UsageError(
        f"--processes {value!r} is not a number of processes",
        "give a number (1: one process) or auto (the default: one per CPU for server models)",
    )


def _show_stderr(line: str) -> None:
    """A shard process's stderr line (an error, a warning), above the progress bar."""
    err_console.print(Text(line), soft_wrap=True, highlight=False)


def _print_warning(warning: DiscoveryWarning) -> None:
    where = f"{warning.file}:{warning.line}" if warning.line else warning.file
    err_console.print(
        f"[yellow]warning:[/] {where}: {warning.message}", markup=True, highlight=False
    )


def _running_as_remora() -> bool:
    """True in the `remora` console process, False when embedded (tests, other tools)."""
    main_file = str(getattr(sys.modules.get("__main__"), "__file__", "") or "")
    return Path(main_file).name == "remora" or main_file.endswith(
        ("remora/__main__.py", "remora/cli/__main__.py")
    )


def _exit(code: int, sandbox_faulted: bool) -> None:
    if sandbox_faulted and _running_as_remora():
        # A tool hit a time limit: Monty's runtime threads can abort the
        # interpreter's shutdown (exit 134; docs/architecture.md). Everything is printed
        # and recorded; end the process here with the real exit code.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    if code:
        raise typer.Exit(code)


def _find_nodes(
    plan: AnalysisPlan, node_type: str | None, changed: bool, base: str | None, staged: bool
) -> DiscoveryResult:
    """Every node under the paths, or with --changed those whose lines differ (listed)."""
    if not wants_changed(changed, base, staged):
        return analysis.find_nodes(plan, parse_types(node_type), _print_warning)
    found = discover_changed(
        plan.targets,
        project_root=plan.project_root,
        config=plan.loaded.config.discovery,
        base=base,
        staged=staged,
        node_types=parse_types(node_type),
        emitter=plan.emitter,
    )
    for warning in found.result.warnings:
        _print_warning(warning)
    print_picked(found, err_console)
    return found.result


def analyze_command(
    opts: SharedOptions,
    paths: PathsArg = None,
    operations: OperationsOpt = None,
    output_format: FormatOpt = OutputFormat.table,
    auto_accept: AutoAcceptOpt = False,
    node_type: TypesOpt = None,
    retry_rejected: RetryRejectedOpt = False,
    force: ForceOpt = False,
    processes: ProcessesOpt = None,
    changed: ChangedOpt = False,
    base: BaseOpt = None,
    staged: StagedOpt = False,
    fail_on_pending: FailOnPendingOpt = False,
) -> None:
    """Run the agents on every node under PATHS; the changes wait in `remora review`.

    A node × operation whose inputs (node text, agent, model, options) are unchanged
    since its recorded result keeps that result and is not run again (--force re-runs).

    With --changed only the nodes whose lines differ from a git base are run
    (--base REF; default the merge base with the default branch), listed first.

    With model servers (provider openai), --processes N shards the nodes by file
    over N host processes, so Remora's own work per run takes N cores.

    Exit codes: 0 all good, 1 some operations failed, 2 nothing succeeded or bad
    usage, 3 configuration error, 130 interrupted.
    """
    plan = _prepare(opts, paths, operations, processes)
    try:
        result = _find_nodes(plan, node_type, changed, base, staged)
        rerun = None
        if retry_rejected:
            with ResultsDB(plan.project_root) as db:
                rerun = rerun_plan(db, result.nodes, plan.operations if operations else None)
            if not rerun.pairs:
                err_console.print("no change rejected with a reason is waiting for a retry")
                return
        show_bar = output_format is OutputFormat.table and err_console.is_terminal
        progress: ProgressSink = RichProgress(err_console) if show_bar else NullProgress()
        try:
            report, faulted = run_main(
                analysis.run(
                    plan,
                    result,
                    progress=progress,
                    auto_accept=auto_accept,
                    rerun=rerun,
                    force=force,
                    on_stderr=_show_stderr,
                    details=False,  # a table shows none; JSON reads them back (result_items)
                )
            )
        except KeyboardInterrupt:
            err_console.print(
                "interrupted: unfinished runs were discarded; finished ones are "
                "recorded (`remora review`)"
            )
            raise typer.Exit(130) from None
    finally:
        plan.emitter.close()
    if output_format is OutputFormat.json:
        with ResultsDB(plan.project_root) as db:
            print_json_items(report.header(), "results", result_items(report, db))
    else:
        if not result.nodes and not wants_changed(changed, base, staged):
            err_console.print("no Python files or nodes found under the given paths")
        print_report(report, console)
    code = report.exit_code
    if fail_on_pending and not code and _pending(plan, {n.node_id for n in result.nodes}):
        code = 1
    _exit(code, faulted)


def _pending(plan: AnalysisPlan, node_ids: set[str]) -> bool:
    """Print the changes to these nodes that wait for review; True when there are any."""
    waiting = [
        item
        for item in review.list_changes(plan.project_root)
        if item.node_id in node_ids and item.state == "pending"
    ]
    for item in waiting:
        err_console.print(
            f"waits for review: {item.id} {item.operation} {item.node} ({item.summary})",
            markup=False,
            highlight=False,
        )
    if waiting:
        err_console.print(
            "review them (`remora review show ID`, then accept or reject) and commit again",
            markup=False,
        )
    return bool(waiting)


async def _watch(
    plan: AnalysisPlan, index: NodeIndex, auto_accept: bool, first: list[CSTNode]
) -> None:
    async def show(batch: ChangeBatch, report: AnalyzeReport | None) -> None:
        for skip in batch.skipped:
            err_console.print(
                f"[yellow]skipped[/] {skip} (the watch goes on; save again once it parses)",
                markup=True,
                highlight=False,
            )
        for removed in batch.removed:
            console.print(f"{removed}: removed", highlight=False)
        if report is None:
            if batch.files and not batch.skipped and not batch.removed:
                console.print(f"{', '.join(batch.files)}: no node changed", highlight=False)
            return
        names = ", ".join(sorted({n.full_name for n in batch.nodes}))
        console.print(f"[bold]changed:[/] {names}", markup=True, highlight=False)
        print_report(report, console)

    coordinator = Coordinator(
        plan.loaded.config,
        plan.project_root,
        registry=plan.registry,
        emitter=plan.emitter,
        command="watch",
    )
    async with coordinator:
        if first:  # --changed: what the branch changed, before the first save
            report = await coordinator.analyze(first, plan.operations, auto_accept=auto_accept)
            print_report(report, console)
        await watch_loop(
            coordinator,
            plan.targets,
            plan.operations,
            index,
            on_batch=show,
            auto_accept=auto_accept,
        )


def watch_command(
    opts: SharedOptions,
    paths: PathsArg = None,
    operations: OperationsOpt = None,
    auto_accept: AutoAcceptOpt = False,
    changed: ChangedOpt = False,
    base: BaseOpt = None,
    staged: StagedOpt = False,
) -> None:
    """Watch PATHS and re-run the agents on the nodes whose text changed (Ctrl-C stops).

    With --changed the nodes that differ from the git base are run first.
    """
    plan = _prepare(opts, paths, operations)
    try:
        result = analysis.find_nodes(plan, None, _print_warning)
        index = NodeIndex(result.nodes)
        first = (
            _find_nodes(plan, None, changed, base, staged).nodes
            if wants_changed(changed, base, staged)
            else []
        )
        console.print(
            f"watching {len(index.files)} files ({len(index)} nodes) for "
            f"{', '.join(plan.operations)}; Ctrl-C stops",
            highlight=False,
        )
        try:
            run_main(_watch(plan, index, auto_accept, first))
        except KeyboardInterrupt:
            err_console.print("stopped watching")
            raise typer.Exit(130) from None
    finally:
        plan.emitter.close()


def register(app: typer.Typer) -> None:
    """Add ``analyze`` and ``watch`` to the root app."""
    app.command("analyze")(shared_options(analyze_command))
    app.command("watch")(shared_options(watch_command))
