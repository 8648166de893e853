"""Labelled docstring summaries scored by the embedded model, and how well a score sorts them.

The offline measurements of a second opinion on drafted summaries (``docstring_self_check.py``,
``docstring_sureness.py``) share what they score (each labelled change of the kept exports
that today's checks do not refuse), the model they load, how they compare the scores of two
groups (the AUC) and how they print each scored change.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from remora.providers.llama_engine import EngineKey, load_server
from remora.providers.model_store import ensure_model
from review_lib.summary_checks import CheckedChange, checked_changes

__all__ = ["auc", "model_server", "scored_rows", "unrefused_changes"]


def unrefused_changes(exports: Path) -> list[CheckedChange]:
    """Every labelled docstring change of the exports under ``exports`` (projects in name
    order) whose summary today's checks let through."""
    projects = sorted(p.name for p in exports.iterdir() if p.is_dir() and p.name != "_meta")
    return [c for project in projects for c in checked_changes(exports, project) if not c.refusal]


def model_server(model: str) -> tuple[Any, Path]:
    """An xllamacpp server of the catalogue model ``model`` (one slot of 4096 tokens) and
    the model's file."""
    path = ensure_model(model)
    key = EngineKey.create(path, 1, 4096, None)
    return load_server(key, port=0, api_key=secrets.token_hex(16)), path


def auc(high: list[float], low: list[float]) -> float | None:
    """The chance a random score of ``high`` is above a random one of ``low`` (ties half)."""
    pairs = [(a > b) + 0.5 * (a == b) for a in high for b in low]
    return sum(pairs) / len(pairs) if pairs else None


def scored_rows(scored: list[tuple[CheckedChange, float]], key: str) -> list[dict[str, Any]]:
    """Each scored change as the reports print it, its score under ``key``."""
    return [
        {
            "project": c.project,
            "node": c.node,
            "verdict": c.verdict,
            "category": c.category,
            "summary": c.summary,
            key: s,
        }
        for c, s in scored
    ]
