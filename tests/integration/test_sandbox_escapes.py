"""Escapes tried from inside run_command, against the real bubblewrap sandbox.

A conftest.py written through the workspace runs as soon as ``python -m pytest``
starts: it is the attacker. Each test fails if anything outside the command's
copy changed, the network was reached, or a process outlived the command.
"""

from __future__ import annotations

import json
import os
import socket
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from remora.sandbox.commands import run_command
from remora.sandbox.isolation import sandbox_problem
from remora.workspace import Workspace, WorkspaceStore

pytestmark = pytest.mark.integration

ATTACK = """
import json, os, socket, subprocess, sys

PROJECT = {project!r}
OUTSIDE = {outside!r}
PORT = {port}
MARKER = {marker!r}
report = {{}}

def attempt(name, action):
    try:
        action()
        report[name] = "done"
    except Exception as exc:
        report[name] = type(exc).__name__

def append_project():
    with open(os.path.join(PROJECT, "src", "a.py"), "a") as fh:
        fh.write("PWNED = 1\\n")

def git_hook():
    hooks = os.path.join(PROJECT, ".git", "hooks")
    os.makedirs(hooks, exist_ok=True)
    with open(os.path.join(hooks, "post-commit"), "w") as fh:
        fh.write("#!/bin/sh\\necho pwned\\n")

def parent_cwd():
    real = os.readlink(f"/proc/{{os.getppid()}}/cwd")
    with open(os.path.join(real, "..", "via_proc.txt"), "w") as fh:
        fh.write("pwned")

def outside_write():
    with open(os.path.join(OUTSIDE, "dropped.txt"), "w") as fh:
        fh.write("pwned")

def shell_write():
    if os.system(f"echo pwned > {{OUTSIDE}}/shell.txt") != 0:
        raise PermissionError("shell write failed")

def read_passwd():
    with open("/etc/passwd") as fh:
        fh.read()

def read_secret():
    with open(os.path.join(OUTSIDE, "secret.txt")) as fh:
        fh.read()

def connect():
    socket.create_connection(("127.0.0.1", PORT), timeout=2).close()

def orphan():
    code = f"import time; time.sleep(60)  # {{MARKER}}"
    subprocess.Popen(
        [sys.executable, "-c", code], start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )

for name, action in list(globals().items()):
    if callable(action) and name not in ("attempt",) and action.__module__ == __name__:
        attempt(name, action)
with open("escape_report.json", "w") as fh:
    json.dump(report, fh)
"""


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes() if path.is_file() else b"<dir>"
        for path in sorted(root.rglob("*"))
        if not path.is_symlink() and ".remora" not in path.parts  # Remora's own state
    }


class _Listener:
    """A TCP server on the host's loopback that counts the connections it got."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(entry))
    return found


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Path, Path, Workspace]]:
    if sandbox_problem() is not None:
        pytest.fail(f"the sandbox must work on this machine: {sandbox_problem()}")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP SECRET\n")
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / "src" / "a.py").write_text("def f(x):\n    return x + 1\n")
    (project / "pyproject.toml").write_text("[project]\nname = 'victim'\n")
    ws = WorkspaceStore(project).create("test", "escape")
    yield project, outside, ws
    ws.close()


async def test_a_hostile_conftest_changes_nothing_outside_its_copy(
    world: tuple[Path, Path, Workspace],
) -> None:
    project, outside, ws = world
    marker = f"remora-orphan-{os.getpid()}-{id(ws)}"
    listener = _Listener()
    before_project, before_outside = _snapshot(project), _snapshot(outside)
    code = ATTACK.format(
        project=str(project), outside=str(outside), port=listener.port, marker=marker
    )
    ws.write("conftest.py", textwrap.dedent(code).encode())
    ws.write("tests/test_ok.py", b"def test_ok():\n    assert True\n")
    try:
        result = await run_command(ws, ["python", "-m", "pytest", "-q"], timeout_s=60)
    finally:
        listener.close()
    assert result["sandboxed"] is True
    report = json.loads(ws.read("escape_report.json") or b"{}")
    assert set(report) >= {
        "append_project",
        "git_hook",
        "parent_cwd",
        "outside_write",
        "shell_write",
        "read_passwd",
        "read_secret",
        "connect",
        "orphan",
    }, result
    # Writes may land in the sandbox's own throwaway /tmp; the snapshots below
    # are what matters for them. Reads and the network must fail outright.
    assert {report[name] for name in ("read_passwd", "read_secret", "connect")} & {"done"} == set()
    assert _snapshot(project) == before_project
    assert _snapshot(outside) == before_outside
    assert listener.connections == 0
    assert _processes_with(marker) == []
    # What the command did inside its copy still comes back for review.
    assert "escape_report.json" in result["changed_files"]


async def test_option_paths_cannot_write_outside(world: tuple[Path, Path, Workspace]) -> None:
    project, outside, ws = world
    ws.write("tests/test_ok.py", b"def test_ok():\n    assert True\n")
    before = _snapshot(outside)
    cache = outside / "cache"
    argv = ["python", "-m", "pytest", "-q", "-o", f"cache_dir={cache}", "-p", "cacheprovider"]
    result = await run_command(ws, argv, timeout_s=60)
    assert result["sandboxed"] is True
    assert _snapshot(outside) == before
    ruff_cache = outside / "ruff_cache"
    argv = ["ruff", "check", "--config", f"cache-dir='{ruff_cache}'", "."]
    result = await run_command(ws, argv, timeout_s=60)
    assert _snapshot(outside) == before, result
    assert not (project / ".ruff_cache").exists()


async def test_a_timed_out_command_leaves_no_process(world: tuple[Path, Path, Workspace]) -> None:
    _, _, ws = world
    marker = f"remora-sleeper-{os.getpid()}"
    ws.write(
        "conftest.py",
        (
            "import subprocess, sys, time\n"
            f"code = 'import time; time.sleep(60)  # {marker}'\n"
            "subprocess.Popen(['setsid', sys.executable, '-c', code])\n"
            "time.sleep(60)\n"
        ).encode(),
    )
    result = await run_command(ws, ["python", "-m", "pytest", "-q"], timeout_s=3)
    assert result["timed_out"] is True
    assert _processes_with(marker) == []
