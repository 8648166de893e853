"""A git repository with changes waiting for review, made as an analyze leaves them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from git_repos import Repo

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

SHOP = """import os


def total(prices):
    return sum(prices)


class Order:
    def place(self):
        return True
"""
UTIL = "def helper(value):\n    return value * 2\n"
MODEL = "qwen2.5-coder-0.5b"
DOC = '):\n    """Twice the value."""\n'
TESTS = "from pkg.util import helper\n\n\ndef test_helper():\n    assert helper(2) == 4\n"


def shop_repo(root: Path) -> Repo:
    repo = Repo(root)
    repo.write(".gitignore", ".remora/\n")
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/shop.py", SHOP)
    repo.write("pkg/util.py", UTIL)
    repo.commit("first")
    return repo


def _record(root: Path, op: str, node_id: str, node: str, changed: list[str], **extra: Any) -> None:
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {})
        db.record_result(
            run_id,
            {"node_id": node_id, "full_name": node, "file_path": changed[0]},
            op,
            {
                "status": "success",
                "workspace_id": f"{op}-{node_id}",
                "changed_files": changed,
                "summary": extra.pop("summary"),
                "details": {"transcript": {"model": MODEL}, **extra},
            },
        )


def _now(root: Path, rel: str) -> str:
    return (root / rel).read_text()


def add_changes(root: Path) -> dict[str, str]:
    """Three pending changes: a lint fix, a docstring, new tests. Their ids by operation."""
    store = WorkspaceStore(root)
    with store.create("lint", "n1") as ws:
        ws.write("pkg/shop.py", _now(root, "pkg/shop.py").replace("import os\n\n\n", "").encode())
    _record(root, "lint", "n1", "pkg/shop.py", ["pkg/shop.py"], summary="removed an unused import",
            remaining=[], refused=[])  # fmt: skip
    with store.create("docstring", "n2") as ws:
        ws.write("pkg/util.py", _now(root, "pkg/util.py").replace("):\n", DOC, 1).encode())
    _record(root, "docstring", "n2", "helper", ["pkg/util.py"], summary="documented helper")
    with store.create("test", "n3") as ws:
        ws.write("tests/test_util.py", TESTS.encode())
    _record(root, "test", "n3", "helper", ["tests/test_util.py"], summary="1 test for helper",
            passed=1, failed=0, coverage_before={"branches": "0/0", "lines": "0/1"},
            coverage_after={"branches": "0/0", "lines": "1/1"})  # fmt: skip
    return {"lint": "lint-n1", "docstring": "docstring-n2", "test": "test-n3"}
