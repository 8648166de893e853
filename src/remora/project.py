"""Where a project's root is, and where Remora keeps its state in it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from remora.errors import DiscoveryPathError

__all__ = ["STATE_DIR", "check_state_place", "find_project_root", "state_dir"]

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


# Folders of the system, never a project's root: `.remora/` is not made there, even when
# a file in one is named (`remora analyze /etc/passwd` once made /etc/.remora/).
_SYSTEM_FOLDERS = frozenset(
    Path(p)
    for p in (
        "/",
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/home",
        "/lib",
        "/lib32",
        "/lib64",
        "/media",
        "/mnt",
        "/opt",
        "/proc",
        "/root",
        "/run",
        "/sbin",
        "/srv",
        "/sys",
        "/tmp",
        "/usr",
        "/usr/bin",
        "/usr/lib",
        "/usr/local",
        "/usr/sbin",
        "/var",
        "/var/lib",
        "/var/tmp",
    )
)
_SYSTEM_TREES = tuple(Path(p) for p in ("/boot", "/dev", "/etc", "/proc", "/run", "/sys"))
_PYTHON_SUFFIXES = (".py",)


def _has_python(folder: Path) -> bool:
    """Whether a Python file lies under ``folder`` (hidden folders skipped; the first found
    ends the walk)."""
    for _dir, dirs, files in os.walk(folder):
        if any(name.endswith(_PYTHON_SUFFIXES) for name in files):
            return True
        dirs[:] = [d for d in dirs if not d.startswith(".")]
    return False


def check_state_place(root: Path, targets: Sequence[Path]) -> None:
    """Refuse, before anything is written, to keep state in ``root`` for ``targets``:
    a target that is not a Python file or holds none, or a root that is a system folder.

    A project root is a folder with Python files, or one the user named (``--project``);
    either way ``.remora/`` is never made beside a file that is not Python code.
    """
    for target in targets:
        absolute = Path(os.path.abspath(target))
        if absolute.is_symlink() and not absolute.exists():
            raise DiscoveryPathError(
                f"{target} is a broken symlink or a symlink loop",
                "pass the file it should point to",
            )
        if not absolute.exists():
            raise DiscoveryPathError(
                f"path does not exist: {target}",
                "check the path; Remora takes Python files and folders holding them",
            )
        if absolute.is_file() and not absolute.name.endswith(_PYTHON_SUFFIXES):
            raise DiscoveryPathError(
                f"{target} is not a Python file (.py): Remora improves Python code",
                "pass .py files, or folders holding them",
            )
        if absolute.is_dir() and not _has_python(absolute):
            raise DiscoveryPathError(
                f"no Python files (.py) under {target}",
                "pass a folder of Python code; nothing was written",
            )
    resolved = root.resolve()
    if resolved in _SYSTEM_FOLDERS or any(resolved.is_relative_to(t) for t in _SYSTEM_TREES):
        raise DiscoveryPathError(
            f"{resolved} is a system folder, not a project: Remora keeps its state "
            f"({STATE_DIR}/) only in a project's root",
            "run it on a project (a folder with Python files), or name one with --project",
        )


def state_dir(project_root: Path) -> Path:
    """``.remora/`` under the project root, created on first use."""
    path = project_root / STATE_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path
