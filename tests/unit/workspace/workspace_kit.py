"""Shared pieces for the workspace tests."""

from __future__ import annotations

from pathlib import Path

__all__ = ["snapshot"]


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (outside .remora) with its bytes."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith(".remora"):
            out[rel] = path.read_bytes()
    return out
