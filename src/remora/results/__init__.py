"""The results database: runs, agent results and their review states."""

from __future__ import annotations

from remora.results.db import (
    SCHEMA_VERSION,
    ResultRecord,
    ResultsDB,
    RunRecord,
    is_busy,
    review_state,
)
from remora.results.review_states import OPEN_STATES, ReviewState, new_result_state

__all__ = [
    "OPEN_STATES",
    "SCHEMA_VERSION",
    "ResultRecord",
    "ResultsDB",
    "ReviewState",
    "RunRecord",
    "is_busy",
    "new_result_state",
    "review_state",
]
