"""The stand-in model server (benchmarks/standin_server.py) in a process of its own, for tests
that run the real `remora analyze` against it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

__all__ = ["MODEL_WORDS", "REMORA", "STANDIN", "Standin", "remora_env"]

REMORA = str(Path(sys.executable).with_name("remora"))
# The stand-in answers chat completions only, never a drafted summary: a project's docstrings
# are its `write_docstring` calls, which the docstring operation asks for with drafting off.
MODEL_WORDS = "operations:\n  docstring:\n    options:\n      draft: false\n"
STANDIN = Path(__file__).resolve().parents[2] / "benchmarks" / "standin_server.py"


class Standin:
    """One stand-in process; ``stop()`` kills it (as a crashed server: no goodbye)."""

    def __init__(self, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(STANDIN), "--port", "0", *options],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.base_url: str = json.loads(self.process.stdout.readline())["base_url"]

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.base_url}/stats", timeout=5) as answer:
            stats: dict[str, Any] = json.loads(answer.read())
        return stats

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


def remora_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
