"""The real ``remora`` entry point in a subprocess, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REMORA = [sys.executable, "-c", "from remora.cli.app import main; main()"]


def remora(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``remora ARGS`` in ``cwd``: its exit code and what it printed; never a traceback."""
    done = subprocess.run(
        [*REMORA, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout + done.stderr
