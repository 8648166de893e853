"""Path rules of a workspace: what an agent may name, and what a walk skips.

Every path an agent gives goes through :func:`normalise` before it touches the
disk or the overlay, so ``..`` escapes, absolute paths, symlinks leading out of
the project and Remora's own state are refused in one place.
"""

from __future__ import annotations

import functools
import os
import stat
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

from remora.errors import OutsideProjectError

__all__ = [
    "PROTECTED_DIRS",
    "SKIP_DIRS",
    "WorkspacePathError",
    "is_skipped",
    "lexical",
    "normalise",
    "project_entries",
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
# Path limits a workspace enforces (Linux allows 255-byte names, 4096-byte paths).
MAX_PATH_DEPTH = 32
MAX_PATH_BYTES = 1024
MAX_NAME_BYTES = 255


class WorkspacePathError(OutsideProjectError):
    """A path an agent may not use (WORKSPACE_002)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(
            f"path {path!r} refused: {reason}",
            "use a path relative to the project root that stays inside it",
        )
        self.path = path
        self.reason = reason


def lexical(rel: str) -> str:
    """``rel`` as a clean relative posix path, checked on its text alone (no symlink followed;
    :func:`normalise` does both)."""
    if not isinstance(rel, str):
        raise WorkspacePathError(repr(rel), "a path must be a string")
    return _lexical(rel)


# The text alone decides: a run asks about the same few paths again and again.
@functools.lru_cache(maxsize=4096)
def _lexical(rel: str) -> str:
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
    _check_shape(rel, parts)
    return "/".join(parts) if parts else "."


def _check_shape(rel: str, parts: list[str]) -> None:
    """Refuse paths no file system or reviewer should get: too long, too deep, odd names.

    Checked where a path enters a workspace, so a bad one never reaches accept
    (where ``mkdir`` of 1200 nested folders once overflowed the stack).
    """
    if len(parts) > MAX_PATH_DEPTH:
        raise WorkspacePathError(rel[:80] + "...", f"deeper than {MAX_PATH_DEPTH} folders")
    try:
        encoded = [part.encode("utf-8") for part in parts]
    except UnicodeEncodeError:
        raise WorkspacePathError(repr(rel), "not valid UTF-8 (a lone surrogate)") from None
    if sum(len(part) + 1 for part in encoded) > MAX_PATH_BYTES:
        raise WorkspacePathError(rel[:80] + "...", f"longer than {MAX_PATH_BYTES} bytes")
    for part, raw in zip(parts, encoded, strict=True):
        if len(raw) > MAX_NAME_BYTES:
            raise WorkspacePathError(
                rel[:80] + "...", f"a name is longer than {MAX_NAME_BYTES} bytes"
            )
        if any(unicodedata.category(char) == "Cc" for char in part):
            # ESC, CR, ... in a name can hide text when the name is printed for review
            raise WorkspacePathError(repr(rel), "a name contains a control character")


def normalise(root: Path, rel: str) -> str:
    """``rel`` as a clean relative posix path inside ``root`` (``"."`` for the root).

    ``root`` must already be resolved. Symlinks on the way are followed on the
    real disk and must land inside the project, outside ``.git``/``.remora``.
    """
    clean = lexical(rel)
    if clean == ".":
        return clean
    if clean.split("/", 1)[0] in PROTECTED_DIRS:
        raise WorkspacePathError(rel, "Remora's and git's state are off limits")
    root_text = str(root)
    if not _link_under(root_text, clean):
        return clean  # nothing to follow: the clean path is where it lands
    real = os.path.realpath(root / clean)
    if real != root_text and not real.startswith(root_text.rstrip(os.sep) + os.sep):
        raise WorkspacePathError(rel, "a symlink on the way points outside the project")
    inner = os.path.relpath(real, root_text).replace(os.sep, "/")
    if inner.split("/", 1)[0] in PROTECTED_DIRS:
        raise WorkspacePathError(rel, "a symlink on the way points into .git or .remora")
    return clean


def _link_under(root_text: str, clean: str) -> bool:
    """Whether a component of ``clean`` below ``root_text`` is a symlink on disk.

    Without one, ``realpath`` of the joined path is the path itself: an ``lstat`` per
    component under the resolved root instead of ``realpath``'s walk from ``/`` in Python
    (13 instead of 37 µs a call; every read, write and existence check of a workspace asks).
    """
    path = root_text
    for part in clean.split("/"):
        path = os.path.join(path, part)
        try:
            mode = os.lstat(path).st_mode
        except OSError:  # as realpath (not strict): nothing there or below it to follow
            return False
        if stat.S_ISLNK(mode):
            return True
    return False


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


def project_entries(root: Path, clean: str, safe_path: Callable[[str], str]) -> set[str]:
    """The entries of the project folder ``clean`` a workspace shows ("name/" for folders):
    Remora's state, environments and caches left out, and a link that leads outside
    the project (``safe_path`` refuses it)."""
    entries: set[str] = set()
    folder = root if clean == "." else root / clean
    if not folder.is_dir():
        return entries
    for entry in os.scandir(folder):
        if entry.name in SKIP_DIRS or is_skipped(entry.name):
            continue
        child = entry.name if clean == "." else f"{clean}/{entry.name}"
        try:
            # a plain entry of a resolved folder is inside: its name is checked
            (safe_path if entry.is_symlink() else lexical)(child)
        except WorkspacePathError:
            continue
        if entry.is_dir():
            entries.add(entry.name + "/")
        elif entry.is_file():
            entries.add(entry.name)
    return entries
