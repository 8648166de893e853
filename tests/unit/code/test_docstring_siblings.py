"""A docstring run reads its folder's other files once per change of its workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code.context import CodeContext
from remora.code.docstring.draft import _sibling_texts
from remora.config import SandboxConfig
from remora.workspace import Workspace, WorkspaceStore


def test_sibling_texts_are_read_again_only_after_the_workspace_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pkg").mkdir()
    for name in ("a.py", "b.py", "c.py", "test_d.py"):
        (tmp_path / "pkg" / name).write_text(f'"""{name}."""\n')
    reads: list[str] = []
    real = Workspace.read

    def counted(self: Workspace, rel: str) -> bytes | None:
        reads.append(rel)
        return real(self, rel)

    monkeypatch.setattr(Workspace, "read", counted)
    with WorkspaceStore(tmp_path).create("docstring", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        first = _sibling_texts(context, "pkg/a.py")
        assert first == ('"""b.py."""\n', '"""c.py."""\n')  # the node's own and tests left out
        assert reads == ["pkg/b.py", "pkg/c.py"]
        assert _sibling_texts(context, "pkg/a.py") is first
        assert len(reads) == 2
        workspace.write("pkg/c.py", b'"""Changed."""\n')
        assert _sibling_texts(context, "pkg/a.py") == ('"""b.py."""\n', '"""Changed."""\n')
        assert len(reads) == 4
