"""The review states a result can be in: their names, the open ones, and a new result's.

The vocabulary the results database stores and the review queue
(:mod:`remora.results.review_queue`) moves results through; a module of its own so
that both import it and neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

__all__ = ["OPEN_STATES", "REVIEW_STATES", "ReviewState", "is_open", "new_result_state"]

ReviewState = Literal["pending", "accepted", "rejected", "conflict", "none", "superseded"]
REVIEW_STATES: tuple[ReviewState, ...] = get_args(ReviewState)
# Waiting for a person: a conflict stays open until the user resolves and retries.
OPEN_STATES: tuple[ReviewState, ...] = ("pending", "conflict")


def new_result_state(changed_files: Sequence[str], workspace_id: str | None) -> ReviewState:
    """A result whose changed files wait in a kept workspace is pending; any other has none."""
    return "pending" if changed_files and workspace_id else "none"


def is_open(state: str) -> bool:
    """Still waiting for a person (pending, or a conflict to resolve and retry)."""
    return state in OPEN_STATES
