"""The queue as SARIF 2.1.0: one result per change, its edits as the result's fix.

Code-scanning tools read SARIF (GitHub's code scanning, GitLab, IDE viewers);
a ``fix`` holds each file's replacements with character offsets into the
project's text, so a viewer applies exactly the lines the agent changed.
The log is checked against the OASIS schema in the tests
(``tests/fixtures/sarif/sarif-schema-2.1.0.json``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.delivery.pending import PendingChange, file_edits
from remora.workspace.diff import FileChange, split_lines

__all__ = ["SARIF_SCHEMA", "sarif_log"]

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


def _location(path: str, start: int, end: int) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": start, "endLine": max(start, end)},
        }
    }


def _replacements(file: FileChange) -> list[dict[str, Any]]:
    old_text = file.old.decode("utf-8") if file.old else ""
    if file.status != "modified":
        inserted = file.new.decode("utf-8") if file.new else ""
        region = {"charOffset": 0, "charLength": len(old_text)}
        return [{"deletedRegion": region, "insertedContent": {"text": inserted}}]
    old = split_lines(old_text)
    offsets = [0]
    for line in old:
        offsets.append(offsets[-1] + len(line))
    out = []
    for edit in file_edits(file):
        start = offsets[edit.old_start - 1]
        length = offsets[max(edit.old_end, edit.old_start - 1)] - start
        out.append(
            {
                "deletedRegion": {"charOffset": start, "charLength": length},
                "insertedContent": {"text": "".join(edit.new_lines)},
            }
        )
    return out


def _first_lines(file: FileChange) -> tuple[int, int]:
    if file.status != "modified":
        return 1, 1
    edits = file_edits(file)
    if not edits:
        return 1, 1
    start = max(1, edits[0].old_start)
    return start, max(start, edits[-1].old_end)


def _result(change: PendingChange, prefix: str) -> dict[str, Any]:
    files = [f for f in change.files if not f.binary]
    text = f"{change.title}: {change.summary}" if change.summary else change.title
    if change.checked:
        text += f" Checked: {change.checked}."
    result: dict[str, Any] = {
        "ruleId": change.operation,
        "level": "note",
        "message": {"text": text},
        "locations": [_location(prefix + f.path, *_first_lines(f)) for f in files[:1]],
        "properties": {"workspaceId": change.workspace_id, "model": change.model},
    }
    if files:
        result["fixes"] = [
            {
                "description": {"text": change.title},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": prefix + f.path, "uriBaseId": "%SRCROOT%"},
                        "replacements": _replacements(f),
                    }
                    for f in files
                ],
            }
        ]
    return result


def sarif_log(
    changes: Sequence[PendingChange], *, version: str, prefix: str = ""
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of the pending changes (paths relative to ``%SRCROOT%``)."""
    operations = sorted({c.operation for c in changes})
    rules = [
        {
            "id": op,
            "name": op,
            "shortDescription": {"text": f"a change proposed by Remora's {op} agent"},
        }
        for op in operations
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "Remora",
                        "version": version,
                        "rules": rules,
                    }
                },
                "results": [_result(c, prefix) for c in changes],
            }
        ],
    }
