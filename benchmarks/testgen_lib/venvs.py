"""Each peer tool in its own virtual environment under the cache, pinned.

Pynguin 0.48.0 pins pytest < 9 and black < 26, which Remora's own environment
does not meet; ghostwriter needs Hypothesis' ``cli`` and ``ghostwriter``
extras. The ghostwriter venv also holds the pytest and coverage.py that
measure every suite, so all three tools' tests run under the same command.
A venv is rebuilt when its requirement list differs from the one it was built with.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "remora" / "bench"

PYNGUIN = ("pynguin==0.48.0",)
# hypothesis 6.170.15 is the newest release; pytest 8.4.2 and coverage 7.17.3 are what
# the Pynguin venv resolves too, so a suite meets the same runner wherever it came from.
MEASURE = ("hypothesis[cli,ghostwriter]==6.170.15", "pytest==8.4.2", "coverage==7.17.3")
VENVS = {"pynguin": PYNGUIN, "measure": MEASURE}


class VenvError(Exception):
    """A tool's virtual environment cannot be built."""


def venv_python(name: str, cache: Path = CACHE) -> Path:
    """The python of the venv ``name`` (``pynguin`` or ``measure``), built on first use."""
    requirements = VENVS[name]
    folder = cache / f"{name}-venv"
    python = folder / "bin" / "python"
    marker = folder / "remora-requirements.txt"
    wanted = "\n".join(requirements) + "\n"
    if python.is_file() and marker.is_file() and marker.read_text() == wanted:
        return python
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    print(f"building {folder} ({', '.join(requirements)})", file=sys.stderr, flush=True)
    steps = [
        [sys.executable, "-m", "venv", str(folder)],
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *requirements],
    ]
    for argv in steps:
        run = subprocess.run(argv, capture_output=True, text=True)
        if run.returncode != 0:
            raise VenvError(
                f"{' '.join(argv[:4])} ... failed (exit {run.returncode}): "
                f"{run.stderr.strip()[-600:]}; check access to PyPI, or delete {folder}"
            )
    marker.write_text(wanted)
    return python


def versions(python: Path) -> dict[str, str]:
    """The installed versions of the packages that matter, as the venv reports them."""
    code = (
        "import importlib.metadata as m, json\n"
        "out = {}\n"
        "for n in ('pynguin', 'hypothesis', 'pytest', 'coverage', 'black'):\n"
        "    try: out[n] = m.version(n)\n"
        "    except m.PackageNotFoundError: pass\n"
        "print(json.dumps(out))\n"
    )
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    found: dict[str, str] = json.loads(run.stdout)
    return found


__all__ = ["CACHE", "MEASURE", "PYNGUIN", "VenvError", "venv_python", "versions"]
