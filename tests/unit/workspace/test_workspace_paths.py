"""Adversarial paths: nothing an agent names may reach outside the temp project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from remora.errors import WORKSPACE_OUTSIDE_PROJECT
from remora.workspace import Workspace, WorkspacePathError, WorkspaceStore
from remora.workspace.sync import absorb, materialize


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """(project, outside): outside holds a secret the project must never show."""
    project = tmp_path / "proj"
    outside = tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (project / "ok.py").write_text("ok\n")
    (project / "inner").mkdir()
    (project / "inner" / "real.py").write_text("real\n")
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text("[core]\n")
    os.symlink(outside, project / "escape_dir")
    os.symlink(outside / "secret.txt", project / "escape_file")
    os.symlink(project / ".git" / "config", project / "git_link")
    os.symlink(project / "inner" / "real.py", project / "alias.py")
    return project, outside


@pytest.fixture
def ws(layout: tuple[Path, Path]) -> Workspace:
    return WorkspaceStore(layout[0]).create("lint", "paths")


BAD = [
    "../outside/secret.txt",
    "inner/../../outside/secret.txt",
    "..",
    "/etc/passwd",
    "//etc/passwd",
    "C:/Windows/win.ini",
    "escape_dir/secret.txt",
    "escape_dir",
    "escape_file",
    "git_link",
    ".git/config",
    ".git",
    ".remora/remora.db",
    ".remora/workspaces/lint-paths.db",
    "inner/../.git/config",
    "nul\0byte",
]


@pytest.mark.parametrize("bad", BAD)
def test_every_operation_refuses(ws: Workspace, bad: str, layout: tuple[Path, Path]) -> None:
    outside = layout[1]
    for call in (
        ws.safe_path,
        ws.read,
        ws.exists,
        ws.is_dir,
        ws.list_dir,
        ws.delete,
        lambda rel: ws.write(rel, b"pwned"),
    ):
        with pytest.raises(WorkspacePathError) as info:
            call(bad)
        assert info.value.code == WORKSPACE_OUTSIDE_PROJECT
    assert (outside / "secret.txt").read_text() == "secret\n"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_refusal_names_path_and_reason(ws: Workspace) -> None:
    with pytest.raises(WorkspacePathError) as info:
        ws.read("escape_dir/secret.txt")
    assert "escape_dir/secret.txt" in info.value.message
    assert "symlink" in info.value.reason


def test_good_paths_are_normalised(ws: Workspace) -> None:
    assert ws.safe_path("./inner//real.py") == "inner/real.py"
    assert ws.safe_path("inner/../ok.py") == "ok.py"
    assert ws.safe_path(".") == "."
    assert ws.safe_path("") == "."
    assert ws.safe_path("new/dir/file.py") == "new/dir/file.py"
    # a symlink that stays inside the project is fine, and reads its target
    assert ws.read("alias.py") == b"real\n"


def test_a_listing_checks_plain_entries_by_name_and_links_on_disk(
    layout: tuple[Path, Path], ws: Workspace
) -> None:
    project = layout[0]
    (project / "inner" / "bell\x07.py").write_text("x = 1\n")
    os.symlink(project, project / "inner" / "root_link")
    os.symlink(layout[1], project / "inner" / "out_link")
    # a control character in a name is refused as any path naming it would be
    assert ws.list_dir("inner") == ["real.py", "root_link/"]
    # through a link to the root, the state folders stay out
    assert ws.list_dir("inner/root_link") == ["alias.py", "inner/", "ok.py"]


def test_walks_leave_outside_links_out(ws: Workspace, tmp_path: Path) -> None:
    listing = ws.list_dir()
    assert "escape_dir/" not in listing and "escape_file" not in listing
    assert "git_link" not in listing and ".git/" not in listing
    assert "alias.py" in listing
    files = list(ws.iter_files())
    assert files == ["alias.py", "inner/real.py", "ok.py"]
    dest = tmp_path / "copy"
    materialize(ws, dest)
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert copied == ["alias.py", "inner/real.py", "ok.py"]
    assert not any(p.is_symlink() for p in dest.rglob("*"))


def test_absorb_ignores_links_a_command_creates(
    ws: Workspace, tmp_path: Path, layout: tuple[Path, Path]
) -> None:
    dest = tmp_path / "run"
    materialize(ws, dest)
    os.symlink(layout[1] / "secret.txt", dest / "leak.txt")
    (dest / "ok.py").write_text("changed\n")
    assert absorb(ws, dest) == ["ok.py"]
    assert ws.read("leak.txt") is None


def test_a_symlink_swapped_in_after_writing_is_a_conflict(layout: tuple[Path, Path]) -> None:
    project, outside = layout
    store = WorkspaceStore(project)
    ws = store.create("lint", "swap")
    ws.write("inner/real.py", b"new\n")
    ws.close()
    # the user (or an attacker) turns the directory into a link leading outside
    (project / "inner" / "real.py").unlink()
    (project / "inner").rmdir()
    os.symlink(outside, project / "inner")
    report = store.accept("lint-swap")
    assert not report.accepted
    assert [c.path for c in report.conflicts] == ["inner/real.py"]
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
