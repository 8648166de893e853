"""Host processes for ``remora analyze``: the nodes sharded by file over N processes.

With a model server the model is not the limit: Remora's own work per run is
(parses, ruff, the sandbox's host calls, workspaces, records, the HTTP client),
and one process does it on one core. ``sandbox.host_processes`` (``--processes``)
runs N processes of the coordinator, each on a shard of the files, so the host
work takes N cores. This module plans that (pure: no process is started here):
how many processes, which files each takes, each one's share of ``-j``. Every
server's ``max_in_flight`` holds in total: the processes share its slots
(:mod:`remora.providers.shared_slots`). The shards are run by
:mod:`remora.coordinator.shard_parent`: the first in the command's own process, each
other in a child process.

Whole files per shard where they fit: the per-file caches (the parse of a file,
its ruff findings) stay in one process. A file heavier than a process's share is
cut into runs of its nodes (each process that has some parses it). Every node
is run by one process, so its workspaces are touched by that process only (a
supersede never races another). Only models served over
HTTP (``provider: openai``) are sharded: the embedded model is one model in
memory (a process each would load it again), and the other providers' clients
keep their own limits that N processes could not share.
"""

from __future__ import annotations

import collections
import heapq
import math
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from remora.config import ModelConfig, RemoraConfig
from remora.config.loading import LoadedConfig
from remora.coordinator.concurrency import agents_at_once
from remora.coordinator.tasks import OperationPlan, Task, plan_tasks
from remora.discovery.node import CSTNode
from remora.errors import UsageError
from remora.providers.shared_slots import SlotsSpec

__all__ = [
    "AUTO_MAX_PROCESSES",
    "LINES_PER_RUN",
    "MIN_RUNS_PER_PROCESS",
    "POOL_SHARE",
    "SHARD_CRASHED",
    "FilePool",
    "Shard",
    "ShardPlan",
    "ShardSpec",
    "hold_back",
    "host_processes",
    "jobs_per_process",
    "nodes_by_file",
    "partition",
    "plan_shards",
]

# `auto`: one process per CPU, at most this many (each holds its own copies of the
# parse caches and sandbox workers: ~150-250 MB of RSS).
AUTO_MAX_PROCESSES = 8
# `auto` starts another process only for this many runs more: a process costs
# ~0.6 s of CPU to start (imports, the sandbox's fork server) against ~40 ms a run.
MIN_RUNS_PER_PROCESS = 150
# A run's host work grows with its file: fitted on click's two shards (36.6 and 26.0
# CPU-s; 897 and 885 runs), ~22 ms plus ~0.01 ms per line of the file, so a run on a
# file of this many lines weighs twice one on a short file (click's core.py: 3,042).
LINES_PER_RUN = 2000
# The lightest files, up to this share of the weight, are not planned: a process that ran
# out of work takes the next (the heaviest left), so the processes end together however
# far a file's weight was off (click's two planned shards ended 3.5 s apart of 17).
POOL_SHARE = 0.3
# The error code of a run whose host process ended before the run did.
SHARD_CRASHED = "SHARD_CRASHED"

ProcessesSetting = int | Literal["auto"]


@dataclass(frozen=True, slots=True)
class Shard:
    """One process's part: whole files (or runs of a heavy file's nodes), its nodes in
    discovery order, their weight (the expected host work: runs weighed by their file's
    length)."""

    index: int
    files: tuple[str, ...]
    nodes: tuple[CSTNode, ...]
    weight: float


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """What the parent runs: the batch's plans and tasks (single-process order), the shards."""

    plans: dict[str, OperationPlan]
    tasks: list[Task]
    shards: list[Shard]
    total_jobs: int
    # The files handed out as processes ask for more, in that order; their nodes.
    pool: tuple[str, ...] = ()
    pool_nodes: tuple[CSTNode, ...] = ()

    @property
    def jobs(self) -> int:
        """``-j`` of each process: the total's share, rounded up."""
        return jobs_per_process(self.total_jobs, len(self.shards))


class FilePool:
    """The plan's pool: its files handed out one at a time, the heaviest first."""

    def __init__(self, plan: ShardPlan) -> None:
        self._files = collections.deque(plan.pool)
        self._tasks: dict[str, list[Task]] = {path: [] for path in plan.pool}
        for task in plan.tasks:
            if task.node.file_path in self._tasks:
                self._tasks[task.node.file_path].append(task)
        self._nodes = nodes_by_file(plan.pool_nodes)

    def hand_out(self, tasks: list[Task]) -> list[str]:
        """The next file (none when the pool is empty); its tasks are added to ``tasks``."""
        if not self._files:
            return []
        path = self._files.popleft()
        tasks.extend(self._tasks[path])
        return [path]

    def nodes(self, files: Iterable[str]) -> list[CSTNode]:
        return [node for path in files for node in self._nodes[path]]


