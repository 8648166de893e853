"""A run reads its files, locates its node and (a docstring run) reads its folder's other
files once per change of its workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from workspace_calls import recorded_paths

from remora.code.context import CodeContext
from remora.code.docstring.siblings import sibling_texts
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore


def test_sibling_texts_are_read_again_only_after_the_workspace_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pkg").mkdir()
    for name in ("a.py", "b.py", "c.py", "test_d.py"):
        (tmp_path / "pkg" / name).write_text(f'"""{name}."""\n')
    reads = recorded_paths(monkeypatch, "read")
    with WorkspaceStore(tmp_path).create("docstring", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        first = sibling_texts(context, "pkg/a.py")
        assert first == ('"""b.py."""\n', '"""c.py."""\n')  # the node's own and tests left out
        # The node's own file too: the folder's read serves its other files' runs.
        assert reads == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]
        assert sibling_texts(context, "pkg/a.py") is first
        assert len(reads) == 3
        workspace.write("pkg/c.py", b'"""Changed."""\n')
        assert sibling_texts(context, "pkg/a.py") == ('"""b.py."""\n', '"""Changed."""\n')
        assert len(reads) == 6


def test_reads_and_the_located_node_are_kept_until_the_workspace_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    reads = recorded_paths(monkeypatch, "read")
    text = "def f():\n    return 1\n"
    node = CSTNode(
        make_node_id("m.py", "f", "function"), "function", "f", "f", "m.py", 0, 22, 1, 2, text
    )
    with WorkspaceStore(tmp_path).create("docstring", "n") as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        first = context.located()
        assert context.located() is first
        assert context.node_file_text() == "def f():\n    return 1\n"
        assert reads == ["m.py"]

        workspace.write("m.py", b"x = 0\n\n\ndef f():\n    return 2\n")
        moved = context.located()
        assert moved is not first
        assert moved.file.text.endswith("return 2\n")
        assert context.node_file_text().startswith("x = 0\n")
        assert reads == ["m.py", "m.py"]

        workspace.write("m.py", b"x = 0\n")
        with pytest.raises(ValueError, match="no function 'f'"):
            context.located()
        assert context == CodeContext(workspace, node, SandboxConfig())  # the kept reads aside
