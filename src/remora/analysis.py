"""Running the agents as a library: ``remora.analyze(paths, operations=..., model=...)``.

``remora analyze`` and ``remora watch`` (the CLI) go through the same steps:
:func:`prepare` (configuration, agents, operations, event log), :func:`find_nodes`
(discovery) and :func:`run` (the coordinator). :func:`analyze` strings them
together for a script or a notebook, and :func:`analyze_async` for a running event
loop::

    import remora

    analysis = remora.analyze("src/", operations=["lint", "docstring"])
    for change in analysis.changes:
        print(change.node, change.operation, change.summary)
        print(change.diff)

Nothing in the project changes: the changes wait in the review queue
(:mod:`remora.review`) until accepted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from remora.agents import AgentRegistry
from remora.config import LoadedConfig, ModelConfig, RemoraConfig, load_config
from remora.config.arguments import (
    check_bool,
    check_config,
    check_model,
    check_names,
    check_path,
    check_paths,
)
from remora.coordinator import (
    AnalyzeReport,
    Coordinator,
    NullProgress,
    ProgressSink,
    TaskOutcome,
    check_options,
    parse_operations,
    plan_operations,
)
from remora.coordinator.main_loop import run_main
from remora.coordinator.rejections import RerunPlan
from remora.coordinator.shard_parent import run_shards
from remora.coordinator.shards import plan_shards
from remora.discovery import DiscoveryResult, discover
from remora.discovery.node import NodeType
from remora.discovery.result import DiscoveryWarning
from remora.errors import ConfigValueError, RemoraError
from remora.events import EventEmitter, build_emitter
from remora.project import check_state_place, find_project_root
from remora.providers.catalogue import KNOWN_MODELS, lookup
from remora.workspace import WorkspaceStore

__all__ = [
    "Analysis",
    "AnalysisPlan",
    "Change",
    "analyze",
    "analyze_async",
    "find_nodes",
    "prepare",
    "run",
]

PathLike = str | Path


@dataclass(frozen=True, slots=True)
class AnalysisPlan:
    """What a run starts from: the paths, the resolved configuration, the agents, the operations."""

    targets: list[Path]
    loaded: LoadedConfig
    registry: AgentRegistry
    operations: list[str]
    emitter: EventEmitter

    @property
    def project_root(self) -> Path:
        return self.loaded.project_root


@dataclass(frozen=True, slots=True)
class Change:
    """One change waiting for review: which node, which operation, what it says, the diff."""

    workspace_id: str
    node: str
    node_id: str
    file_path: str
    operation: str
    summary: str
    changed_files: list[str]
    diff: str


@dataclass
class Analysis:
    """The outcome of :func:`analyze`: every node × operation's result and the changes made."""

    project_root: Path
    report: AnalyzeReport
    changes: list[Change] = field(default_factory=list)

    @property
    def outcomes(self) -> list[TaskOutcome]:
        """One per node × operation, with its :class:`remora.runner.AgentResult`."""
        return self.report.outcomes

    @property
    def exit_code(self) -> int:
        """0 all good, 1 some failed, 2 nothing succeeded, 130 interrupted (as the CLI exits)."""
        return self.report.exit_code

    def counts(self) -> dict[str, int]:
        """How many runs succeeded, failed, were skipped, and changed something."""
        return self.report.counts()


def _event_output(loaded: LoadedConfig) -> str:
    output = loaded.config.events.output
    if output != "-" and not Path(output).is_absolute():
        output = str(loaded.project_root / output)
    return output


def _emitter(loaded: LoadedConfig) -> EventEmitter:
    events = loaded.config.events
    return build_emitter(events.enabled, _event_output(loaded), events.max_payload_chars)


def _check_options(loaded: LoadedConfig, registry: AgentRegistry) -> None:
    """Every operation's options against its agent's tool inputs, before any run.

    All of them, not only those chosen with ``-o``: remora.yaml is checked as a
    whole, as its keys are. An agent that cannot be loaded is left to the run,
    which reports it per node.
    """
    known = set(registry.names())
    for name, op in loaded.config.operations.items():
        if name not in known or not op.options:
            continue
        try:
            definition = registry.get(name)
        except RemoraError:
            continue
        check_options(name, definition, op.options, origin=loaded.origin_of)


