"""Shared pieces for the workspace tests."""

from __future__ import annotations

from pathlib import Path

__all__ = ["small_project", "snapshot"]


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (outside .remora) with its bytes."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith(".remora"):
            out[rel] = path.read_bytes()
    return out


def small_project(tmp_path: Path) -> Path:
    """``proj/`` with ``pkg/mod.py`` (a function) and ``README.md``."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "mod.py").write_text("def f():\n    return 1\n")
    (root / "README.md").write_text("# proj\n")
    return root
