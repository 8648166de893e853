"""Bad input gets one clean line naming the file or field, exit 2 or 3, never a traceback.

Each case runs the real ``remora`` entry point in a subprocess, as a user would.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import REMORA, remora

from remora.cli.app import main
from remora.project import STATE_DIR
from remora.workspace import WorkspaceStore

TOOL = Path(__file__).resolve().parents[3] / "src/remora/agents/bundled/lint/tools/submit.pym"


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


def _change_everything(store: WorkspaceStore, node: str, value: str) -> str:
    with store.create("lint", node) as ws:
        for i in range(50):
            ws.write(f"src/m{i:02}.py", f"V = {value!r}\n".encode())
    return ws.id


def test_two_accepts_at_once_report_cleanly_and_lose_nothing(project: Path) -> None:
    for i in range(50):
        (project / "src" / f"m{i:02}.py").write_text(f"V = {i}\n")
    store = WorkspaceStore(project)
    first = _change_everything(store, "one", "first")
    second = _change_everything(store, "two", "second")
    command = [*REMORA, "review"]
    procs = [
        subprocess.Popen(
            [*command, "accept", workspace_id],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for workspace_id in (first, second)
    ]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert all("Traceback" not in err for _, err in outputs), outputs
    assert sorted(proc.returncode for proc in procs) == [0, 1]
    values = {(project / "src" / f"m{i:02}.py").read_text() for i in range(50)}
    assert len(values) == 1  # every file from the same accepted change


def test_a_change_that_cannot_be_accepted_does_not_block_the_others(project: Path) -> None:
    store = WorkspaceStore(project)
    with store.create("lint", "bad") as bad:
        conn, lock = bad.connection()
        with lock:  # as an older Remora could have stored it
            conn.execute(
                "INSERT INTO overlay(path, content, deleted) VALUES (?, ?, 0)",
                ("d/" * 1200 + "x.py", b"X = 1\n"),
            )
    with store.create("lint", "good") as good:
        good.write("src/real.py", b"def g():\n    return 3\n")
    code, out = remora(project, "review", "accept", "--all")
    assert code == 1
    assert "accepted lint-good" in out and "conflict lint-bad" in out
    assert "deeper than 32 folders" in out
    assert (project / "src" / "real.py").read_text().endswith("return 3\n")
    code, out = remora(project, "review", "reject", "lint-bad")
    assert code == 0 and store.ids() == []


@pytest.mark.parametrize(
    "error",
    [
        OSError(28, "No space left on device", "/proj/.remora/remora.db"),
        __import__("sqlite3").OperationalError("database or disk is full"),
    ],
)
def test_a_full_disk_is_one_line_and_exit_2(
    error: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cli_app = sys.modules[main.__module__]  # the module; remora.cli.app is also the Typer

    def full(**_: object) -> None:
        raise error

    monkeypatch.setattr(cli_app, "app", full)
    with pytest.raises(SystemExit) as exited:
        cli_app.main()
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and ("No space left" in err or "disk is full" in err)
    assert "free disk space" in err


def test_a_database_held_past_the_wait_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = sqlite3.connect(tmp_path / "held.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(tmp_path / "held.db", isolation_level=None, timeout=0)
    with pytest.raises(sqlite3.OperationalError) as held:
        waiter.execute("BEGIN IMMEDIATE")
    cli_app = sys.modules[main.__module__]

    def locked(**_: object) -> None:
        raise held.value

    monkeypatch.setattr(cli_app, "app", locked)
    with pytest.raises(SystemExit) as exited:
        cli_app.main()
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "database is locked" in err and "another process held the database" in err
    assert "free disk space" not in err
