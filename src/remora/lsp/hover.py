"""Hover on a pending change: its diff and what the agent did (as the review page shows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.lsp.view import Mark
from remora.results.summary import transcript_summary
from remora.workspace.diff import escape_controls

__all__ = ["hover_markdown"]

_MAX_DIFF_LINES = 80


def _tools(tools: Sequence[Any]) -> str:
    names = []
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        name = str(tool.get("name", "?"))
        names.append(name if tool.get("ok", True) else f"{name} (failed)")
    return ", ".join(names) or "not recorded"


def _facts(mark: Mark) -> list[str]:
    summary = transcript_summary(mark.change.record)
    facts = [
        f"- model: {summary.get('model') or 'not recorded'}",
        f"- turns: {summary.get('turns', 0)}",
        f"- tools called: {_tools(summary.get('tools') or [])}",
    ]
    tests = summary.get("tests")
    if tests:
        where = f" ({tests['file']})" if tests.get("file") else ""
        facts.append(f"- tests run: {tests['passed']} passed, {tests['failed']} failed{where}")
        if tests.get("coverage"):
            facts.append(f"- coverage of the node (before -> after): {tests['coverage']}")
        if tests.get("mutation"):
            facts.append(f"- mutation score (before -> after): {tests['mutation']}")
    else:
        facts.append("- tests run: none")
    outcome = str(summary.get("status", ""))
    if summary.get("degraded"):
        outcome += " (stopped by a limit)"
    facts.append(f"- result: {outcome}, {summary.get('duration_s') or 0:.1f} s")
    return facts


def _diff(text: str) -> str:
    lines = escape_controls(text).splitlines()
    if len(lines) > _MAX_DIFF_LINES:
        cut = len(lines) - _MAX_DIFF_LINES
        lines = [*lines[:_MAX_DIFF_LINES], f"... {cut} more line(s): use 'Remora: show the diff'"]
    return "\n".join(lines).replace("```", "`\u200b``")


def hover_markdown(marks: Sequence[Mark]) -> str:
    """One section per change under the cursor."""
    sections: list[str] = []
    first_marks = {m.change.id: m for m in reversed(marks)}  # each change's first mark
    for mark in sorted(first_marks.values(), key=lambda m: (m.first, m.change.id)):
        change = mark.change
        state = "conflict" if mark.conflict else change.record.review_state
        heading = f"**remora {change.operation}** on `{change.node}` ({state}, `{change.id}`)"
        parts = [heading, "", change.record.summary.strip() or "(no summary)"]
        if mark.conflict:
            parts += ["", f"Conflict: {mark.conflict}. It will not be applied."]
        parts += ["", "```diff", _diff(change.diff), "```", "", *_facts(mark)]
        sections.append("\n".join(parts))
    return "\n\n---\n\n".join(sections)
