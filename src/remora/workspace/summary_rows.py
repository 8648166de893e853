"""Which rows of ``.remora/summaries.db`` may be used: the cache is checked, never trusted.

A row is what summaries.py keeps of one workspace (its summary, the stats it was read
from, the project files it touches). Anyone who can write the file can write any row,
so a row is used only when it agrees with itself and with where it claims to be:

- every value has its type (strings, lists of strings, counts that are non-negative
  integers, a stat of four integers per source);
- its database is a ``.db`` file in the project's ``.remora/workspaces/``, named for its
  operation and node (``<operation>-<node_id>[-<suffix>].db``, store.py);
- the files it touches are inside the project, one stat each beside the database's two;
- every file it says the change changes is one it touches (the overlay's own paths), and
  every conflicted file one it changes;
- it does not say an accept is under way: that is read from the workspace itself.

A row that fails is dropped (the workspace is read again and the row written anew), never
shown: a forged row cannot put a change to README.md in the queue while the workspace
changes pricing.py, since README.md is not among the files the workspace touches.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any, TypeGuard

__all__ = ["valid_row"]


def _strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _stat(value: Any) -> bool:
    return value is None or (
        isinstance(value, list) and len(value) == 4 and all(type(v) is int for v in value)
    )


def _named_for(db: Path, operation: str, node_id: str) -> bool:
    stem = f"{operation}-{node_id}"
    return db.stem == stem or db.stem.startswith(stem + "-")


def _relative(path: str) -> bool:
    parts = PurePosixPath(path).parts
    return bool(parts) and not PurePosixPath(path).is_absolute() and ".." not in parts


def valid_row(db: str, data: Any, state_dir: Path) -> bool:
    """Whether the row of workspace database ``db`` may be used (see the module's rules);
    ``state_dir`` is the project's ``.remora``."""
    root = state_dir.parent
    database = Path(db)
    if database.parent != state_dir / "workspaces" or database.suffix != ".db":
        return False
    if not isinstance(data, dict):
        return False
    stats, touched, summary = data.get("stats"), data.get("touched"), data.get("summary")
    if not (_strings(touched) and isinstance(stats, list) and isinstance(summary, dict)):
        return False
    if len(stats) != 2 + len(touched) or not all(_stat(found) for found in stats):
        return False
    if not all(Path(path).is_absolute() and Path(path).is_relative_to(root) for path in touched):
        return False
    operation, node_id = summary.get("operation"), summary.get("node_id")
    changed = summary.get("changed_files")
    conflicted = summary.get("conflicted_files", [])
    if not (isinstance(operation, str) and isinstance(node_id, str)):
        return False
    if not (_strings(changed) and _strings(conflicted) and set(conflicted) <= set(changed)):
        return False
    if summary.get("accepting") is not False:
        return False
    if not (_count(summary.get("additions")) and _count(summary.get("deletions"))):
        return False
    touched_paths = {Path(path) for path in touched}
    return _named_for(database, operation, node_id) and all(
        _relative(path) and root / path in touched_paths for path in changed
    )