def _check_embedded_models(loaded: LoadedConfig) -> None:
    """Every operation's ``embedded_model`` names a model of the catalogue, before any run."""
    for name, op in loaded.config.operations.items():
        if op.embedded_model is None or lookup(op.embedded_model) is not None:
            continue
        dotted = f"operations.{name}.embedded_model"
        raise ConfigValueError(
            f"unknown embedded model {op.embedded_model!r} for '{dotted}' "
            f"({loaded.origin_of(dotted)})",
            f"set it to one of: {', '.join(KNOWN_MODELS)}, or remove it",
        )


def prepare(
    paths: Sequence[Path],
    operations: str | Sequence[str] | None,
    *,
    config_path: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    project: Path | None = None,
) -> AnalysisPlan:
    """Resolve the configuration (file < environment < ``overrides``), agents and operations.

    ``project`` is the project root (default: found from the first path). The
    plan's event emitter must be closed when the run is over.
    """
    targets = list(paths) or [Path.cwd()]
    root = project.resolve() if project is not None else find_project_root(targets[0])
    check_state_place(root, targets)  # before the event log or anything else is written
    loaded = load_config(config_path, overrides, project_root=root)
    registry = AgentRegistry(loaded.config.agents_dir, project_root=loaded.project_root)
    chosen = parse_operations(operations, loaded.config, registry)
    _check_options(loaded, registry)
    _check_embedded_models(loaded)
    return AnalysisPlan(targets, loaded, registry, chosen, _emitter(loaded))


def find_nodes(
    plan: AnalysisPlan,
    node_types: Collection[NodeType] | None = None,
    on_warning: Callable[[DiscoveryWarning], None] | None = None,
) -> DiscoveryResult:
    """The nodes under the plan's paths (files, classes, functions, methods).

    Each discovery warning (a file with a syntax error, an unreadable file)
    goes to ``on_warning`` as well as into the result.
    """
    result = discover(
        plan.targets,
        project_root=plan.project_root,
        config=plan.loaded.config.discovery,
        node_types=node_types,
        emitter=plan.emitter,
    )
    if on_warning is not None:
        for warning in result.warnings:
            on_warning(warning)
    return result


async def run(
    plan: AnalysisPlan,
    discovered: DiscoveryResult,
    *,
    progress: ProgressSink | None = None,
    auto_accept: bool = False,
    rerun: RerunPlan | None = None,
    force: bool = False,
    on_stderr: Callable[[str], None] | None = None,
    details: bool = True,
) -> tuple[AnalyzeReport, bool]:
    """Run every node × operation of the plan; returns the report and whether a tool faulted.

    ``rerun`` narrows the run to the changes rejected with a reason; ``force``
    re-runs what the incremental check would keep. With ``sandbox.host_processes``
    above 1 (server models only) the nodes are sharded by file over that many
    processes (:mod:`remora.coordinator.shards`); each line they write to stderr
    goes to ``on_stderr`` (default: this stderr). ``details=False`` keeps each outcome
    without its result's details (a front end that shows none saves their memory: ~90 MB at
    56,793 runs); the results database records them either way.
    """
    nodes, operations, only = discovered.nodes, plan.operations, None
    if rerun is not None:
        nodes, operations, only = rerun.nodes, rerun.operations, rerun.pairs
    plans = plan_operations(operations, plan.loaded.config, plan.registry)  # once
    shards = plan_shards(plan.loaded, plans, nodes, only)
    if shards is not None:
        return await run_shards(
            shards,
            plan.loaded,
            list(operations),
            len(nodes),
            progress=progress or NullProgress(),
            emitter=plan.emitter,
            events_output=_event_output(plan.loaded),
            only=only,
            force=force,
            auto_accept=auto_accept,
            on_stderr=on_stderr,
            details=details,
        )
    coordinator = Coordinator(
        plan.loaded.config,
        plan.project_root,
        registry=plan.registry,
        emitter=plan.emitter,
        progress=progress or NullProgress(),
    )
    coordinator.keep_details = details
    async with coordinator:
        report = await coordinator.analyze(
            nodes, plans, auto_accept=auto_accept, only=only, force=force
        )
    return report, coordinator.sandbox_faulted


def _changes(project_root: Path, report: AnalyzeReport) -> list[Change]:
    store = WorkspaceStore(project_root)
    kept = set(store.ids())
    changes: list[Change] = []
    for outcome in report.outcomes:
        workspace_id = outcome.result.workspace_id
        if workspace_id is None or workspace_id not in kept:
            continue  # nothing to review, or accepted already (auto_accept)
        with store.open(workspace_id) as ws:
            diff = ws.diff()
        changes.append(
            Change(
                workspace_id=workspace_id,
                node=outcome.node.full_name,
                node_id=outcome.node.node_id,
                file_path=outcome.node.file_path,
                operation=outcome.operation,
                summary=outcome.result.summary,
                changed_files=list(outcome.result.changed_files),
                diff=diff,
            )
        )
    return changes


