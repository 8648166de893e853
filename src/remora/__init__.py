"""Remora: local-first improvement of Python code with small tool-calling models.

The library entry points (docs/library.md)::

    import remora

    analysis = remora.analyze("src/", operations=["docstring"])
    for change in analysis.changes:
        print(change.diff)
    remora.review.accept([analysis.changes[0].workspace_id], project=analysis.project_root)

They are imported on first use, so ``import remora`` stays cheap for the CLI and
for every module below it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remora import review
    from remora.analysis import Analysis, Change, analyze

from remora.version import __version__

__all__ = ["Analysis", "Change", "__version__", "analyze", "review"]

_FROM_ANALYSIS = {"Analysis", "Change", "analyze"}


def __getattr__(name: str) -> Any:
    if name == "review":
        return importlib.import_module("remora.review")
    if name in _FROM_ANALYSIS:
        return getattr(importlib.import_module("remora.analysis"), name)
    raise AttributeError(f"module 'remora' has no attribute {name!r}")
