"""What an agent did for one result, as the review page and the editor show it."""

from __future__ import annotations

from typing import Any

from remora.results.db import ResultRecord

__all__ = ["coverage_line", "mutation_line", "transcript_summary"]


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
        "coverage": coverage_line(details),
        "mutation": mutation_line(details),
    }


def _counts(value: Any, key: str) -> str | None:
    count = value.get(key) if isinstance(value, dict) else None
    return count if isinstance(count, str) else None


def coverage_line(details: dict[str, Any]) -> str:
    """``branches 0/4 -> 4/4 · lines 0/5 -> 5/5`` from a test run's coverage, else ""."""
    before, after = details.get("coverage_before"), details.get("coverage_after")
    parts = []
    for key in ("branches", "lines"):
        now = _counts(after, key)
        if now is None:
            continue
        was = _counts(before, key)
        parts.append(f"{key} {was} -> {now}" if was is not None else f"{key} {now}")
    return " · ".join(parts)


def _killed(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    killed, total = value.get("killed"), value.get("total")
    if not isinstance(killed, int) or not isinstance(total, int):
        return None
    return f"{killed}/{total}"


def mutation_line(details: dict[str, Any]) -> str:
    """``mutants killed 0/7 -> 5/7`` from a test run's mutation check, else "" (the
    score is killed/total: mutants of the node some test fails, of those it has)."""
    now = _killed(details.get("mutation_after"))
    if now is None:
        return ""
    was = _killed(details.get("mutation_before"))
    return f"mutants killed {was} -> {now}" if was is not None else f"mutants killed {now}"


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