def _model_overrides(model: str | Mapping[str, Any] | None) -> dict[str, Any]:
    if model is None:
        return {}
    if isinstance(model, str):
        return {"model": {"id": model}}
    return {"model": dict(model)}


def _run_to_end(work: Callable[[], Analysis]) -> Analysis:
    """Run ``work`` here, or in a thread when this thread runs an event loop (a notebook)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return work()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(work).result()


async def analyze_async(
    paths: PathLike | Sequence[PathLike] = ".",
    *,
    operations: str | Sequence[str] | None = None,
    model: str | ModelConfig | Mapping[str, Any] | None = None,
    project: PathLike | None = None,
    config: RemoraConfig | Mapping[str, Any] | None = None,
    node_types: str | Collection[NodeType] | None = None,
    force: bool = False,
    auto_accept: bool = False,
) -> Analysis:
    """:func:`analyze` to await in a running event loop: the same arguments and result.

    The configuration, the agents and the discovery of the nodes are read in a worker
    thread, so the loop goes on serving other work meanwhile.
    """
    # The arguments checked strictly, each error naming its argument (config/arguments.py).
    targets = check_paths("paths", paths)
    operations = check_names("operations", operations)
    model = check_model("model", model)
    project = None if project is None else check_path("project", project)
    config = check_config("config", config)
    node_types = cast("list[NodeType] | None", check_names("node_types", node_types))
    force = check_bool("force", force)
    auto_accept = check_bool("auto_accept", auto_accept)
    overrides = {**(config or {}), **_model_overrides(model)}
    if model is not None and config and isinstance(config.get("model"), Mapping):
        overrides["model"] = {**config["model"], **overrides["model"]}
    root = Path(project) if project is not None else None
    plan = await asyncio.to_thread(prepare, targets, operations, overrides=overrides, project=root)
    try:
        discovered = await asyncio.to_thread(find_nodes, plan, node_types)
        report, _ = await run(plan, discovered, auto_accept=auto_accept, force=force)
        changes = await asyncio.to_thread(_changes, plan.project_root, report)
        return Analysis(plan.project_root, report, changes)
    finally:
        plan.emitter.close()


def analyze(
    paths: PathLike | Sequence[PathLike] = ".",
    *,
    operations: str | Sequence[str] | None = None,
    model: str | ModelConfig | Mapping[str, Any] | None = None,
    project: PathLike | None = None,
    config: RemoraConfig | Mapping[str, Any] | None = None,
    node_types: str | Collection[NodeType] | None = None,
    force: bool = False,
    auto_accept: bool = False,
) -> Analysis:
    """Run the agents on every node under ``paths`` and return their results and changes.

    Args:
        paths: files and directories to analyse.
        operations: operation names (``"lint"``, ``["lint", "docstring"]``); default:
            the enabled ones of the configuration.
        model: a model id (embedded: a name from ``remora models``), a
            :class:`remora.ModelConfig`, or a mapping of its keys (``{"provider":
            "openai", "id": ..., "base_url": ...}``, ``{"path": "model.gguf"}``).
        project: the project root (default: found from the first path, as the CLI does).
        config: configuration overrides: a :class:`remora.RemoraConfig`, or a mapping
            nested as in ``remora.yaml``; they win over the file and the environment.
            Of a typed object only the fields it was given count.
        node_types: only these node types (``file``, ``class``, ``function``, ``method``):
            a list, or one string of comma-separated names (``"function,method"``).
        force: run again also what is unchanged since its recorded result.
        auto_accept: write every successful change into the project right away.

    Returns:
        An :class:`Analysis`: ``outcomes`` (one per node × operation) and ``changes``
        (those waiting for review, each with its diff).

    Raises:
        remora.errors.RemoraError: a configuration, usage or model error, with a hint; an
            argument of the wrong type (``auto_accept="no"``, ``paths=123``) is a
            ``UsageError`` naming it, before anything runs.
    """
    run_async = analyze_async(
        paths,
        operations=operations,
        model=model,
        project=project,
        config=config,
        node_types=node_types,
        force=force,
        auto_accept=auto_accept,
    )
    return _run_to_end(lambda: run_main(run_async))
