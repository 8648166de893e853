"""``remora watch``: re-run the operations on the nodes whose text changed.

Saved files arrive in debounced batches (watchfiles). Each changed file is
parsed again; a node is re-run when it is new or its text hash differs from
the last good parse. A file saved with a syntax error mid-edit is reported and
skipped (its last good state is kept), and the watch goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from watchfiles import Change, awatch

from remora.config import RemoraConfig
from remora.coordinator.batch import Coordinator
from remora.coordinator.report import AnalyzeReport
from remora.discovery import IgnoreRules, load_query_pack, parse_source
from remora.discovery.node import CSTNode

__all__ = ["ChangeBatch", "FileSkip", "NodeIndex", "WatchFilter", "examine_changes", "watch_loop"]

_SOURCE_SUFFIX = ".py"


@dataclass(frozen=True, slots=True)
class FileSkip:
    """A changed file that was not analysed (syntax error, unreadable, binary)."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


@dataclass
class ChangeBatch:
    files: list[str] = field(default_factory=list)
    nodes: list[CSTNode] = field(default_factory=list)
    skipped: list[FileSkip] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


class NodeIndex:
    """The text hash of every node, by file, as of each file's last good parse."""

    def __init__(self, nodes: Iterable[CSTNode] = ()) -> None:
        self._files: dict[str, dict[str, str]] = {}
        for node in nodes:
            self._files.setdefault(node.file_path, {})[node.node_id] = node.text_hash

    def __len__(self) -> int:
        return sum(len(v) for v in self._files.values())

    @property
    def files(self) -> list[str]:
        return sorted(self._files)

    def apply(self, rel: str, nodes: Sequence[CSTNode]) -> list[CSTNode]:
        """Record a file's new nodes; the ones that are new or whose text changed."""
        before = self._files.get(rel, {})
        changed = [n for n in nodes if before.get(n.node_id) != n.text_hash]
        self._files[rel] = {n.node_id: n.text_hash for n in nodes}
        return changed

    def forget(self, rel: str) -> bool:
        return self._files.pop(rel, None) is not None


class WatchFilter:
    """watchfiles filter: Python files the discovery would see (ignore rules, .gitignore)."""

    def __init__(self, project_root: Path, config: RemoraConfig) -> None:
        self.root = project_root.resolve()
        rules = IgnoreRules.build([*config.discovery.ignore, *config.watch.ignore])
        gitignore = self.root / ".gitignore"
        if config.discovery.use_gitignore and gitignore.is_file():
            rules = rules.with_gitignore(
                "", gitignore.read_text(encoding="utf-8", errors="replace")
            )
        self.rules = rules

    def relative(self, path: str | Path) -> str | None:
        try:
            return Path(path).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None

    def accepts(self, rel: str) -> bool:
        if not rel.endswith(_SOURCE_SUFFIX):
            return False
        parts = rel.split("/")
        for depth in range(1, len(parts)):
            if self.rules.is_ignored("/".join(parts[:depth]), True):
                return False
        return not self.rules.is_ignored(rel, False)

    def __call__(self, change: Change, path: str) -> bool:
        rel = self.relative(path)
        return rel is not None and self.accepts(rel)


def examine_changes(
    changes: Iterable[tuple[Change, str]],
    index: NodeIndex,
    watch_filter: WatchFilter,
    config: RemoraConfig,
) -> ChangeBatch:
    """Parse the changed files; collect the nodes to re-run and the files skipped."""
    pack = load_query_pack(
        config.discovery.language, config.discovery.query_pack, config.discovery.query_dir
    )
    batch = ChangeBatch()
    paths: dict[str, Path] = {}
    for _change, path in changes:
        rel = watch_filter.relative(path)
        if rel is not None and watch_filter.accepts(rel):
            paths[rel] = Path(path)
    for rel in sorted(paths):
        batch.files.append(rel)
        file_path = paths[rel]
        if not file_path.is_file():
            if index.forget(rel):
                batch.removed.append(rel)
            continue
        try:
            source = file_path.read_bytes()
        except OSError as exc:
            batch.skipped.append(FileSkip(rel, None, f"cannot read: {exc.strerror}"))
            continue
        nodes, warnings = parse_source(source, rel, pack=pack)
        if warnings:
            # Mid-edit: keep the last good state, so the nodes re-run once it parses.
            batch.skipped.extend(
                FileSkip(w.file, w.line, w.message.split("; kept what")[0]) for w in warnings
            )
            continue
        batch.nodes.extend(index.apply(rel, nodes))
    return batch


BatchCallback = Callable[[ChangeBatch, AnalyzeReport | None], Awaitable[None] | None]


async def watch_loop(
    coordinator: Coordinator,
    roots: Sequence[Path],
    operations: Sequence[str],
    index: NodeIndex,
    *,
    on_batch: BatchCallback,
    stop_event: asyncio.Event | None = None,
    auto_accept: bool = False,
) -> None:
    """Until ``stop_event`` (or cancellation): analyse the changed nodes of each batch."""
    config = coordinator.config
    watch_filter = WatchFilter(coordinator.project_root, config)
    async for changes in awatch(
        *roots, watch_filter=watch_filter, debounce=config.watch.debounce_ms, stop_event=stop_event
    ):
        batch = examine_changes(changes, index, watch_filter, config)
        report = None
        if batch.nodes:
            report = await coordinator.analyze(batch.nodes, operations, auto_accept=auto_accept)
        outcome = on_batch(batch, report)
        if outcome is not None:
            await outcome
