"""Red team, where state is written (issue 54): ``.remora/`` only in a project's root, never
beside a file that is not Python code nor in a system folder; the refusal comes before
anything is written. Shown by hand: ``remora analyze notes.txt``."""

from __future__ import annotations

from pathlib import Path

import pytest
from red_team_support import remora as run_remora

from remora import analyze
from remora.errors import DiscoveryPathError


def test_the_cli_refuses_a_text_file_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("call Bob\n")
    code, output = run_remora(tmp_path, "analyze", "notes.txt", "-o", "lint")
    assert code == 2 and "notes.txt is not a Python file" in output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_the_library_refuses_etc_passwd_and_writes_nothing() -> None:
    assert not Path("/etc/.remora").exists()
    with pytest.raises(DiscoveryPathError, match="not a Python file"):
        analyze("/etc/passwd", operations=["lint"])
    assert not Path("/etc/.remora").exists()


def test_a_folder_without_python_is_refused(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Docs\n")
    with pytest.raises(DiscoveryPathError, match="no Python files"):
        analyze(tmp_path / "docs", operations=["lint"])
    code, output = run_remora(tmp_path, "analyze", "docs")
    assert code == 2 and "no Python files" in output
    assert not (tmp_path / ".remora").exists() and not (tmp_path / "docs" / ".remora").exists()


def test_a_system_folder_is_never_a_project_even_when_named(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("X = 1\n")
    with pytest.raises(DiscoveryPathError, match="system folder"):
        analyze(tmp_path / "a.py", operations=["lint"], project="/etc")
    assert not Path("/etc/.remora").exists()
