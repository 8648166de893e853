"""Where a project's root is, and where Remora keeps its state in it."""

from __future__ import annotations

import os
from pathlib import Path

from remora.errors import DiscoveryPathError

__all__ = ["STATE_DIR", "find_project_root", "state_dir"]

STATE_DIR = ".remora"
_ROOT_MARKERS = ("remora.yaml", STATE_DIR, "pyproject.toml", "setup.py", ".git")


def find_project_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding a project marker.

    Falls back to ``start`` itself (or its parent for a file), so a bare folder
    of scripts is its own project.
    """
    # The folder a file lies in, not its symlink's target's: a link to
    # /etc/passwd must not make /etc the project.
    start = Path(os.path.abspath(start))
    try:
        base = (start if start.is_dir() else start.parent).resolve()
    except RuntimeError:  # a symlink loop among the folders
        raise DiscoveryPathError(
            f"{start}: a symlink loop", "remove the loop or pass another path"
        ) from None
    for candidate in (base, *base.parents):
        if any((candidate / marker).exists() for marker in _ROOT_MARKERS):
            return candidate
    return base


def state_dir(project_root: Path) -> Path:
    """``.remora/`` under the project root, created on first use."""
    path = project_root / STATE_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path
