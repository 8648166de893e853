"""run_command: an allow-listed command in a materialised copy of the workspace.

The command sees project + overlay in a temporary folder, with a minimal
environment (no inherited secrets), inside the bubblewrap sandbox of
:mod:`remora.sandbox.isolation` (the copy is its only writable place, no
network, its own PID namespace); what it changed there is read back into the
overlay, and the folder is removed. Where no sandbox can be created the command
is refused unless ``sandbox.allow_unsandboxed_commands`` says otherwise.

A command that only observes may ask for the project read-only instead: while
the workspace has no change, the sandbox then mounts the live project itself
read-only where the copy would be (Remora's state, git's and the other folders
a copy leaves out hidden), and nothing is copied: on a large project the copy
costs far more than the command. Writing there fails (a read-only file system).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from remora.sandbox.ending import end_process, end_sandbox, start_in_group
from remora.sandbox.envelope import ExternalRefused
from remora.sandbox.isolation import SandboxUnavailable, bwrap_argv, sandbox_problem
from remora.sandbox.project_metadata import metadata_path
from remora.workspace import sync
from remora.workspace.paths import SKIP_DIRS, is_skipped

if TYPE_CHECKING:
    from remora.workspace import Workspace

__all__ = [
    "check_command",
    "command_env",
    "command_folder",
    "output_text",
    "read_only_mounts",
    "resolve_executable",
    "run_command",
]

MAX_OUTPUT_CHARS = 64_000
# Bytes kept per stream while reading: a command printing gigabytes must not
# fill Remora's memory; the rest is read and dropped (counted).
MAX_OUTPUT_BYTES = 4 * MAX_OUTPUT_CHARS


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
    # A first line of defence only (`-o cache_dir=/x`, `--config=/x`): the OS
    # sandbox is what keeps a command inside its copy whatever it is given.
    for arg in args:
        for value in (arg, *arg.split("=")[1:]):
            value = value.strip("'\"")
            if value.startswith(("/", "~")) or ".." in PurePosixPath(value).parts:
                raise ExternalRefused(
                    f"argument {arg!r} refused: paths must stay inside the project"
                )
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


def command_env(home: Path, tmp: Path, site: Path | None = None) -> dict[str, str]:
    """A sandboxed process's whole environment: nothing inherited (no secrets); ``site``:
    the folder of the project's own distribution metadata (:mod:`.project_metadata`)."""
    bin_dir = str(Path(sys.executable).parent)
    found = {"PYTHONPATH": str(site)} if site is not None else {}
    return {
        **found,
        "PATH": os.pathsep.join([bin_dir, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "NO_COLOR": "1",
        # No terminal and nobody to type: an editor the code starts (click.edit, git commit)
        # waited for input to the time limit (vim, its input ended, reads it from stderr, a
        # pipe). `true` leaves the file as it was, as a person closing the editor would.
        "VISUAL": "true",
        "EDITOR": "true",
    }


def output_text(data: bytes, project: Path, dropped: int = 0, limit: int = MAX_OUTPUT_CHARS) -> str:
    """A stream as a result shows it: paths made project-relative, cut at ``limit`` chars."""
    text = data.decode("utf-8", errors="replace").replace(str(project) + os.sep, "")
    if len(text) > limit:
        text = f"{text[:limit]}…[truncated {len(text) - limit} chars]"
    if dropped:
        text += f"…[{dropped} more bytes of output dropped]"
    return text


async def _drain(
    stream: asyncio.StreamReader | None, cap: int = MAX_OUTPUT_BYTES
) -> tuple[bytes, int]:
    """Everything from ``stream``: the first ``cap`` bytes, and how many bytes followed."""
    kept = bytearray()
    dropped = 0
    if stream is None:
        return b"", 0
    while chunk := await stream.read(1 << 16):
        room = cap - len(kept)
        kept += chunk[:room]
        dropped += max(0, len(chunk) - room)
    return bytes(kept), dropped


async def _feed(stdin: asyncio.StreamWriter | None, data: bytes | None) -> None:
    if stdin is None:
        return
    try:
        if data:
            stdin.write(data)
            await stdin.drain()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the command exited without reading all of it, as communicate() allows
    finally:
        stdin.close()


async def _talk(
    proc: asyncio.subprocess.Process, data: bytes | None, out_cap: int
) -> tuple[tuple[bytes, int], tuple[bytes, int]]:
    out, err, _ = await asyncio.gather(
        _drain(proc.stdout, out_cap), _drain(proc.stderr), _feed(proc.stdin, data)
    )
    await proc.wait()
    return out, err


UNSANDBOXED_NOTE = (
    "[remora] WARNING: this command ran WITHOUT the OS sandbox "
    "(sandbox.allow_unsandboxed_commands is on): it could read and change anything you can"
)


def command_folder(prefix: str = "remora-cmd-") -> Path:
    """A new folder for a sandboxed process: its only writable place."""
    # Resolved: the sandbox mounts this folder at its real path.
    return Path(os.path.realpath(tempfile.mkdtemp(prefix=prefix)))


def read_only_mounts(
    ws: Workspace, project: Path, changed: Mapping[str, Path] | None = None
) -> list[str]:
    """bwrap options showing the live project read-only at ``project``, as a copy shows it,
    with each of ``changed`` (a path in the project: the file holding its new content)
    shown over the live file."""
    mounts = ["--ro-bind", str(ws.project_root), str(project)]
    for name in sorted(SKIP_DIRS):  # what a copy leaves out, at the top where it matters
        if (ws.project_root / name).is_dir():
            mounts += ["--tmpfs", str(project / name)]
    for rel, content in sorted((changed or {}).items()):
        mounts += ["--ro-bind", str(content), str(project / rel)]
    return mounts


def edited_files(ws: Workspace) -> dict[str, bytes] | None:
    """The workspace's changes when each is a new content of a live project file (shown over
    it in the sandbox); None when a copy must be made: a file added or deleted, a link on the
    way, a path a copy leaves out. Copying SQLAlchemy (1,000 files) for every lint check that
    runs the changed code was most of a lint run's host time."""
    root = os.path.realpath(ws.project_root)
    edited: dict[str, bytes] = {}
    for rel, content, deleted in ws.overlay_rows():
        live = os.path.join(root, rel)
        if deleted or content is None or is_skipped(rel) or os.path.realpath(live) != live:
            return None
        if not os.path.isfile(live):
            return None
        edited[rel] = content
    return edited


def _write_edited(edited: Mapping[str, bytes], ws: Workspace, folder: Path) -> dict[str, Path]:
    """Each edited file's content under ``folder`` (outside the sandbox's writable one), with
    the live file's permissions."""
    written: dict[str, Path] = {}
    for rel, content in edited.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        mode = ws.live_mode(rel)
        if mode is not None:
            os.chmod(path, mode & 0o777)
        written[rel] = path
    return written


def _launcher(
    executable: str,
    args: list[str],
    base: Path,
    project: Path,
    allow_unsandboxed: bool,
    read_only_of: tuple[Workspace, Mapping[str, Path]] | None = None,
) -> tuple[list[str], bool]:
    """The argv to start, and whether it runs sandboxed.

    With ``read_only_of`` the sandbox shows that workspace's live project read-only
    at ``project``, its edited files over it (no copy is made); never without a
    sandbox.
    """
    problem = sandbox_problem()
    if problem is None:
        bwrap = shutil.which("bwrap") or "bwrap"
        mounts = (
            []
            if read_only_of is None
            else read_only_mounts(read_only_of[0], project, read_only_of[1])
        )
        return bwrap_argv(bwrap, base, executable, args, project, mounts), True
    if not allow_unsandboxed:
        raise SandboxUnavailable(problem)
    warnings.warn(f"{UNSANDBOXED_NOTE} ({problem})", RuntimeWarning, stacklevel=2)
    return [executable, *args], False


async def run_command(
    ws: Workspace,
    argv: list[str],
    timeout_s: float,
    *,
    allow_unsandboxed: bool = False,
    input_data: bytes | None = None,
    absorb: bool = True,
    read_only: bool = False,
    stdout_chars: int = MAX_OUTPUT_CHARS,
) -> dict[str, Any]:
    """Run a checked ``argv`` (see :func:`check_command`) in the sandbox; returns its result.

    ``stdout_chars``: the standard output kept (the rest is cut and counted); host
    programs whose one-line JSON report can be long ask for more.

    ``input_data`` is the command's standard input (none when None). With
    ``absorb`` false what the command changed in its copy is discarded: host
    code that only observes (a pytest run, a probe call) leaves no side effects.
    With ``read_only`` (which implies no absorb) a sandboxed command sees the
    live project read-only, the workspace's edited files over it, instead of a
    copy (one is made when the workspace adds or deletes a file).

    Raises :class:`SandboxUnavailable` when no sandbox can be created and
    ``allow_unsandboxed`` is false.
    """
    executable = resolve_executable(argv[0])
    base = command_folder()
    project, home, tmp = base / "project", base / "home", base / "tmp"
    # The merged view is the live project with the edited files over it: shown as it is.
    edited = edited_files(ws) if read_only else None
    # outside ``base``, which the command may write: what it is shown stays as it was
    edits_folder = command_folder("remora-edits-") if edited else None
    shared = None
    absorb = absorb and not read_only
    try:
        if edited is not None:
            written = {}
            if edits_folder is not None:
                written = await asyncio.to_thread(_write_edited, edited, ws, edits_folder)
            shared = (ws, written)
        # A thread: the first call probes bwrap with a subprocess.
        launch, sandboxed = await asyncio.to_thread(
            _launcher, executable, argv[1:], base, project, allow_unsandboxed, shared
        )
        bwrap_folder = base if sandboxed else None  # named by its bwrap's arguments
        home.mkdir()
        tmp.mkdir()
        if shared is not None and sandboxed:
            project.mkdir()  # the mount point
        else:
            await asyncio.to_thread(sync.materialize, ws, project)
        started = time.monotonic()
        proc = await start_in_group(
            launch,
            bwrap_folder,
            cwd=project,
            env=command_env(home, tmp, metadata_path(ws.read, home)),
            stdin=subprocess.DEVNULL if input_data is None else subprocess.PIPE,
        )
        timed_out = False
        talk = asyncio.ensure_future(_talk(proc, input_data, 4 * stdout_chars))
        try:
            try:
                await asyncio.wait_for(asyncio.shield(talk), timeout_s)
            except TimeoutError:
                timed_out = True
                end_sandbox(proc.pid, bwrap_folder)  # the pipes close with it
            (stdout, out_dropped), (stderr, err_dropped) = await talk
        finally:
            if not talk.done():  # cancelled from outside
                talk.cancel()
                await asyncio.wait([talk])  # its reads end before end_process reads the rest
                await end_process(proc, bwrap_folder)
        changed: list[str] = []
        if absorb and not timed_out:
            changed = await asyncio.to_thread(sync.absorb, ws, project)
        err = output_text(stderr, project, err_dropped)
        if timed_out:
            err += f"\n[remora] command killed after {timeout_s:g}s (command timeout)"
        if not sandboxed:
            err += f"\n{UNSANDBOXED_NOTE}"
        return {
            "stdout": output_text(stdout, project, out_dropped, stdout_chars),
            "stderr": err,
            "exit_code": proc.returncode if not timed_out else 124,
            "timed_out": timed_out,
            "changed_files": changed,
            "duration_s": round(time.monotonic() - started, 3),
            "sandboxed": sandboxed,
        }
    finally:
        await asyncio.to_thread(shutil.rmtree, base, True)
        if edits_folder is not None:
            await asyncio.to_thread(shutil.rmtree, edits_folder, True)
