"""Materialise a workspace, run a real command in it, read the changes back."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from remora.workspace import WorkspaceStore
from remora.workspace.sync import absorb, materialize

RUFF = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "messy.py").write_text("import os\nx = {  'a':1 }\n")
    (root / "pkg" / "clean.py").write_text("Y = 2\n")
    (root / "data.bin").write_bytes(b"\x00\xff")
    (root / ".venv").mkdir()
    (root / ".venv" / "ignored.py").write_text("import os\n")
    return root


def test_materialize_copies_project_plus_overlay(project: Path, tmp_path: Path) -> None:
    ws = WorkspaceStore(project).create("lint", "s")
    ws.write("pkg/extra.py", b"Z = 3\n")
    ws.delete("pkg/clean.py")
    dest = tmp_path / "copy"
    materialize(ws, dest)
    copied = {
        p.relative_to(dest).as_posix(): p.read_bytes()
        for p in sorted(dest.rglob("*"))
        if p.is_file()
    }
    assert copied == {
        "data.bin": b"\x00\xff",
        "pkg/extra.py": b"Z = 3\n",
        "pkg/messy.py": b"import os\nx = {  'a':1 }\n",
    }


@pytest.mark.skipif(not Path(RUFF).exists(), reason="needs ruff")
def test_real_ruff_fix_is_absorbed(project: Path, tmp_path: Path) -> None:
    ws = WorkspaceStore(project).create("lint", "ruff")
    dest = tmp_path / "run"
    materialize(ws, dest)
    subprocess.run(
        [RUFF, "check", "--fix", "--select", "F401", "--no-cache", "."],
        cwd=dest,
        capture_output=True,
        check=False,
    )
    subprocess.run([RUFF, "format", "--no-cache", "."], cwd=dest, capture_output=True, check=True)
    changed = absorb(ws, dest)
    assert changed == ["pkg/messy.py"]
    assert ws.read("pkg/messy.py") == b'x = {"a": 1}\n'
    assert (project / "pkg" / "messy.py").read_text() == "import os\nx = {  'a':1 }\n"
    assert "-import os" in ws.diff()


def test_absorb_sees_additions_and_deletions(project: Path, tmp_path: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("test", "abs")
    dest = tmp_path / "run"
    materialize(ws, dest)
    (dest / "tests").mkdir()
    (dest / "tests" / "test_x.py").write_text("def test_x(): pass\n")
    (dest / "data.bin").unlink()
    (dest / "pkg" / "__pycache__").mkdir()
    (dest / "pkg" / "__pycache__" / "x.pyc").write_bytes(b"cache")
    (dest / ".pytest_cache").mkdir()
    (dest / ".pytest_cache" / "v").write_text("cache")
    assert absorb(ws, dest) == ["data.bin", "tests/test_x.py"]
    assert ws.read("data.bin") is None
    # a second command in the same folder: only what changed since is reported
    (dest / "tests" / "test_x.py").write_text("def test_x(): assert True\n")
    assert absorb(ws, dest) == ["tests/test_x.py"]
    # a different Workspace object (no manifest) compares with the merged view
    ws.close()
    again = store.open("test-abs")
    assert absorb(again, dest) == []


def test_materialize_records_the_base_the_command_saw(project: Path, tmp_path: Path) -> None:
    store = WorkspaceStore(project)
    ws = store.create("lint", "base")
    dest = tmp_path / "run"
    materialize(ws, dest)
    (project / "pkg" / "clean.py").write_text("Y = 'user'\n")  # user edits meanwhile
    (dest / "pkg" / "clean.py").write_text("Y = 3\n")  # the command edits too
    assert absorb(ws, dest) == ["pkg/clean.py"]
    ws.close()
    report = store.accept("lint-base")
    assert not report.accepted
    assert [c.path for c in report.conflicts] == ["pkg/clean.py"]
    assert (project / "pkg" / "clean.py").read_text() == "Y = 'user'\n"


def test_unreadable_files_are_left_out_of_the_copy(project: Path, tmp_path: Path) -> None:
    secret = project / "pkg" / "locked.py"
    secret.write_text("KEY = 1\n")
    secret.chmod(0)
    ws = WorkspaceStore(project).create("lint", "locked")
    dest = tmp_path / "copy"
    materialize(ws, dest)
    assert (dest / "pkg" / "clean.py").is_file()
    assert not (dest / "pkg" / "locked.py").exists()
    assert absorb(ws, dest) == []  # not copied is not deleted
    ws.close()


def test_a_huge_file_is_not_read_back(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import remora.workspace.sync as sync

    monkeypatch.setattr(sync, "MAX_READ_BACK_BYTES", 1000)
    ws = WorkspaceStore(project).create("test", "huge")
    dest = tmp_path / "copy"
    sync.materialize(ws, dest)
    (dest / "pkg" / "clean.py").write_bytes(b"Y = 3\n" * 500)  # grown past the bound
    (dest / "dump.bin").write_bytes(b"\0" * 5000)
    (dest / "pkg" / "small.py").write_bytes(b"S = 1\n")
    with pytest.warns(UserWarning, match="larger than"):
        assert sync.absorb(ws, dest) == ["pkg/small.py"]
    ws.close()
