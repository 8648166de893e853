"""Turning what happened into an AgentResult: submissions and degraded summaries."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from remora.runner.agent_result import AgentResult

__all__ = ["KNOWN_SUBMIT_FIELDS", "established", "json_object_in", "submission_result"]

# Submission fields that fill AgentResult itself; all others go to details.
KNOWN_SUBMIT_FIELDS = frozenset({"summary", "status", "details"})
_MAX_FACT_CHARS = 400


def submission_result(submission: dict[str, Any]) -> AgentResult:
    """An accepted submit_result as a success; nothing is dropped.

    ``changed_files`` the model reports stays in details: the result's own
    list comes from the workspace. A ``status`` it reports stays there too
    (``reported_status``): whether the run is skipped is the host's rule
    (:func:`remora.runner.agent_result.settle`), from the workspace, not a claim.
    """
    details: dict[str, Any] = {}
    nested = submission.get("details")
    if isinstance(nested, dict):
        details.update(nested)
    elif nested is not None:
        details["details"] = nested
    for key, value in submission.items():
        if key not in KNOWN_SUBMIT_FIELDS:
            details[key] = value
    if "status" in submission:
        details["reported_status"] = submission["status"]
    summary = submission.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        if summary is not None:
            details["reported_summary"] = summary
        summary = ", ".join(f"{k}={_short(v, 60)}" for k, v in details.items()) or "submitted"
    return AgentResult("success", summary=summary.strip(), details=details)


def _short(value: Any, limit: int = _MAX_FACT_CHARS) -> str:
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call_text(name: str, arguments: dict[str, Any]) -> str:
    args = ", ".join(f"{k}={_short(v, 60)}" for k, v in arguments.items())
    return f"{name}({args})"


def established(
    log: Sequence[tuple[str, dict[str, Any], dict[str, Any]]],
) -> tuple[str, list[dict[str, Any]]]:
    """What the executed tool calls established: a one-paragraph summary and the facts.

    Used when a limit stops a run (``degraded: true``), so a failed result
    still tells the user what is known.
    """
    facts: list[dict[str, Any]] = []
    failures = 0
    for name, arguments, envelope in log:
        if envelope.get("ok"):
            facts.append(
                {"tool": name, "arguments": arguments, "result": _short(envelope.get("result"))}
            )
        else:
            failures += 1
    if not facts:
        text = "No tool call completed"
    else:
        text = "Established by tool calls: " + "; ".join(
            f"{_call_text(f['tool'], f['arguments'])} → {f['result']}" for f in facts
        )
    if failures:
        text += f" ({failures} call(s) failed)"
    return text + ".", facts


def json_object_in(text: str) -> dict[str, Any] | None:
    """A JSON object in ``text`` (optionally in a ``` fence), or None."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").strip()
        if body.startswith("json"):
            body = body[4:]
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
