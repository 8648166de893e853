"""The nodes a branch changed: ``--changed`` for analyze and discover.

A node is picked when a line that differs from the base lies in it and in
none of its nested nodes (a changed method picks the method, not its class;
a changed import picks the file). Lines only removed are placed with the
base's own parse: the base node they were in is picked when it still exists
under the same name, and listed as deleted when it does not. New and
untracked files give all their nodes. A line that is blank in its file
(between two functions) picks nothing. Discovery's ignore rules still apply.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from remora.discovery.extract import parse_source
from remora.discovery.ignore import IgnoreRules
from remora.discovery.node import CSTNode, NodeType
from remora.discovery.pipeline import discover
from remora.discovery.queries import QueryPack, load_query_pack
from remora.discovery.result import DiscoveryResult
from remora.discovery.walk import SOURCE_SUFFIXES
from remora.events import EventEmitter
from remora.git import Base, ChangedFile, changed_files, file_at, repo_top, resolve_base

if TYPE_CHECKING:
    from remora.config import DiscoveryConfig

__all__ = ["ChangedNodes", "discover_changed", "pick_nodes"]


@dataclass
class ChangedNodes:
    """The picked nodes (``result.nodes``), the base they were compared with, what was deleted."""

    base: Base
    staged: bool
    result: DiscoveryResult
    changed_files: list[str] = field(default_factory=list)  # Python files, project-relative
    deleted: list[str] = field(default_factory=list)  # "file::full_name" of removed nodes

    def describe(self) -> str:
        what = "the index" if self.staged else "the work tree"
        return f"{what} against {self.base.label} ({self.base.short})"

    def listing(self, *, each: bool = True) -> list[str]:
        """What was picked, as lines: the count and base, (``each``) each node, the deleted."""
        nodes = self.result.nodes
        lines = [
            f"changed: {len(nodes)} nodes in {len(self.changed_files)} Python files, "
            f"{self.describe()}"
        ]
        for node in nodes if each else []:
            where = f"{node.file_path}:{node.start_line}-{node.end_line}"
            lines.append(f"  {node.node_type} {node.full_name} ({where})")
        if self.deleted:
            lines.append(f"  deleted, left out: {', '.join(self.deleted)}")
        return lines


def _depth(node: CSTNode) -> tuple[int, int, bool]:
    # A file of one function spans the same lines as the function: the function is inner.
    return node.start_line, -node.end_line, node.node_type != "file"


def _innermost(nodes: Sequence[CSTNode], line: int) -> CSTNode | None:
    best: CSTNode | None = None
    for node in nodes:
        if node.start_line <= line <= node.end_line and (
            best is None or _depth(node) > _depth(best)
        ):
            best = node
    return best


def _blank_lines(nodes: Sequence[CSTNode]) -> set[int]:
    """The file's empty lines: adding or removing one between definitions changes no node."""
    text = next((n.text for n in nodes if n.node_type == "file"), "")
    return {number for number, line in enumerate(text.split("\n"), 1) if not line.strip()}


def _lines(ranges: Sequence[tuple[int, int]]) -> set[int]:
    return {line for start, end in ranges for line in range(start, end + 1)}


def pick_nodes(
    nodes: Sequence[CSTNode], base_nodes: Sequence[CSTNode] | None, changed: ChangedFile
) -> tuple[set[str], list[CSTNode]]:
    """(ids of ``nodes`` the change touches, base nodes it deleted) for one file.

    ``nodes`` are the file's nodes now and ``base_nodes`` its nodes in the
    base, parsed under the file's current path so that ids match (None when
    the file is new).
    """
    if changed.status in ("added", "untracked") or base_nodes is None:
        return {n.node_id for n in nodes}, []
    picked = set()
    for line in _lines(changed.added) - _blank_lines(nodes):
        node = _innermost(nodes, line)
        if node is not None:
            picked.add(node.node_id)
    now = {n.node_id for n in nodes}
    deleted = [n for n in base_nodes if n.node_id not in now]
    for line in _lines(changed.removed) - _blank_lines(base_nodes):
        node = _innermost(base_nodes, line)
        if node is not None and node.node_id in now:
            picked.add(node.node_id)
    return picked, deleted


