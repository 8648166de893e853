"""Code actions on a diagnostic or a selected range: accept, accept a hunk, reject, diff, run.

Each action is a command the server executes (``workspace/executeCommand``), so
accepting goes through ``workspace/applyEdit`` against the buffer as it is when
the user picks the action, not as it was when the menu was shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lsprotocol import types

from remora.discovery import CSTNode
from remora.lsp.view import DocumentView, Mark

__all__ = [
    "ACCEPT",
    "ACCEPT_AS_COMMIT",
    "COMMANDS",
    "REFRESH",
    "REJECT",
    "RUN_AGENT",
    "SHOW_DIFF",
    "code_actions",
]

ACCEPT = "remora.accept"
REJECT = "remora.reject"
SHOW_DIFF = "remora.showDiff"
RUN_AGENT = "remora.runAgent"
REFRESH = "remora.refresh"
ACCEPT_AS_COMMIT = "remora.acceptAsCommit"
COMMANDS = (ACCEPT, REJECT, SHOW_DIFF, RUN_AGENT, REFRESH, ACCEPT_AS_COMMIT)

_KIND = types.CodeActionKind.QuickFix


def _action(
    title: str, command: str, arguments: dict[str, Any], diagnostics: list[types.Diagnostic]
) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=_KIND,
        diagnostics=diagnostics or None,
        command=types.Command(title=title, command=command, arguments=[arguments]),
    )


def _change_actions(
    marks: Sequence[Mark], view: DocumentView, commits: bool
) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    seen: set[str] = set()
    diagnostics = {id(m): d for m, d in zip(view.marks, view.diagnostics(), strict=True)}
    for mark in marks:
        change = mark.change
        own = [diagnostics[id(m)] for m in marks if m.change.id == change.id]
        what = f"{change.operation} change to {change.node}"
        total = len(change.hunks)
        if change.id not in seen and not any(m.conflict for m in marks if m.change is change):
            actions.append(
                _action(f"Remora: accept the {what}", ACCEPT, {"change_id": change.id}, own)
            )
            if commits:
                title = f"Remora: accept the {what} as a git commit"
                actions.append(_action(title, ACCEPT_AS_COMMIT, {"change_id": change.id}, own))
        if mark.place is not None and not mark.conflict and total > 1:
            number = mark.place.hunk.number
            actions.append(
                _action(
                    f"Remora: accept hunk {number} of {total} of the {what}",
                    ACCEPT,
                    {"change_id": change.id, "hunk": number},
                    [diagnostics[id(mark)]],
                )
            )
        if change.id in seen:
            continue
        seen.add(change.id)
        actions.append(
            _action(f"Remora: reject the {what}…", REJECT, {"change_id": change.id}, own)
        )
        actions.append(
            _action(
                f"Remora: show the diff of the {what}", SHOW_DIFF, {"change_id": change.id}, own
            )
        )
    return actions


def code_actions(
    view: DocumentView,
    uri: str,
    start_line: int,
    end_line: int,
    operations_for: Callable[[CSTNode], list[str]],
    *,
    commits: bool = False,
) -> list[types.CodeAction]:
    """The actions for the changes under ``[start_line, end_line]`` and the node around it;
    ``commits``: the project is in a git work tree on a branch (accept as a commit too)."""
    actions = _change_actions(view.marks_at(start_line, end_line), view, commits)
    node = view.node_at(start_line)
    if node is not None:
        for operation in operations_for(node):
            title = f"Remora: run {operation} on {node.full_name} now"
            arguments = {"uri": uri, "node_id": node.node_id, "operation": operation}
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.Refactor,
                    command=types.Command(title=title, command=RUN_AGENT, arguments=[arguments]),
                )
            )
    return actions
