"""Words about a change for people who read git history and pull requests.

The subject names the operation and the node; the body what the agent did and
what was checked (tests run, coverage before and after, lint findings left);
the trailers the workspace and the model, as a ``Co-authored-by`` line so
that forges show Remora beside the author.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.results.db import ResultRecord
from remora.results.summary import coverage_line, mutation_line

__all__ = ["REMORA_EMAIL", "checked_line", "commit_message", "model_of", "subject"]

# A reserved domain (RFC 2606): the address names Remora and reaches no one.
REMORA_EMAIL = "remora@noreply.invalid"

_VERBS = {
    "lint": "Fix lint findings in",
    "docstring": "Document",
    "test": "Add tests for",
    "sample_data": "Add sample data for",
}


def subject(operation: str, node: str) -> str:
    """``Add tests for Order.place (remora test)``."""
    verb = _VERBS.get(operation, f"Apply {operation} to")
    return f"{verb} {node} (remora {operation})"


def _count(value: Any) -> int | None:
    return len(value) if isinstance(value, list) else None


def checked_line(record: ResultRecord) -> str:
    """What was checked, from the result's facts: tests and coverage, findings left."""
    details = record.details
    parts: list[str] = []
    passed, failed = details.get("passed"), details.get("failed")
    if isinstance(passed, int) and isinstance(failed, int):
        parts.append(f"{passed} tests passed, {failed} failed (pytest)")
    coverage = coverage_line(details)
    if coverage:
        parts.append(coverage.replace(" · ", ", "))
    mutation = mutation_line(details)
    if mutation:
        parts.append(mutation)
    remaining = _count(details.get("remaining"))
    if record.operation == "lint" and remaining is not None:
        parts.append("no ruff finding left" if remaining == 0 else f"{remaining} findings left")
    return "; ".join(parts)


def model_of(record: ResultRecord | None) -> str:
    transcript = record.details.get("transcript") if record is not None else None
    model = transcript.get("model") if isinstance(transcript, dict) else None
    return model if isinstance(model, str) and model else "unknown model"


def _also_removed(record: ResultRecord) -> list[str]:
    """What the accept removed beyond the change (the imports it made unused), per file."""
    return [
        f"Also removed from {path}: {', '.join(names)} (unused after the change)."
        for path, names in (record.also_removed or {}).items()
    ]


def _paragraph(workspace_id: str, record: ResultRecord | None) -> str:
    if record is None:
        return f"{workspace_id}: (no recorded result)"
    lines = [f"{subject(record.operation, record.node_name)}: {record.summary}".strip()]
    checked = checked_line(record)
    if checked:
        lines.append(f"Checked: {checked}.")
    return "\n".join([*lines, *_also_removed(record)])


def commit_message(changes: Sequence[tuple[str, ResultRecord | None]]) -> str:
    """One change: its subject, what it did and what was checked; several: one line each."""
    records = [r for _, r in changes]
    first = records[0]
    if len(changes) == 1 and first is not None:
        head = subject(first.operation, first.node_name)
        body = [first.summary.strip()] if first.summary.strip() else []
        checked = checked_line(first)
        if checked:
            body.append(f"Checked: {checked}.")
        body += _also_removed(first)
    else:
        head = f"Apply {len(changes)} Remora changes"
        body = [_paragraph(workspace_id, record) for workspace_id, record in changes]
    trailers = [f"Remora-Change: {workspace_id}" for workspace_id, _ in changes]
    models = sorted({model_of(r) for r in records})
    trailers += [f"Co-authored-by: Remora ({model}) <{REMORA_EMAIL}>" for model in models]
    return "\n\n".join([head, *body, "\n".join(trailers)]) + "\n"
