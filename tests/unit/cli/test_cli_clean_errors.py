"""Bad input gets one clean line naming the file or field, exit 2 or 3, never a traceback.

Each case runs the real ``remora`` entry point in a subprocess, as a user would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from remora.project import STATE_DIR
from remora.workspace import WorkspaceStore

TOOL = Path(__file__).resolve().parents[3] / "src/remora/agents/bundled/lint/tools/submit.pym"


def remora(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", "from remora.cli.app import main; main()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "src" / "real.py").write_text("def g():\n    return 2\n")
    (root / "src" / "loop.py").symlink_to("loop.py")
    (root / "src" / "a.py").symlink_to("b.py")
    (root / "src" / "b.py").symlink_to("a.py")
    (root / "src" / "x.py").symlink_to("/etc/passwd")
    return root


def test_symlink_loops_and_links_out(project: Path) -> None:
    code, out = remora(project, "discover", ".")
    assert code == 0
    assert "src/loop.py: skipped: a symlink loop" in out
    assert "src/x.py: skipped: a symlink to a file outside the project" in out
    assert "root:" not in out  # nothing of /etc/passwd
    code, out = remora(project, "discover", "src/loop.py")
    assert code == 2 and "src/loop.py is a broken symlink or a symlink loop" in out
    code, out = remora(project, "analyze", "src/a.py")
    assert code == 2 and "symlink loop" in out
    code, out = remora(project, "tool", "run", str(TOOL), "--node", "src/loop.py::g")
    assert code == 2 and "no file 'src/loop.py'" in out
    code, out = remora(project, "tool", "run", str(TOOL), "--node", "src/x.py::g")
    assert code == 2 and "leads outside the project" in out


def test_bad_configuration_names_the_file_or_field(project: Path) -> None:
    (project / "remora.yaml").write_bytes(b"model:\n  id: caf\xe9\n")
    code, out = remora(project, "config")
    assert code == 3 and "remora.yaml: not UTF-8 text (byte 0xe9" in out
    (project / "remora.yaml").unlink()
    env = {"REMORA_MODEL__N_PARALLEL": "99999999999999999999999"}
    code, out = remora(project, "config", env=env)
    assert code == 3 and "model.n_parallel" in out and "REMORA_MODEL__N_PARALLEL" in out


def test_review_of_a_folder_that_is_no_project_creates_nothing(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    code, out = remora(tmp_path, "review", "--project", str(plain))
    assert code == 0 and "Nothing to review." in out
    code, out = remora(tmp_path, "review", "accept", "--all", "--project", str(plain))
    assert code == 2 and "has no .remora/" in out
    code, out = remora(tmp_path, "review", "show", "lint-x", "--project", str(plain))
    assert code == 2
    assert not (plain / STATE_DIR).exists()
    (plain / "file.txt").write_text("x")
    code, out = remora(tmp_path, "review", "--project", str(plain / "file.txt"))
    assert code == 2 and "is not a directory" in out


def test_review_show_escapes_control_characters(project: Path) -> None:
    with WorkspaceStore(project).create("lint", "esc") as ws:
        ws.write("src/real.py", b"def g():\n    return 2\x1b[1A\x1b[2K\rhidden = 1\n")
    code, out = remora(project, "review", "show", "lint-esc")
    assert code == 0
    assert "\x1b" not in out and "\r" not in out
    assert "\\x1b[1A\\x1b[2K\\x0dhidden = 1" in out
