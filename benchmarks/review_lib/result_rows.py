"""The JSON-lines files the offline benchmarks append their answers to, so a run resumes.

Each line is one answer with its ``key``; a run skips the keys already in the file, and
a report reads every row (the last answer of a key wins).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["done_keys", "result_rows"]


def result_rows(path: Path) -> list[dict[str, Any]]:
    """Every row of the file, in order (a report's input: the file must be there)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def done_keys(path: Path) -> set[str]:
    """The keys the file already answers; none where a run has not written it yet."""
    return {str(row["key"]) for row in result_rows(path)} if path.is_file() else set()
