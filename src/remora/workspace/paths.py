"""Path rules of a workspace: what an agent may name, and what a walk skips.

Every path an agent gives goes through :func:`normalise` before it touches the
disk or the overlay, so ``..`` escapes, absolute paths, symlinks leading out of
the project and Remora's own state are refused in one place (DESIGN §5, §6).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from remora.errors import WORKSPACE_OUTSIDE_PROJECT, RemoraError

__all__ = [
    "PROTECTED_DIRS",
    "SKIP_DIRS",
    "WorkspacePathError",
    "is_skipped",
    "normalise",
    "walk_files",
]

# Never readable or writable through a workspace: Remora's state and git's.
PROTECTED_DIRS = frozenset({".remora", ".git"})
# Left out of walks, copies and read-backs: state, environments and caches that
# a command run in a materialised copy creates and nobody wants to review.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".remora",
        ".venv",
        "__pycache__",
        "node_modules",
        ".pytest_cache",
        ".ruff_cache",
        ".mypy_cache",
    }
)
_SKIP_SUFFIXES = (".pyc", ".pyo")


class WorkspacePathError(RemoraError):
    """A path an agent may not use (WORKSPACE_002)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(
            WORKSPACE_OUTSIDE_PROJECT,
            f"path {path!r} refused: {reason}",
            "use a path relative to the project root that stays inside it",
        )
        self.path = path
        self.reason = reason


def _lexical(rel: str) -> str:
    if not isinstance(rel, str):
        raise WorkspacePathError(repr(rel), "a path must be a string")
    if "\0" in rel:
        raise WorkspacePathError(rel, "contains a NUL byte")
    text = rel.replace("\\", "/") if os.sep == "\\" else rel
    if (
        text.startswith("/")
        or PurePosixPath(text).is_absolute()
        or (len(text) >= 2 and text[1] == ":" and text[0].isalpha())
    ):
        raise WorkspacePathError(rel, "absolute paths are not allowed")
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise WorkspacePathError(rel, "it leaves the project ('..')")
            parts.pop()
            continue
        parts.append(part)
    return "/".join(parts) if parts else "."


def normalise(root: Path, rel: str) -> str:
    """``rel`` as a clean relative posix path inside ``root`` (``"."`` for the root).

    ``root`` must already be resolved. Symlinks on the way are followed on the
    real disk and must land inside the project, outside ``.git``/``.remora``.
    """
    clean = _lexical(rel)
    if clean == ".":
        return clean
    if clean.split("/", 1)[0] in PROTECTED_DIRS:
        raise WorkspacePathError(rel, "Remora's and git's state are off limits")
    real = os.path.realpath(root / clean)
    root_text = str(root)
    if real != root_text and not real.startswith(root_text.rstrip(os.sep) + os.sep):
        raise WorkspacePathError(rel, "a symlink on the way points outside the project")
    inner = os.path.relpath(real, root_text).replace(os.sep, "/")
    if inner.split("/", 1)[0] in PROTECTED_DIRS:
        raise WorkspacePathError(rel, "a symlink on the way points into .git or .remora")
    return clean


def is_skipped(rel: str) -> bool:
    """True for paths that walks leave out (see :data:`SKIP_DIRS`)."""
    parts = rel.split("/")
    return (
        any(p in SKIP_DIRS for p in parts[:-1])
        or parts[-1] in SKIP_DIRS
        or rel.endswith(_SKIP_SUFFIXES)
    )


def walk_files(base: Path, *, follow_inside: Path | None = None) -> Iterator[tuple[str, Path]]:
    """(relative posix path, absolute path) of every regular file under ``base``.

    Skips :data:`SKIP_DIRS`. A symlinked file is yielded only when
    ``follow_inside`` is given and the link resolves to a file inside it; other
    symlinks are left out, so nothing outside the tree leaks in.
    """
    base_text = str(base)
    inside = str(follow_inside) + os.sep if follow_inside is not None else None
    for dirpath, dirnames, filenames in os.walk(base_text):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        rel_dir = os.path.relpath(dirpath, base_text)
        prefix = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
        for name in sorted(filenames):
            if name.endswith(_SKIP_SUFFIXES):
                continue
            full = os.path.join(dirpath, name)
            if os.path.islink(full):
                if inside is None:
                    continue
                target = os.path.realpath(full)
                if not target.startswith(inside) or not os.path.isfile(target):
                    continue
                if target[len(inside) :].split(os.sep, 1)[0] in PROTECTED_DIRS:
                    continue
            elif not os.path.isfile(full):
                continue
            yield prefix + name, Path(full)