@dataclass(frozen=True, slots=True)
class ShardSpec:
    """What a shard process is given, in a temp file (a node list does not fit a command line)."""

    index: int
    count: int
    run_id: str
    loaded: LoadedConfig
    operations: list[str]
    nodes: list[CSTNode]
    only: frozenset[tuple[str, str]] | None
    force: bool
    jobs: int
    events_output: str
    # False: each outcome goes to the parent without its details (a table shows none).
    details: bool
    # The write end of the pipe its progress, results and server states go to.
    progress_fd: int
    # The nodes of the files it may be handed when it asks for more (ShardPlan.pool).
    pool_nodes: list[CSTNode]
    # The servers' slots, shared by all the processes.
    slots: SlotsSpec


def partition(
    nodes: Sequence[CSTNode], count: int, weights: Mapping[str, float] | None = None
) -> list[Shard]:
    """At most ``count`` shards of whole files, balanced by weight (default: nodes).

    The heaviest file goes first to the lightest shard (longest processing time
    first: within 4/3 of the best balance). A file half again heavier than a shard's
    fair share (the total over ``count``) would leave its process running alone long
    after the others ended, so it is cut into runs of consecutive nodes of at most
    half that share each, shared out as files are (SQLAlchemy's ``compiler.py`` is a
    tenth of its ``sql``, ``orm`` and ``engine``). The lightest shard comes first: the
    parent runs it beside reading every other shard's results. Nodes keep their
    discovery order within a shard; an empty shard (fewer nodes than ``count``) is
    left out.
    """
    if count < 1:
        raise ValueError(f"count must be 1 or more, got {count}")
    by_file = nodes_by_file(nodes)

    def weight(path: str) -> float:
        return len(by_file[path]) if weights is None else weights.get(path, 0.0)

    fair = sum(map(weight, by_file)) / count
    pieces: list[tuple[float, list[CSTNode]]] = []  # (weight, nodes), in discovery order
    for path, file_nodes in by_file.items():
        whole = weight(path)
        cuts = 1
        if whole > 1.5 * fair > 0:  # a little over is the pool's to even out
            cuts = min(count, len(file_nodes), math.ceil(2 * whole / fair))
        size = -(-len(file_nodes) // cuts)
        for start in range(0, len(file_nodes), size):
            part = file_nodes[start : start + size]
            pieces.append((whole * len(part) / len(file_nodes), part))
    loads = [(0.0, index) for index in range(count)]
    assigned: list[list[int]] = [[] for _ in range(count)]
    for piece in sorted(range(len(pieces)), key=lambda i: (-pieces[i][0], i)):
        load, index = heapq.heappop(loads)
        assigned[index].append(piece)
        heapq.heappush(loads, (load + pieces[piece][0], index))
    filled = sorted(
        (sum(pieces[i][0] for i in chosen), sorted(chosen)) for chosen in assigned if chosen
    )
    shards: list[Shard] = []
    for load, chosen in filled:
        shard_nodes = tuple(node for i in chosen for node in pieces[i][1])
        files = tuple(dict.fromkeys(node.file_path for node in shard_nodes))
        shards.append(Shard(len(shards), files, shard_nodes, load))
    return shards


def nodes_by_file(nodes: Iterable[CSTNode]) -> dict[str, list[CSTNode]]:
    """Each file's nodes, in their order; the files in the order their first node came."""
    by_file: dict[str, list[CSTNode]] = {}
    for node in nodes:
        by_file.setdefault(node.file_path, []).append(node)
    return by_file


def hold_back(
    nodes: Sequence[CSTNode], count: int, weights: Mapping[str, float], share: float = POOL_SHARE
) -> tuple[list[CSTNode], tuple[str, ...]]:
    """(the nodes to partition, the files to hand out on demand, heaviest first).

    The lightest files go to the pool while it holds at most ``share`` of the weight
    and at least ``count`` files are left to partition.
    """
    files = list(dict.fromkeys(node.file_path for node in nodes))
    limit = share * sum(weights.get(path, 0.0) for path in files)
    pool: list[str] = []
    held = 0.0
    for path in sorted(files, key=lambda p: weights.get(p, 0.0)):
        held += weights.get(path, 0.0)
        if held > limit or len(files) - len(pool) <= count:
            break
        pool.append(path)
    pooled = set(pool)
    return [node for node in nodes if node.file_path not in pooled], tuple(reversed(pool))


def jobs_per_process(total: int, count: int) -> int:
    return -(-total // count)


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def host_processes(
    setting: ProcessesSetting,
    models: Iterable[tuple[str, ModelConfig]],
    *,
    files: int,
    runs: int,
    jobs: int,
    cpus: int | None = None,
) -> int:
    """How many host processes run the batch (1: the coordinator in this process, as always).

    ``models``: (operation, model) of each operation that runs. A number above 1 with
    a model that is not served over HTTP is refused (a usage error naming it); ``auto``
    then stays at 1. Never more processes than files (whole files per shard), agents
    at once (``jobs``) or, for ``auto``, CPUs and runs / :data:`MIN_RUNS_PER_PROCESS`.
    """
    if setting == 1:
        return 1
    chosen = list(models)
    local = [(operation, model) for operation, model in chosen if model.provider != "openai"]
    if setting == "auto":
        if not chosen or local:
            return 1
        wanted = min(cpus or _usable_cpus(), AUTO_MAX_PROCESSES, runs // MIN_RUNS_PER_PROCESS)
    else:
        if local:
            raise _refusal(setting, *local[0])
        wanted = setting
    return max(1, min(wanted, files, jobs))


def _refusal(count: int, operation: str, model: ModelConfig) -> UsageError:
    what = f"operation {operation!r} uses the {model.provider} model {model.id!r}"
    if model.provider == "embedded":
        why = "one model in memory, which each process would load again"
        hint = (
            "use --processes 1 (sandbox.host_processes: 1) with the embedded model; to "
            "shard, serve it once (`remora models serve`) and use it as provider openai"
        )
    else:
        why = "its client's limits are per process and would not hold over several"
        hint = (
            "use --processes 1 (sandbox.host_processes: 1) with this model; only "
            "provider openai (a vLLM or llama.cpp server) is sharded"
        )
    return UsageError(
        f"--processes {count} (sandbox.host_processes) shards analyze over {count} host "
        f"processes, but {what}: {why}",
        hint,
    )


def plan_shards(
    loaded: LoadedConfig,
    plans: Mapping[str, OperationPlan],
    nodes: Sequence[CSTNode],
    only: Collection[tuple[str, str]] | None = None,
    *,
    cpus: int | None = None,
) -> ShardPlan | None:
    """The shards for ``sandbox.host_processes``, or None when one process runs the batch.

    ``plans``: the batch's operations as :func:`~remora.coordinator.tasks.plan_operations`
    made them, once, for this and for the coordinator that runs the batch.
    """
    config: RemoraConfig = loaded.config
    setting = config.sandbox.host_processes
    if setting == 1:
        return None  # one process: no task is planned here, the coordinator plans them
    tasks = plan_tasks(nodes, dict(plans))
    if only is not None:
        tasks = [t for t in tasks if (t.node.node_id, t.operation) in only]
    runnable = [t for t in tasks if t.runnable]
    models = [
        (name, plan.model)
        for name, plan in plans.items()
        if plan.model is not None and any(t.operation == name for t in runnable)
    ]
    runs: dict[str, int] = {}
    for task in runnable:
        runs[task.node.file_path] = runs.get(task.node.file_path, 0) + 1
    lines: dict[str, int] = {}  # a file's length: its last node's end (the file node's)
    for node in nodes:
        lines[node.file_path] = max(lines.get(node.file_path, 0), node.end_line)
    weights = {path: n * (1 + lines[path] / LINES_PER_RUN) for path, n in runs.items()}
    total_jobs = agents_at_once(config, (plan.model for plan in plans.values()))
    count = host_processes(
        setting, models, files=len(runs), runs=len(runnable), jobs=total_jobs, cpus=cpus
    )
    if count <= 1:
        return None
    # Node-major tasks: each node once, in order (by id: hashing a node hashes its text).
    shard_nodes = list({t.node.node_id: t.node for t in tasks}.values())
    planned, pool = hold_back(shard_nodes, count, weights)
    pooled = set(pool)
    pool_nodes = tuple(node for node in shard_nodes if node.file_path in pooled)
    shards = partition(planned, count, weights)
    return ShardPlan(dict(plans), tasks, shards, total_jobs, pool, pool_nodes)
