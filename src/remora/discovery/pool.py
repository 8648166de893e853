"""Parsing files in worker processes.

Tree-sitter holds the GIL while it parses, so threads do not help; processes
do once there is enough source to pay for starting them. Workers are forked
when this process runs a single thread (cheapest: nothing to import again);
otherwise they come from a ``forkserver``, because a fork copies other
threads' locks mid-use (the embedded model, asyncio executors). Files go out
in batches balanced by size, and results come back per file.
"""

from __future__ import annotations

import heapq
import multiprocessing
import multiprocessing.context
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from remora.discovery.extract import FileResult, parse_file
from remora.discovery.node import NodeType
from remora.discovery.queries import load_query_pack
from remora.discovery.walk import SourceFile

__all__ = ["BatchJob", "available_cpus", "parse_batch", "parse_parallel", "should_parallelise"]

# Below this much source, starting processes costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000
BATCHES_PER_WORKER = 4

# files (absolute, relative), language, pack, query_dir, node types
BatchJob = tuple[list[tuple[str, str]], str, str, str | None, tuple[NodeType, ...] | None]


def available_cpus() -> int:
    """CPUs this process may run on (the affinity mask, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def should_parallelise(files: Sequence[SourceFile], workers: int) -> bool:
    # A daemonic process (a pool worker itself) may not start children.
    if workers <= 1 or multiprocessing.current_process().daemon:
        return False
    return len(files) >= 2 * workers and sum(f.size for f in files) >= PARALLEL_MIN_BYTES


def parse_batch(job: BatchJob) -> list[tuple[str, FileResult]]:
    """Worker entry point: parse a batch of files with the named query pack."""
    files, language, pack_name, query_dir, node_types = job
    pack = load_query_pack(language, pack_name, Path(query_dir) if query_dir else None)
    return [
        (rel, parse_file(Path(path), rel, pack=pack, node_types=node_types)) for path, rel in files
    ]


def _batches(files: Sequence[SourceFile], count: int) -> list[list[SourceFile]]:
    """Split into ``count`` batches of similar total size (largest files first)."""
    heap: list[tuple[int, int]] = [(0, i) for i in range(count)]
    batches: list[list[SourceFile]] = [[] for _ in range(count)]
    for f in sorted(files, key=lambda f: f.size, reverse=True):
        load, index = heapq.heappop(heap)
        batches[index].append(f)
        heapq.heappush(heap, (load + max(f.size, 1), index))
    # Biggest batches first, so the last to finish are small.
    return [b for b in sorted(batches, key=lambda b: -sum(f.size for f in b)) if b]


def parse_parallel(
    files: Sequence[SourceFile],
    workers: int,
    *,
    language: str,
    pack: str,
    query_dir: Path | None,
    node_types: tuple[NodeType, ...] | None,
) -> dict[str, FileResult]:
    """Parse ``files`` in ``workers`` processes; results keyed by relative path."""
    context: multiprocessing.context.BaseContext
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("fork")
    else:
        context = multiprocessing.get_context("forkserver")
        # Import the parser once in the server; each worker is then a fork of it.
        context.set_forkserver_preload(["remora.discovery.pool"])
    jobs: list[BatchJob] = [
        (
            [(f.path, f.rel_path) for f in batch],
            language,
            pack,
            str(query_dir) if query_dir else None,
            node_types,
        )
        for batch in _batches(files, workers * BATCHES_PER_WORKER)
    ]
    results: dict[str, FileResult] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as executor:
        for batch_result in executor.map(parse_batch, jobs):
            results.update(batch_result)
    return results
