"""``workspace/executeCommand``: accept (whole, one hunk, or as a git commit), reject, show the
diff, run an agent.

Arguments are one JSON object (``{"change_id": ..., "hunk": 2}``), as the code
actions send them; an editor's own key binding may pass the same object.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.uris import from_fs_path

from remora.code.lint.accepted_files import tidy_accepted
from remora.delivery.commits import accept_as_commits
from remora.discovery import load_query_pack, parse_source
from remora.errors import WorkspaceNotFoundError
from remora.lsp.actions import ACCEPT, ACCEPT_AS_COMMIT, REFRESH, REJECT, RUN_AGENT, SHOW_DIFF
from remora.lsp.agent_runs import run_agents
from remora.lsp.editing import AcceptConflict, EditCapabilities, EditPlan, OpenText, plan_accept
from remora.lsp.features import as_lsp_errors, operations_for
from remora.lsp.open_projects import Project
from remora.lsp.queue import PendingChange, find_node
from remora.lsp.server import RemoraLanguageServer
from remora.project import STATE_DIR, state_dir
from remora.results import ResultsDB
from remora.results.review_queue import accepted_in_editor, reject

__all__ = ["REJECT_CHOICES", "register_commands"]

# window/showMessageRequest offers choices, not free text: these, or pass "reason".
REJECT_CHOICES = {
    "Reject: the change is wrong": "the change is wrong",
    "Reject: not wanted here": "not wanted here",
    "Reject without a reason": "",
}
_CANCEL = "Cancel"


def _arguments(args: tuple[Any, ...], command: str) -> dict[str, Any]:
    if len(args) == 1 and isinstance(args[0], Mapping):
        return dict(args[0])
    if args and isinstance(args[0], str):  # ("change id", ...) from a hand-written binding
        return {"change_id": args[0], **({"extra": args[1]} if len(args) > 1 else {})}
    raise JsonRpcInvalidParams(
        message=f'{command} takes one object argument, e.g. {{"change_id": "lint-..."}}'
    )


def _text(arguments: Mapping[str, Any], key: str, command: str) -> str:
    value = arguments.get(key)
    if not isinstance(value, str) or not value:
        raise JsonRpcInvalidParams(message=f"{command}: argument {key!r} (a string) is missing")
    return value


def _find_change(ls: RemoraLanguageServer, change_id: str) -> tuple[Project, PendingChange]:
    """The open change ``change_id`` in one of the projects the editor has open."""
    projects = ls.projects.all()
    if projects and not any((p.root / STATE_DIR).is_dir() for p in projects):
        roots = ", ".join(str(p.root) for p in projects)
        raise WorkspaceNotFoundError(
            f"no changes to review in {roots} (no {STATE_DIR}/)",
            "run `remora analyze` there first",
        )
    for project in projects:
        project.queue.refresh()
        change = project.queue.get(change_id)
        if change is not None:
            return project, change
    raise WorkspaceNotFoundError(
        f"no pending change {change_id!r}",
        "it may have been accepted or rejected already; `remora review` lists the open ones",
    )


def _plan(
    project: Project,
    change: PendingChange,
    hunk: int | None,
    open_text: OpenText,
    encoding: str,
    capabilities: EditCapabilities,
) -> EditPlan:
    """:func:`plan_accept` with the accept's tidy hook, as every accept has it (it runs ruff:
    called in a thread of its own, the server answering meanwhile)."""
    with project.queue.store.open(change.id) as ws:
        return plan_accept(
            project.root,
            change,
            hunk,
            open_text,
            encoding,
            capabilities,
            lambda path, before, after: tidy_accepted(ws, path, before, after),
        )


async def _accept(ls: RemoraLanguageServer, arguments: dict[str, Any]) -> dict[str, Any]:
    change_id = _text(arguments, "change_id", ACCEPT)
    hunk = arguments.get("hunk")
    if hunk is not None and (not isinstance(hunk, int) or isinstance(hunk, bool) or hunk < 1):
        raise JsonRpcInvalidParams(message=f"{ACCEPT}: 'hunk' must be a hunk number from 1")
    project, change = _find_change(ls, change_id)
    try:
        plan = await asyncio.to_thread(
            _plan, project, change, hunk, ls.open_text(project), ls.encoding, ls.edit_capabilities
        )
    except ValueError as exc:
        raise JsonRpcInvalidParams(message=str(exc)) from exc
    except AcceptConflict as conflict:
        ls.tell(str(conflict), types.MessageType.Warning)
        ls.reload(project)
        return {"applied": False, "change_id": change_id, "conflicts": conflict.reasons}
    label = f"remora: accept {change.operation} change to {change.node}"
    result = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(plan.workspace_edit(ls.edit_capabilities), label=label)
    )
    if not result.applied:
        reason = result.failure_reason or "no reason given"
        ls.tell(f"remora: the editor did not apply the change ({reason}); nothing was recorded")
        return {"applied": False, "change_id": change_id, "conflicts": [reason]}
    with ResultsDB(project.root) as db:
        accepted_in_editor(project.queue.store, db, change_id, plan.hunks, plan.also_removed)
    ls.reload(project)
    for note in plan.notes():
        ls.tell(f"remora: {note}")
    return {
        "applied": True,
        "change_id": change_id,
        "hunks": plan.hunks,
        "also_removed": plan.also_removed,
        "unchecked": plan.unchecked,
    }


async def _accept_as_commit(ls: RemoraLanguageServer, arguments: dict[str, Any]) -> dict[str, Any]:
    """Write the change into its files and commit exactly them, as `review accept --commit`.

    The files are written on disk, not in the editor's buffers: one open with unsaved
    edits is refused (save it, or accept into the buffer with remora.accept).
    """
    change_id = _text(arguments, "change_id", ACCEPT_AS_COMMIT)
    project, change = _find_change(ls, change_id)
    opened = ls.open_text(project)
    unsaved = []
    for file in change.files:
        buffer, disk = opened(file.path), project.root / file.path
        if buffer is not None and (not disk.is_file() or buffer[0] != disk.read_text("utf-8")):
            unsaved.append(f"{file.path} has unsaved edits: save it first")
    if unsaved:
        ls.tell("; ".join(unsaved), types.MessageType.Warning)
        return {"applied": False, "change_id": change_id, "conflicts": unsaved}
    [outcome] = await asyncio.to_thread(accept_as_commits, [change_id], project=project.root)
    ls.reload(project)
    if outcome.error is not None:
        ls.tell(outcome.error.message, types.MessageType.Warning)
        return {"applied": False, "change_id": change_id, "conflicts": [outcome.error.message]}
    ls.tell(f"remora: committed {change.operation} change to {change.node} as {outcome.commit}")
    return {"applied": True, "change_id": change_id, "commit": outcome.commit}


async def _reason(ls: RemoraLanguageServer, change: PendingChange) -> str | None:
    """Ask which reason; None when the user cancels."""
    params = types.ShowMessageRequestParams(
        type=types.MessageType.Info,
        message=f"Reject the {change.operation} change to {change.node}? "
        "The reason is told to the agent's next run.",
        actions=[types.MessageActionItem(title) for title in (*REJECT_CHOICES, _CANCEL)],
    )
    try:
        picked = await ls.window_show_message_request_async(params)
    except JsonRpcException as exc:  # an editor without window/showMessageRequest
        raise JsonRpcInvalidParams(
            message=f"the editor could not ask for a reason ({exc.message}): pass "
            f'{{"change_id": "{change.id}", "reason": "..."}} or run '
            f"`remora review reject {change.id} --reason ...`"
        ) from exc
    if picked is None or picked.title not in REJECT_CHOICES:
        return None
    return REJECT_CHOICES[picked.title]


async def _reject(ls: RemoraLanguageServer, arguments: dict[str, Any]) -> dict[str, Any]:
    change_id = _text(arguments, "change_id", REJECT)
    project, change = _find_change(ls, change_id)
    reason = arguments.get("reason", arguments.get("extra"))
    if reason is not None and not isinstance(reason, str):
        raise JsonRpcInvalidParams(message=f"{REJECT}: 'reason' must be a string")
    if reason is None:
        reason = await _reason(ls, change)
        if reason is None:
            return {"rejected": False, "change_id": change_id}
    with ResultsDB(project.root) as db:
        reject(project.queue.store, db, change_id, reason)
    ls.reload(project)
    return {"rejected": True, "change_id": change_id, "reason": reason.strip() or None}


async def _show_diff(ls: RemoraLanguageServer, arguments: dict[str, Any]) -> dict[str, Any]:
    change_id = _text(arguments, "change_id", SHOW_DIFF)
    project, change = _find_change(ls, change_id)
    folder = state_dir(project.root) / "diffs"
    folder.mkdir(exist_ok=True)
    target = folder / f"{change_id}.diff"
    target.write_text(change.diff, encoding="utf-8")
    uri = from_fs_path(str(target)) or target.as_uri()
    if ls.supports_show_document():
        await ls.window_show_document_async(types.ShowDocumentParams(uri=uri, take_focus=True))
    return {"uri": uri, "diff": change.diff}


async def _run_agent(ls: RemoraLanguageServer, arguments: dict[str, Any]) -> dict[str, Any]:
    uri = _text(arguments, "uri", RUN_AGENT)
    operation = _text(arguments, "operation", RUN_AGENT)
    node_id = _text(arguments, "node_id", RUN_AGENT)
    project, rel, path = ls.locate(uri)
    if not path.is_file():
        raise JsonRpcInvalidParams(message=f"{rel} is not saved yet: save it, then run the agent")
    nodes, _warnings = parse_source(path.read_bytes(), rel, pack=load_query_pack())
    node = find_node(nodes, node_id)
    if node is None:
        raise JsonRpcInvalidParams(
            message=f"no node {node_id} in {rel} as saved: save the file, then run the agent"
        )
    if operation not in operations_for(project, node):
        raise JsonRpcInvalidParams(
            message=f"{operation!r} is not an operation for a {node.node_type} "
            f"(here: {', '.join(operations_for(project, node)) or 'none'})"
        )
    if ls.run_lock.locked():
        raise JsonRpcInvalidParams(message="a run is going: wait for it or cancel it first")
    async with ls.run_lock:
        report = await run_agents(
            ls, project, [node], [operation], f"remora {operation}: {node.full_name}"
        )
    ls.reload(project)
    if report is None:
        return {"cancelled": True}
    outcome = report.outcomes[0] if report.outcomes else None
    summary = outcome.result.summary if outcome is not None else "nothing ran"
    ls.tell(f"remora {operation} on {node.full_name}: {summary}")
    return {"cancelled": False, "counts": report.counts(), "summary": summary}


def register_commands(server: RemoraLanguageServer) -> None:
    @server.command(ACCEPT)
    @as_lsp_errors
    async def accept_command(ls: RemoraLanguageServer, *args: Any) -> dict[str, Any]:
        return await _accept(ls, _arguments(args, ACCEPT))

    @server.command(ACCEPT_AS_COMMIT)
    @as_lsp_errors
    async def accept_as_commit_command(ls: RemoraLanguageServer, *args: Any) -> dict[str, Any]:
        return await _accept_as_commit(ls, _arguments(args, ACCEPT_AS_COMMIT))

    @server.command(REJECT)
    @as_lsp_errors
    async def reject_command(ls: RemoraLanguageServer, *args: Any) -> dict[str, Any]:
        return await _reject(ls, _arguments(args, REJECT))

    @server.command(SHOW_DIFF)
    @as_lsp_errors
    async def show_diff_command(ls: RemoraLanguageServer, *args: Any) -> dict[str, Any]:
        return await _show_diff(ls, _arguments(args, SHOW_DIFF))

    @server.command(RUN_AGENT)
    @as_lsp_errors
    async def run_agent_command(ls: RemoraLanguageServer, *args: Any) -> dict[str, Any]:
        return await _run_agent(ls, _arguments(args, RUN_AGENT))

    @server.command(REFRESH)
    async def refresh_command(ls: RemoraLanguageServer, *args: Any) -> dict[str, Any]:
        for project in ls.projects.projects.values():
            ls.reload(project)
        return {"changes": sum(len(p.queue.records) for p in ls.projects.projects.values())}
