"""Running ``git`` itself, with errors a user can act on.

Remora talks to git through the ``git`` command, not a library (pygit2,
dulwich): the command is what the user's repository is made with, so it
reads every feature of it the same way (shallow clones, worktrees, sparse
checkouts, index extensions, ``core.*`` settings, ``.gitignore`` and the
global excludes), and ``git commit`` keeps the user's identity, signing and
hook settings. It costs a process per call (~2 ms), and a command needs only
a handful of calls.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from remora.errors import GitError

__all__ = ["GitFailed", "git", "git_text"]

# Output that is parsed must not depend on the user's configuration.
_FIXED = (
    "-c",
    "core.quotePath=false",
    "-c",
    "color.ui=false",
    "-c",
    "diff.noprefix=false",
    "-c",
    "diff.mnemonicPrefix=false",
)


class GitFailed(Exception):
    """``git`` ran and exited non-zero; the caller turns it into a :class:`GitError`."""

    def __init__(self, args: Sequence[str], returncode: int, stderr: str) -> None:
        super().__init__(f"git {' '.join(args)}: exit {returncode}: {stderr.strip()}")
        self.args_ = tuple(args)
        self.returncode = returncode
        self.stderr = stderr.strip()


def git(
    cwd: Path,
    *args: str,
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    read_only: bool = True,
) -> bytes:
    """``git ARGS`` in ``cwd``: its stdout as bytes; :class:`GitFailed` on a non-zero exit.

    ``read_only`` commands run with ``GIT_OPTIONAL_LOCKS=0`` so that a status or
    diff never takes the index lock that a concurrent ``git commit`` needs.
    """
    full_env = {**os.environ, **(env or {})}
    full_env["LC_ALL"] = "C"  # stderr is shown to the user; keep it in one language
    if read_only:
        full_env["GIT_OPTIONAL_LOCKS"] = "0"
    try:
        done = subprocess.run(
            ["git", *_FIXED, *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            env=full_env,
            check=False,
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed (no `git` command on PATH)",
            "install git (e.g. `apt-get install git`), or leave out --changed/--commit",
        ) from None
    if done.returncode != 0:
        raise GitFailed(args, done.returncode, done.stderr.decode("utf-8", "replace"))
    return done.stdout


def git_text(cwd: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """``git ARGS`` stdout as text, without its final newline."""
    return git(cwd, *args, env=env).decode("utf-8", "surrogateescape").rstrip("\n")
