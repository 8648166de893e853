"""run_command: an allow-listed command in a materialised copy of the workspace.

The command sees project + overlay in a temporary folder, with a minimal
environment (no inherited secrets); what it changed there is read back into the
overlay, and the folder is removed. Nothing outside the copy is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from remora.sandbox.envelope import ExternalRefused

if TYPE_CHECKING:
    from remora.workspace import Workspace

__all__ = ["check_command", "resolve_executable", "run_command"]

MAX_OUTPUT_CHARS = 64_000


def check_command(cmd: object, args: object, allowed: Sequence[Sequence[str]]) -> list[str]:
    """``[cmd, *args]`` when an allow-list prefix matches and no argument leaves the project."""
    if not isinstance(cmd, str) or not cmd:
        raise TypeError("run_command: cmd must be a non-empty string")
    if not isinstance(args, list | tuple) or not all(isinstance(a, str) for a in args):
        raise TypeError("run_command: args must be a list of strings")
    argv = [cmd, *args]
    if not any(list(prefix) == argv[: len(prefix)] for prefix in allowed):
        shown = "; ".join(" ".join(p) for p in allowed) or "none"
        raise ExternalRefused(f"command {' '.join(argv[:3])!r} is not allowed (allowed: {shown})")
    for arg in args:
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if value.startswith(("/", "~")) or ".." in PurePosixPath(value).parts:
            raise ExternalRefused(f"argument {arg!r} refused: paths must stay inside the project")
    return argv


def resolve_executable(cmd: str) -> str:
    """``python`` is this interpreter; other tools come from its environment first."""
    if cmd in ("python", "python3"):
        return sys.executable
    beside = Path(sys.executable).parent / cmd
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(cmd)
    if found is None:
        raise FileNotFoundError(f"command {cmd!r} is not installed")
    return found


def _env(home: Path, tmp: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {
        "PATH": os.pathsep.join([bin_dir, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "NO_COLOR": "1",
    }


def _text(data: bytes, project: Path) -> str:
    text = data.decode("utf-8", errors="replace").replace(str(project) + os.sep, "")
    if len(text) > MAX_OUTPUT_CHARS:
        text = f"{text[:MAX_OUTPUT_CHARS]}…[truncated {len(text) - MAX_OUTPUT_CHARS} chars]"
    return text


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


async def run_command(ws: Workspace, argv: list[str], timeout_s: float) -> dict[str, Any]:
    """Run a checked ``argv`` (see :func:`check_command`); returns the command's result."""
    executable = resolve_executable(argv[0])
    base = Path(tempfile.mkdtemp(prefix="remora-cmd-"))
    project, home, tmp = base / "project", base / "home", base / "tmp"
    try:
        home.mkdir()
        tmp.mkdir()
        await asyncio.to_thread(ws.materialize, project)
        started = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            executable,
            *argv[1:],
            cwd=project,
            env=_env(home, tmp),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )  # its own group, so a timeout kills its children too
        timed_out = False
        try:
            stdout, stderr = await asyncio.wait_for(proc.communicate(), timeout_s)
        except TimeoutError:
            timed_out = True
            _kill_group(proc)
            stdout, stderr = await proc.communicate()
        finally:
            if proc.returncode is None:  # cancelled from outside
                _kill_group(proc)
                await proc.wait()
        changed: list[str] = []
        if not timed_out:
            changed = await asyncio.to_thread(ws.absorb, project)
        err = _text(stderr, project)
        if timed_out:
            err += f"\n[remora] command killed after {timeout_s:g}s (command timeout)"
        return {
            "stdout": _text(stdout, project),
            "stderr": err,
            "exit_code": proc.returncode if not timed_out else 124,
            "timed_out": timed_out,
            "changed_files": changed,
            "duration_s": round(time.monotonic() - started, 3),
        }
    finally:
        await asyncio.to_thread(shutil.rmtree, base, True)