def _ignored(rules: IgnoreRules, rel: str) -> bool:
    parts = rel.split("/")
    folders = ["/".join(parts[: i + 1]) for i in range(len(parts) - 1)]
    return any(rules.is_ignored(d, True) for d in folders) or rules.is_ignored(rel, False)


def _under(path: Path, targets: Sequence[Path]) -> bool:
    return any(path == t or t in path.parents for t in targets)


def discover_changed(
    paths: Sequence[Path],
    *,
    project_root: Path,
    config: DiscoveryConfig | None = None,
    base: str | None = None,
    staged: bool = False,
    node_types: Collection[NodeType] | None = None,
    emitter: EventEmitter | None = None,
) -> ChangedNodes:
    """The nodes under ``paths`` whose lines differ from ``base`` (see the module's docstring).

    ``base`` None: the merge base of HEAD and the default branch, or HEAD with
    ``staged`` (the index then stands for the files: what the next commit holds).
    Errors (no repository, an unknown ref, a shallow clone without the base) are
    ``GitError`` naming the ref and how to fetch it.
    """
    if config is None:
        from remora.config import DiscoveryConfig

        config = DiscoveryConfig()
    root = project_root.resolve()
    top = repo_top(root)
    chosen = resolve_base(top, base, staged=staged)
    targets = [(p if p.is_absolute() else Path.cwd() / p).resolve() for p in paths] or [root]
    rules = IgnoreRules.build(config.ignore)
    files: dict[str, ChangedFile] = {}
    gone: list[tuple[str, ChangedFile]] = []
    deleted: list[str] = []
    for changed in changed_files(top, chosen.sha, staged=staged):
        absolute = top / changed.path
        if not changed.path.endswith(SOURCE_SUFFIXES) or not _under(absolute, targets):
            continue
        if not _under(absolute, [root]):
            continue
        rel = absolute.relative_to(root).as_posix()
        if _ignored(rules, rel):
            continue
        if changed.status == "deleted":
            gone.append((rel, changed))
        elif absolute.is_file():
            files[rel] = changed
    # discover() of no paths would walk the whole project.
    found = (
        discover([root / rel for rel in files], project_root=root, config=config, emitter=emitter)
        if files
        else DiscoveryResult()
    )
    picked: set[str] = set()
    by_file: dict[str, list[CSTNode]] = {}
    for node in found.nodes:
        by_file.setdefault(node.file_path, []).append(node)
    query_dir = config.query_dir
    if query_dir is not None and not query_dir.is_absolute():
        query_dir = root / query_dir
    pack = load_query_pack(config.language, config.query_pack, query_dir)  # as discover()'s
    for rel, changed in files.items():
        nodes = by_file.get(rel, [])
        if staged:  # the lines are the index's: place them in its parse, then match by id
            nodes = _parsed(file_at(top, "", changed.path), rel, pack) or []
        base_nodes = _base_nodes(top, chosen.sha, changed, rel, pack)
        ids, removed = pick_nodes(nodes, base_nodes, changed)
        picked |= ids
        deleted += [f"{rel}::{n.full_name}" for n in removed]
    for rel, changed in gone:
        old = file_at(top, chosen.sha, changed.old_path or changed.path)
        deleted += [f"{rel}::{n.full_name}" for n in _parsed(old, rel, pack) or []]
    types = set(node_types) if node_types else None
    found.nodes = [
        n for n in found.nodes if n.node_id in picked and (types is None or n.node_type in types)
    ]
    return ChangedNodes(chosen, staged, found, sorted(files), sorted(set(deleted)))


def _parsed(source: bytes | None, rel: str, pack: QueryPack) -> list[CSTNode] | None:
    if source is None:
        return None
    nodes, _warnings = parse_source(source, rel, pack=pack)
    return nodes


def _base_nodes(
    top: Path, base: str, changed: ChangedFile, rel: str, pack: QueryPack
) -> list[CSTNode] | None:
    if changed.status in ("added", "untracked") or changed.old_path is None:
        return None
    if not changed.removed:
        return []  # nothing removed: the base's parse is not needed
    return _parsed(file_at(top, base, changed.old_path), rel, pack)
