"""A change in the review queue as a run leaves one: a workspace holding the new text of
one file, recorded as the node's successful result. Shared by the editor's tests."""

from __future__ import annotations

from pathlib import Path

from remora.discovery import make_node_id
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore


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
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {})
        db.record_result(
            run_id,
            {"node_id": node_id, "full_name": full_name, "file_path": path},
            "lint",
            {"status": "success", "workspace_id": workspace_id, "changed_files": [path]},
        )
        db.finish_run(run_id)
    return workspace_id
