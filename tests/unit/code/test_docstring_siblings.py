"""A folder's files are read once per process for all its docstring runs, and again when they
change on disk; a run that changed one in its own workspace sees its change."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from workspace_calls import recorded_paths

from remora.code.context import CodeContext
from remora.code.docstring.siblings import MAX_SIBLING_FILES, sibling_texts
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

_HOUR_AGO = time.time() - 3600


def _write_old(path: Path, text: str, *, age_s: float = 3600) -> None:
    """Write ``text`` dated in the past: settled, not changed within the clock's tick."""
    path.write_text(text)
    then = time.time() - age_s
    os.utime(path, (then, then))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    for name in ("a.py", "b.py", "c.py"):
        _write_old(tmp_path / "pkg" / name, f'"""{name}."""\n')
    os.utime(tmp_path / "pkg", (_HOUR_AGO, _HOUR_AGO))
    return tmp_path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return recorded_paths(monkeypatch, "read")


def _siblings(root: Path, path: str) -> tuple[str, ...]:
    """What a fresh run (its own workspace) of a node in ``path`` gets."""
    with WorkspaceStore(root).create("docstring", "n") as workspace:
        return sibling_texts(CodeContext(workspace, None, SandboxConfig()), path)


def test_the_second_run_of_a_folder_reads_nothing(folder: Path, reads: list[str]) -> None:
    assert _siblings(folder, "pkg/a.py") == ('"""b.py."""\n', '"""c.py."""\n')
    assert len(reads) == 3
    assert _siblings(folder, "pkg/b.py") == ('"""a.py."""\n', '"""c.py."""\n')
    assert len(reads) == 3


def test_a_file_edited_on_disk_is_read_again(folder: Path, reads: list[str]) -> None:
    _siblings(folder, "pkg/a.py")
    # Same size, an mtime a minute later: only the stat tells the two apart.
    _write_old(folder / "pkg" / "c.py", '"""C.py."""\n', age_s=60)
    assert _siblings(folder, "pkg/a.py") == ('"""b.py."""\n', '"""C.py."""\n')
    assert len(reads) == 6


def test_a_file_added_to_the_folder_is_seen(folder: Path, reads: list[str]) -> None:
    _siblings(folder, "pkg/a.py")
    _write_old(folder / "pkg" / "aa.py", '"""aa.py."""\n')
    assert _siblings(folder, "pkg/a.py") == ('"""aa.py."""\n', '"""b.py."""\n', '"""c.py."""\n')


def test_a_file_changed_just_now_is_not_kept(folder: Path, reads: list[str]) -> None:
    """Its mtime may not move with a second change within the same clock tick."""
    (folder / "pkg" / "c.py").write_text('"""new."""\n')
    _siblings(folder, "pkg/a.py")
    assert _siblings(folder, "pkg/a.py") == ('"""b.py."""\n', '"""new."""\n')
    assert len(reads) == 6


def test_a_run_sees_its_own_change_and_the_next_run_does_not(
    folder: Path, reads: list[str]
) -> None:
    _siblings(folder, "pkg/a.py")
    with WorkspaceStore(folder).create("docstring", "n") as workspace:
        workspace.write("pkg/c.py", b'"""Mine."""\n')
        context = CodeContext(workspace, None, SandboxConfig())
        assert sibling_texts(context, "pkg/a.py") == ('"""b.py."""\n', '"""Mine."""\n')
    assert _siblings(folder, "pkg/a.py") == ('"""b.py."""\n', '"""c.py."""\n')


def test_only_the_first_files_by_name_are_read(tmp_path: Path, reads: list[str]) -> None:
    (tmp_path / "pkg").mkdir()
    names = [f"m{i:02}.py" for i in range(MAX_SIBLING_FILES + 3)]
    for name in [*names, "test_x.py", "notes.txt"]:
        _write_old(tmp_path / "pkg" / name, f"# {name}\n")
    texts = _siblings(tmp_path, "pkg/m01.py")
    kept = [n for n in names[:MAX_SIBLING_FILES] if n != "m01.py"]
    assert texts == tuple(f"# {name}\n" for name in kept)
