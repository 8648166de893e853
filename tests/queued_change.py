"""A change in the review queue as a run leaves one: a workspace holding the new text of
one file, recorded as the node's successful result. Shared by the editor's and the review
queue's tests."""

from __future__ import annotations

from pathlib import Path

from remora.discovery import make_node_id
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore


def _record(
    root: Path, operation: str, node_id: str, full_name: str, path: str, ws_id: str
) -> None:
    """Record the workspace ``ws_id`` as the node's successful result of ``operation``."""
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {})
        db.record_result(
            run_id,
            {"node_id": node_id, "full_name": full_name, "file_path": path},
            operation,
            {"status": "success", "workspace_id": ws_id, "changed_files": [path]},
        )
        db.finish_run(run_id)


def queue_change(root: Path, path: str, old: str, new: str, full_name: str) -> str:
    """Write ``old`` to ``root/path`` and queue the lint change of function ``full_name``
    that makes it ``new``; the change's workspace id."""
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(old)
    node_id = make_node_id(path, full_name, "function")
    with WorkspaceStore(root).create("lint", node_id) as ws:
        ws.read(path)
        ws.write(path, new.encode())
        workspace_id = ws.id
    _record(root, "lint", node_id, full_name, path, workspace_id)
    return workspace_id


def queue_new_file(root: Path, path: str, text: str, node_id: str) -> str:
    """Queue the test change of ``node_id`` that creates ``root/path`` holding ``text``;
    the change's workspace id (``test-<node_id>``)."""
    with WorkspaceStore(root).create("test", node_id) as ws:
        ws.write(path, text.encode())
        workspace_id = ws.id
    _record(root, "test", node_id, node_id, path, workspace_id)
    return workspace_id
