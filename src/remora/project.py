"""Where a project's root is, and where Remora keeps its state in it."""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATE_DIR", "find_project_root", "state_dir"]

STATE_DIR = ".remora"
_ROOT_MARKERS = ("remora.yaml", STATE_DIR, "pyproject.toml", "setup.py", ".git")


def find_project_root(start: Path) -> Path:
    """The nearest directory at or above ``start`` holding a project marker.

    Falls back to ``start`` itself (or its parent for a file), so a bare folder
    of scripts is its own project.
    """
    start = start.resolve()
    base = start if start.is_dir() else start.parent
    for candidate in (base, *base.parents):
        if any((candidate / marker).exists() for marker in _ROOT_MARKERS):
            return candidate
    return base


def state_dir(project_root: Path) -> Path:
    """``.remora/`` under the project root, created on first use."""
    path = project_root / STATE_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path
