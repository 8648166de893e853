"""A project with two pending changes (one of three hunks) and the review app over it."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from three_hunks import NEW, OLD

from remora.results import ResultsDB
from remora.web import Credentials, create_app
from remora.workspace import WorkspaceStore

TOKEN = "test-token-0123456789"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "m.py").write_text(OLD)
    (root / "n.py").write_text("import os\nN = 1\n")
    store = WorkspaceStore(root)
    with store.create("lint", "n1") as ws:
        ws.write("m.py", NEW.encode())
    with store.create("docstring", "n2") as ws:
        ws.write("n.py", b'"""N."""\nimport os\nN = 1\n')
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {"operations": ["lint", "docstring"], "nodes": 2})
        for operation, node, path in (("lint", "n1", "m.py"), ("docstring", "n2", "n.py")):
            db.record_result(
                run_id,
                {"node_id": node, "full_name": path, "file_path": path},
                operation,
                {
                    "status": "success",
                    "workspace_id": f"{operation}-{node}",
                    "changed_files": [path],
                    "summary": f"{operation} of {path}",
                    "turns": 2,
                    "details": {
                        "transcript": {
                            "model": "scripted:test",
                            "tools": [{"name": "run_linter", "ok": True}],
                        }
                    },
                },
            )
        db.finish_run(run_id)
    return root


@pytest.fixture
def credentials() -> Credentials:
    return Credentials(TOKEN, 8765)


@pytest.fixture
def client(project: Path, credentials: Credentials) -> TestClient:
    """A client that has opened the printed URL once (so it holds the cookie)."""
    test_client = TestClient(create_app(project, credentials), base_url="http://127.0.0.1:8765")
    first = test_client.get(f"/?token={TOKEN}", follow_redirects=False)
    assert first.status_code == 303
    return test_client
