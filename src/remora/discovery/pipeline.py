"""``discover()``: the discovery pipeline, paths in (walk, ignore rules), CSTNodes out (parse)."""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from remora.discovery.extract import FileResult, parse_file
from remora.discovery.ignore import IgnoreRules
from remora.discovery.node import NODE_TYPES, NodeType
from remora.discovery.pool import available_cpus, parse_parallel, should_parallelise
from remora.discovery.queries import load_query_pack
from remora.discovery.result import DiscoveryResult
from remora.discovery.walk import collect_files
from remora.errors import UsageError
from remora.events import Event, EventEmitter

if TYPE_CHECKING:
    from remora.config import DiscoveryConfig

__all__ = ["discover"]


def discover(
    paths: Sequence[Path],
    *,
    project_root: Path,
    config: DiscoveryConfig | None = None,
    node_types: Collection[NodeType] | None = None,
    emitter: EventEmitter | None = None,
) -> DiscoveryResult:
    """Find the files, classes, functions and methods under ``paths``.

    Paths that do not exist raise ``RemoraError`` (DISC_001) before anything is
    read; a bad query pack raises DISC_002. Files that cannot be read, binary
    files and files that are not UTF-8 are skipped with a warning; files with
    syntax errors give what tree-sitter recovers, with a warning. Warnings are
    also emitted as ``discovery_warning`` events, the totals as ``discovery_done``.
    """
    if config is None:
        from remora.config import DiscoveryConfig

        config = DiscoveryConfig()
    started = time.perf_counter()
    types = _check_types(node_types)
    root = project_root.resolve()
    query_dir = config.query_dir
    if query_dir is not None and not query_dir.is_absolute():
        query_dir = root / query_dir
    # Compile here first: a broken pack is one error, not one per worker.
    pack = load_query_pack(config.language, config.query_pack, query_dir)

    rules = IgnoreRules.build(config.ignore)
    files, warnings = collect_files(
        paths or [root], root, rules, use_gitignore=config.use_gitignore
    )
    workers = min(config.workers or available_cpus(), max(len(files), 1))
    results: dict[str, FileResult]
    if should_parallelise(files, workers):
        results = parse_parallel(
            files,
            workers,
            language=config.language,
            pack=config.query_pack,
            query_dir=query_dir,
            node_types=types,
        )
    else:
        workers = 1
        results = {
            f.rel_path: parse_file(Path(f.path), f.rel_path, pack=pack, node_types=types)
            for f in files
        }

    result = DiscoveryResult(warnings=warnings, workers=workers)
    for f in files:
        file_result = results[f.rel_path]
        result.nodes.extend(file_result.nodes)
        result.warnings.extend(file_result.warnings)
        if file_result.skipped:
            result.skipped += 1
        else:
            result.files += 1
    result.seconds = time.perf_counter() - started
    if emitter is not None:
        for warning in result.warnings:
            emitter.emit(Event("discovery_warning", warning.to_dict()))
        emitter.emit(
            Event(
                "discovery_done",
                {
                    "files": result.files,
                    "skipped": result.skipped,
                    "nodes": len(result.nodes),
                    "warnings": len(result.warnings),
                    "workers": result.workers,
                    "seconds": round(result.seconds, 4),
                },
            )
        )
    return result


def _check_types(node_types: Collection[NodeType] | None) -> tuple[NodeType, ...] | None:
    if node_types is None:
        return None
    unknown = sorted(set(node_types) - set(NODE_TYPES))
    if unknown:
        raise UsageError(
            f"unknown node type(s): {', '.join(unknown)}",
            f"use any of {', '.join(NODE_TYPES)}",
        )
    return tuple(t for t in NODE_TYPES if t in node_types)
