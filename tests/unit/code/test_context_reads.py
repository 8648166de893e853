"""A run's context reads its files and locates its node once per change of its workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code.context import CodeContext
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import Workspace, WorkspaceStore


def test_reads_and_the_located_node_are_kept_until_the_workspace_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    reads: list[str] = []
    real = Workspace.read

    def counted(self: Workspace, rel: str) -> bytes | None:
        reads.append(rel)
        return real(self, rel)

    monkeypatch.setattr(Workspace, "read", counted)
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
