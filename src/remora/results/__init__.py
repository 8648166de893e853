"""The results database: runs, agent results and their review states."""

from __future__ import annotations

from remora.results.db import (
    OPEN_STATES,
    SCHEMA_VERSION,
    ResultRecord,
    ResultsDB,
    ReviewState,
    RunRecord,
    review_state,
)

__all__ = [
    "OPEN_STATES",
    "SCHEMA_VERSION",
    "ResultRecord",
    "ResultsDB",
    "ReviewState",
    "RunRecord",
    "review_state",
]
