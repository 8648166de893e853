"""``remora ask`` with the default embedded model answers from the session's facts.

The command a user types, in a subprocess, with nothing configured: the default
model (Qwen2.5-Coder-0.5B-Instruct since issue 25; ``REMORA_MODEL__*`` in the
environment still applies, as for any command). The value must be the
session's own, 6, not one the model made up. Limits are generous: the machine
is shared, and this checks the answer, not the speed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.model]

REMORA = str(Path(sys.executable).parent / "remora")


def test_ask_prints_the_sessions_value(embedded_model_path: Path, tmp_path: Path) -> None:
    assert embedded_model_path.is_file()  # the default model, fetched once
    script = tmp_path / "s.py"
    script.write_text("items = [3, 1, 2]\ntotal = sum(items)\n")
    limits = ["--step-timeout", "240", "--total-timeout", "600"]
    done = subprocess.run(
        [REMORA, "ask", "What is the value of total?", "--exec", str(script), *limits],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    answer = done.stdout.strip()
    assert re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\w)", answer) == ["6"], answer
    assert "Traceback" not in done.stderr
    # The host's own calls for the facts are shown, as the model's would be.
    assert "· get_repr(expr='total'" in done.stderr
