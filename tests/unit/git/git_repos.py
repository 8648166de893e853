"""Real git repositories in a temporary folder, built commit by commit for the tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# A fixed identity and no user or system configuration: the tests see git's defaults.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def use_plain_git(monkeypatch: object) -> None:
    """Make the code under test (which runs git itself) see the same plain git."""
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)  # type: ignore[attr-defined]


class Repo:
    def __init__(self, root: Path, *, init: bool = True) -> None:
        self.root = root
        if init:
            root.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            env={**os.environ, **GIT_ENV},
            check=False,
        )
        assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
        return done.stdout.rstrip()

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text()

    def commit(self, message: str, *paths: str) -> str:
        self.git("add", "--", *(paths or (".",)))
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")

    def status(self) -> str:
        return self.git("status", "--porcelain")

    def log(self) -> list[str]:
        return self.git("log", "--format=%s").splitlines()


def remora(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``remora ARGS`` in a subprocess as a user runs it: exit code and output, no traceback."""
    done = subprocess.run(
        [sys.executable, "-c", "from remora.cli.app import main; main()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **GIT_ENV, "COLUMNS": "200", **(env or {})},
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout + done.stderr
