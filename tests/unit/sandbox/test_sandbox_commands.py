"""run_command: allow-list, argument checks, a copy or the read-only project, read-back, timeout."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_kit import make_project, sandbox_config

from remora.sandbox import ExternalRefused, build_externals
from remora.sandbox.commands import check_command, resolve_executable
from remora.workspace import Workspace, WorkspaceStore

ALLOWED = [["ruff"], ["python", "-m", "pytest"]]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


@pytest.fixture
def ws(project: Path) -> Iterator[Workspace]:
    workspace = WorkspaceStore(project).create("test", "cmd")
    yield workspace
    workspace.close()


@pytest.fixture(autouse=True)
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies go here, so the tests see exactly the folders their own commands left."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def leftovers() -> set[str]:
    folders = ("remora-cmd-", "remora-edits-")
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith(folders)}


@pytest.mark.parametrize(
    ("cmd", "args"),
    [
        ("python", ["-c", "print(1)"]),
        ("python", ["-m", "pip", "install", "x"]),
        ("rm", ["-rf", "."]),
        ("bash", ["-c", "cat /etc/passwd"]),
        ("ruffx", ["check"]),
        ("pytest", []),
    ],
)
def test_commands_off_the_allow_list_are_refused(cmd: str, args: list[str]) -> None:
    with pytest.raises(ExternalRefused, match="not allowed"):
        check_command(cmd, args, ALLOWED)


@pytest.mark.parametrize(
    "arg",
    [
        "/etc/passwd",
        "../outside",
        "src/../../x",
        "--config=/etc/x",
        "~/.ssh/id_rsa",
        "cache_dir=/abs/path",
        "cache-dir='/abs/path'",
    ],
)
def test_arguments_leaving_the_project_are_refused(arg: str) -> None:
    with pytest.raises(ExternalRefused, match="inside the project"):
        check_command("ruff", ["check", arg], ALLOWED)


def test_argument_types_are_checked() -> None:
    with pytest.raises(TypeError):
        check_command("ruff", "check .", ALLOWED)
    with pytest.raises(TypeError):
        check_command("", [], ALLOWED)
    assert check_command("python", ["-m", "pytest", "-q"], ALLOWED) == [
        "python",
        "-m",
        "pytest",
        "-q",
    ]


def test_executables_come_from_this_environment() -> None:
    import sys

    assert resolve_executable("python") == sys.executable
    assert Path(resolve_executable("ruff")).name == "ruff"
    with pytest.raises(FileNotFoundError):
        resolve_executable("no-such-tool-here")


async def test_ruff_fix_is_read_back_into_the_overlay(ws: Workspace, project: Path) -> None:
    ext = build_externals(ws, None, sandbox_config())
    ext["write_file"]("src/extra.py", "import sys\nx = 1\n")
    result = await ext["run_command"]("ruff", ["check", "--fix", "--select", "F401", "src"])
    assert result["exit_code"] == 0, result
    assert result["changed_files"] == ["src/a.py", "src/extra.py"]
    assert "Found 2 errors (2 fixed" in result["stdout"]
    assert ext["read_file"]("src/extra.py") == "x = 1\n"
    assert not ext["read_file"]("src/a.py").startswith("import os")
    assert (project / "src" / "a.py").read_text().startswith("import os")  # project untouched
    assert not (project / ".ruff_cache").exists()
    assert sorted(ws.changed_files()) == ["src/a.py", "src/extra.py"]
    assert leftovers() == set()


async def test_pytest_runs_the_overlay_with_a_minimal_environment(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REMORA_TEST_SECRET_TOKEN", "s3cret")
    ext = build_externals(ws, None, sandbox_config())
    ext["write_file"](
        "tests/test_env.py",
        (
            "import json, os, sys\n"
            "sys.path.insert(0, 'src')\n"
            "from a import f\n\n"
            "def test_f():\n"
            "    assert f(1) == 2\n"
            "    with open('env.json', 'w') as fh:\n"
            "        json.dump(dict(os.environ), fh)\n"
        ),
    )
    result = await ext["run_command"](
        "python", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    )
    assert result["exit_code"] == 0, result
    assert "1 passed" in result["stdout"]
    assert "env.json" in result["changed_files"]
    env = json.loads(ext["read_file"]("env.json"))
    assert "REMORA_TEST_SECRET_TOKEN" not in env
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert env["HOME"] != os.environ.get("HOME")
    assert not any("__pycache__" in p for p in ws.changed_files())


async def test_a_command_past_its_timeout_is_killed(ws: Workspace) -> None:
    ext = build_externals(ws, None, sandbox_config(command_timeout=1.0))
    ext["write_file"](
        "tests/test_slow.py",
        (
            "import time\n\n"
            "def test_slow():\n"
            "    open('started.txt', 'w').close()\n"
            "    time.sleep(30)\n"
        ),
    )
    result = await ext["run_command"]("python", ["-m", "pytest", "-q", "tests"])
    assert result["timed_out"] is True and result["exit_code"] == 124
    assert "killed after 1s" in result["stderr"]
    assert result["changed_files"] == [] and not ext["file_exists"]("started.txt")
    assert leftovers() == set()


async def test_refused_commands_through_the_external(ws: Workspace) -> None:
    ext = build_externals(ws, None, sandbox_config(commands=[["ruff"]]))
    with pytest.raises(ExternalRefused, match="not allowed"):
        await ext["run_command"]("python", ["-m", "pytest"])


_OBSERVE = """
import json, os
seen = {"files": sorted(os.listdir(".")), "a": open("src/a.py").read()}
seen["state"] = os.listdir(".remora") if os.path.isdir(".remora") else []
for name in ("new.txt", "src/a.py"):
    try:
        open(name, "a").close()
        seen[name] = "written"
    except OSError as exc:
        seen[name] = exc.strerror
