"""What an agent did for one result, as the review page and the editor show it."""

from __future__ import annotations

from typing import Any

from remora.results.db import ResultRecord

__all__ = ["transcript_summary"]


def _tests(details: dict[str, Any]) -> dict[str, Any] | None:
    """The tests the run ran with pytest (the test agent reports them), else None."""
    passed, failed = details.get("passed"), details.get("failed")
    if not isinstance(passed, int) or not isinstance(failed, int):
        return None
    test_file = details.get("test_file")
    return {
        "passed": passed,
        "failed": failed,
        "file": test_file if isinstance(test_file, str) else "",
    }


def transcript_summary(record: ResultRecord | None) -> dict[str, Any]:
    """Model, turns, tools called, tests run (pass/fail), tokens, time and outcome."""
    if record is None:
        return {}
    transcript = record.details.get("transcript")
    transcript = transcript if isinstance(transcript, dict) else {}
    tools = transcript.get("tools")
    return {
        "model": transcript.get("model", ""),
        "turns": record.turns,
        "tools": tools if isinstance(tools, list) else [],
        "tests": _tests(record.details),
        "prompt_tokens": record.usage.get("prompt_tokens"),
        "completion_tokens": record.usage.get("completion_tokens"),
        "duration_s": record.duration_s,
        "status": record.status,
        "degraded": record.degraded,
    }
