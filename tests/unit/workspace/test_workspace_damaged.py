"""A workspace file that is not a readable database: a clear error that names it, and a reject
that still removes it (a power loss can leave one; so can a hand edit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from workspace_kit import small_project

from remora import review
from remora.errors import WORKSPACE_CONFLICT, WorkspaceConflictError
from remora.workspace import WorkspaceStore


@pytest.mark.parametrize(
    "content", [b"not sqlite at all" * 300, b"SQLite format 3\x00" + bytes(100)]
)
def test_a_damaged_workspace_is_named_and_can_be_rejected(tmp_path: Path, content: bytes) -> None:
    root = small_project(tmp_path)
    store = WorkspaceStore(root)
    ws = store.create("lint", "n1")
    ws.write("README.md", b"# changed\n")
    ws.close()
    (store.directory / "lint-n1.db").write_bytes(content)
    with pytest.raises(WorkspaceConflictError) as caught:
        store.open("lint-n1")
    assert caught.value.code == WORKSPACE_CONFLICT
    assert str(store.directory / "lint-n1.db") in caught.value.message
    assert caught.value.hint == "reject it: `remora review reject lint-n1`"
    with pytest.raises(WorkspaceConflictError):
        review.list_changes(project=root)  # the listing says which file, not a traceback
    assert review.reject(["lint-n1"], project=root) == ["lint-n1"]
    assert store.ids() == [] and review.list_changes(project=root) == []
    assert (root / "README.md").read_text() == "# proj\n"
