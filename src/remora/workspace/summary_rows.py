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

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeGuard

__all__ = ["row_check"]


def _strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _stat(value: Any) -> bool:
    return value is None or (
        isinstance(value, list) and len(value) == 4 and all(type(v) is int for v in value)
    )


def _inside(path: str, prefix: str) -> bool:
    """Whether the absolute ``path`` lies under ``prefix`` (a folder and "/"), no ``..``."""
    return path.startswith(prefix) and "/../" not in path and not path.endswith("/..")


def _relative(path: str) -> bool:
    return bool(path) and not path.startswith("/") and ".." not in path.split("/")


# Plain string work, not pathlib: a listing checks every row (21,563 in a large project).
def row_check(state_dir: Path) -> Callable[[str, Any], bool]:
    """Whether a row (its workspace database's path, its data) may be used, for the
    project whose ``.remora`` is ``state_dir`` (as the store names it: resolved)."""
    root, folder = f"{state_dir.parent}/", f"{state_dir}/workspaces/"
    return lambda db, data: _valid(db, data, root, folder)


def _valid(db: str, data: Any, root: str, folder: str) -> bool:
    name = db[len(folder) :]
    if not (db.startswith(folder) and name.endswith(".db") and "/" not in name):
        return False
    if not isinstance(data, dict):
        return False
    stats, touched, summary = data.get("stats"), data.get("touched"), data.get("summary")
    if not (_strings(touched) and isinstance(stats, list) and isinstance(summary, dict)):
        return False
    if len(stats) != 2 + len(touched) or not all(_stat(found) for found in stats):
        return False
    if not all(_inside(path, root) for path in touched):
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
    stem, named = f"{operation}-{node_id}", name.removesuffix(".db")
    if not (named == stem or named.startswith(stem + "-")):
        return False
    paths = set(touched)
    return all(_relative(path) and root + path in paths for path in changed)