try:
    seen["leak"] = open("leak_file").read()
except OSError as exc:
    seen["leak"] = exc.strerror
print(json.dumps(seen))
"""


def _tree(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


async def test_a_read_only_command_sees_the_live_project_without_a_copy(
    ws: Workspace, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from remora.sandbox.commands import run_command
    from remora.workspace import sync

    def no_copy(*_: object) -> None:
        raise AssertionError("the project was copied")

    monkeypatch.setattr(sync, "materialize", no_copy)
    before = _tree(project)
    result = await run_command(ws, ["python", "-c", _OBSERVE], 30, read_only=True)
    assert result["exit_code"] == 0 and result["sandboxed"], result
    seen = json.loads(result["stdout"])
    assert seen["a"] == (project / "src" / "a.py").read_text()
    assert {"src", "notes.txt", "blob.bin"} <= set(seen["files"])
    assert seen["state"] == []  # Remora's state is hidden, as a copy leaves it out
    assert seen["new.txt"] == seen["src/a.py"] == "Read-only file system"
    assert seen["leak"] == "No such file or directory"  # a link out of the project leads nowhere
    assert result["changed_files"] == [] and ws.changed_files() == []
    assert _tree(project) == before
    assert leftovers() == set()


async def test_a_read_only_command_sees_the_edited_files_over_the_live_project(
    ws: Workspace, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from remora.sandbox.commands import run_command
    from remora.workspace import sync

    def no_copy(*_: object) -> None:
        raise AssertionError("the project was copied")

    monkeypatch.setattr(sync, "materialize", no_copy)
    ws.write("src/a.py", b"CHANGED = 1\n")
    result = await run_command(ws, ["python", "-c", _OBSERVE], 30, read_only=True)
    assert result["exit_code"] == 0 and result["sandboxed"], result
    seen = json.loads(result["stdout"])
    assert seen["a"] == "CHANGED = 1\n"  # the overlay's content, over the live file
    assert seen["new.txt"] == seen["src/a.py"] == "Read-only file system"
    assert result["changed_files"] == [] and ws.changed_files() == ["src/a.py"]
    assert (project / "src" / "a.py").read_text().startswith("import os")
    assert leftovers() == set()


async def test_a_read_only_command_of_a_workspace_that_deletes_gets_a_copy(
    ws: Workspace, project: Path
) -> None:
    from remora.sandbox.commands import run_command

    ws.write("src/a.py", b"CHANGED = 1\n")
    ws.delete("notes.txt")
    result = await run_command(ws, ["python", "-c", _OBSERVE], 30, read_only=True)
    assert result["exit_code"] == 0, result
    seen = json.loads(result["stdout"])
    assert seen["a"] == "CHANGED = 1\n" and "notes.txt" not in seen["files"]
    assert seen["new.txt"] == "written"  # a copy, which nothing reads back
    assert result["changed_files"] == [] and sorted(ws.changed_files()) == ["notes.txt", "src/a.py"]
    assert (project / "notes.txt").exists()


async def test_standard_output_is_cut_at_the_limit_the_caller_asks_for(ws: Workspace) -> None:
    from remora.sandbox.commands import MAX_OUTPUT_CHARS, run_command

    # A host program's one-line report can be longer than a command's usual output.
    argv = ["python", "-c", "print('x' * 200_000)"]
    usual = await run_command(ws, argv, 30, absorb=False)
    assert usual["stdout"].startswith("x" * MAX_OUTPUT_CHARS + "…[truncated")
    long = await run_command(ws, argv, 30, absorb=False, stdout_chars=1_000_000)
    assert long["stdout"].strip() == "x" * 200_000
