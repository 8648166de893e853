"""The OS sandbox that every ``run_command`` process runs in (bubblewrap).

A command is a real program (pytest runs the project's own code), so checking
its arguments is not enough: the process itself is contained. Under ``bwrap``
it sees

* the system directories (``/usr``, ``/bin``, ``/lib*``), a few loader files
  from ``/etc`` and this Python installation and virtual environment, all
  read-only;
* its own folder (the workspace copy, ``HOME`` and ``TMPDIR``) as the only
  writable place, mounted at the same absolute path as on the host;
* an empty ``/tmp``, its own ``/proc`` and ``/dev``;

and runs with no network (only a loopback device), no capabilities, an
unprivileged user id, its own PID namespace (when its first process ends, or
Remora dies, the kernel kills every process left in it, ``setsid`` or not) and
its own session (no terminal to inject keystrokes into). The real project,
home directories, ``/etc/passwd`` and other users' files are not mounted.
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from remora.errors import ScriptRuntimeError

__all__ = ["SandboxUnavailable", "bwrap_argv", "find_sandbox_problem", "sandbox_problem"]

# The unprivileged user the command runs as inside its user namespace; the
# caller's own uid (root included) is mapped onto it.
SANDBOX_UID = 1000
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What the dynamic loader, locale and alternatives symlinks need; nothing with
# accounts, keys or host names.
_ETC_ENTRIES = (
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
)
_INSTALL_HINT = (
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; scripts/test.sh does it), "
    "or set sandbox.allow_unsandboxed_commands: true to run commands without isolation"
)


class SandboxUnavailable(ScriptRuntimeError):
    """No OS sandbox can be created here, so commands are refused (SANDBOX_002)."""

    def __init__(self, reason: str) -> None:
        # The remedy is in the message too: a tool run shows only the message.
        super().__init__(f"run_command refused, no OS sandbox: {reason}; {_INSTALL_HINT}")
        self.reason = reason


def _python_roots() -> list[Path]:
    """This interpreter's installation and environment, wherever they live."""
    roots = {
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(sys.exec_prefix),
        Path(sys.base_exec_prefix),
        Path(os.path.realpath(sys.executable)).parent.parent,
    }
    return sorted(root.resolve() for root in roots if root.is_dir())


def _covered(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def bwrap_argv(
    bwrap: str,
    writable: Path,
    executable: str,
    args: list[str],
    cwd: Path,
    mounts: Sequence[str] = (),
) -> list[str]:
    """The ``bwrap`` command line that runs ``executable args`` inside the sandbox.

    ``writable`` (the command's own folder) is mounted read-write at its own
    path; ``cwd`` must lie inside it. ``mounts`` are further bwrap mount
    options, applied after it (so they may cover folders inside it).
    """
    argv = [bwrap, "--tmpfs", "/tmp"]
    for system_dir in _SYSTEM_DIRS:
        if os.path.islink(system_dir):  # merged /usr: /bin -> usr/bin
            argv += ["--symlink", os.readlink(system_dir), system_dir]
        elif os.path.isdir(system_dir):
            argv += ["--ro-bind", system_dir, system_dir]
    for entry in _ETC_ENTRIES:
        if os.path.exists(entry):
            argv += ["--ro-bind", entry, entry]
    system = [Path(d) for d in _SYSTEM_DIRS]
    readonly = [root for root in _python_roots() if not _covered(root, system)]
    tool_dir = Path(os.path.realpath(executable)).parent
    if not _covered(tool_dir, [*system, *readonly]):
        readonly.append(tool_dir)
    for root in readonly:
        argv += ["--ro-bind", str(root), str(root)]
    argv += [
        "--bind",
        str(writable),
        str(writable),
        *mounts,
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--unshare-all",
        "--unshare-user",
        "--uid",
        str(SANDBOX_UID),
        "--gid",
        str(SANDBOX_UID),
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
        "--chdir",
        str(cwd),
        "--",
        executable,
        *args,
    ]
    return argv


@functools.cache
def sandbox_problem() -> str | None:
    """Why no sandbox can be created here (None when one can); probed once per process."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    true = shutil.which("true") or "/bin/true"
    with tempfile.TemporaryDirectory(prefix="remora-probe-") as folder:
        probe = Path(folder).resolve()
        argv = bwrap_argv(bwrap, probe, true, [], probe)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bubblewrap could not be started ({exc})"
    if done.returncode != 0:
        detail = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return (
            f"bubblewrap cannot create a sandbox here ({detail[0]}); "
            "user namespaces may be disabled (kernel.unprivileged_userns_clone, "
            "user.max_user_namespaces) or restricted by AppArmor"
        )
    return None


async def find_sandbox_problem() -> str | None:
    """:func:`sandbox_problem` from the event loop: the first call probes in a thread (it
    starts bubblewrap), the later ones read the kept answer without a thread's round trip
    (each probe of a run asks; a thread hop waits for the GIL behind the other agents)."""
    if sandbox_problem.cache_info().currsize:
        return sandbox_problem()
    return await asyncio.to_thread(sandbox_problem)
