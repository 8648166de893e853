"""The sandbox launcher: bwrap's command line, and the refusal when no sandbox can be made."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from remora.config import SandboxConfig
from remora.sandbox import ExternalRefused, build_externals
from remora.sandbox.commands import run_command
from remora.sandbox.isolation import (
    SandboxUnavailable,
    bwrap_argv,
    find_sandbox_problem,
    sandbox_problem,
)
from remora.workspace import Workspace, WorkspaceStore


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    (tmp_path / "a.py").write_text("x = 1\n")
    workspace = WorkspaceStore(tmp_path).create("test", "iso")
    yield workspace
    workspace.close()


@pytest.fixture
def no_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    sandbox_problem.cache_clear()
    yield
    sandbox_problem.cache_clear()


def test_the_command_line_mounts_only_the_copy_writable(tmp_path: Path) -> None:
    argv = bwrap_argv("bwrap", tmp_path, sys.executable, ["-V"], tmp_path / "project")
    writable = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--bind"]
    assert writable == [str(tmp_path)]
    for flag in ("--unshare-all", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[-3:] == ["--", sys.executable, "-V"]
    readonly = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--ro-bind"]
    assert "/etc/passwd" not in readonly and "/etc" not in readonly
    assert Path(sys.base_prefix).resolve().as_posix() in readonly or sys.base_prefix.startswith(
        "/usr"
    )


def test_missing_bwrap_is_named(no_bwrap: None) -> None:
    assert sandbox_problem() == "bubblewrap (bwrap) is not installed"


async def test_the_loop_asks_a_thread_only_until_the_answer_is_known(
    no_bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    hops: list[object] = []
    real = asyncio.to_thread

    async def counted(function: Callable[[], object]) -> object:
        hops.append(function)
        return await real(function)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    answers = [await find_sandbox_problem() for _ in range(3)]
    assert answers == ["bubblewrap (bwrap) is not installed"] * 3
    assert hops == [sandbox_problem]  # the first probe's thread; then the kept answer


async def test_commands_are_refused_without_a_sandbox(no_bwrap: None, ws: Workspace) -> None:
    with pytest.raises(SandboxUnavailable, match="bubblewrap") as caught:
        await run_command(ws, ["python", "-c", "print(1)"], timeout_s=10)
    assert "apt-get install bubblewrap" in caught.value.message
    assert "allow_unsandboxed_commands" in caught.value.message
    ext = build_externals(ws, None, SandboxConfig())
    with pytest.raises(ExternalRefused, match="bwrap"):
        await ext["run_command"]("ruff", ["check", "."])


async def test_the_unsandboxed_switch_is_loud(no_bwrap: None, ws: Workspace) -> None:
    with pytest.warns(RuntimeWarning, match="WITHOUT the OS sandbox"):
        result = await run_command(
            ws, [sys.executable, "-c", "print(1)"], timeout_s=10, allow_unsandboxed=True
        )
    assert result["sandboxed"] is False
    assert result["stdout"] == "1\n"
    assert "WITHOUT the OS sandbox" in result["stderr"]


async def test_a_flood_of_output_is_cut_not_kept(ws: Workspace) -> None:
    code = "import sys; sys.stdout.write('x' * 10_000_000); print('tail', file=sys.stderr)"
    result = await run_command(ws, ["python", "-c", code], timeout_s=60)
    assert result["sandboxed"] is True and result["exit_code"] == 0
    assert result["stdout"].startswith("x" * 1000)
    assert "more bytes of output dropped" in result["stdout"]
    assert len(result["stdout"]) < 70_000
    assert result["stderr"] == "tail\n"


async def test_standard_input_reaches_the_command(ws: Workspace) -> None:
    code = "import sys; print(sys.stdin.read().upper())"
    result = await run_command(ws, ["python", "-c", code], timeout_s=60, input_data=b"abc")
    assert result["stdout"] == "ABC\n"
