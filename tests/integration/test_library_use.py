"""`examples/library_use.py` runs as a user runs it (a subprocess), with the real default model.

The model's wording varies, so this asserts structure: the example's summary line,
one printed change per workspace the queue lists, and the example project untouched.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPERATIONS = ("-o", "lint,docstring")


@pytest.mark.timeout(1800)
def test_library_example_prints_the_changes(embedded_model_path: Path) -> None:
    sample = EXAMPLES / "sample_project"
    before = {p: p.read_bytes() for p in sample.rglob("*") if p.is_file()}
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    env["REMORA_MODEL__PATH"] = str(embedded_model_path)
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "library_use.py"), "inventory/pricing.py", *OPERATIONS],
        env=env,
        capture_output=True,
        text=True,
        timeout=1700,
    )
    assert run.returncode in (0, 1), run.stderr
    summary = re.match(
        r"10 runs: (\d+) succeeded, (\d+) failed, (\d+) skipped; (\d+) changes waiting",
        run.stdout,
    )
    assert summary is not None, run.stdout
    changes = int(summary.group(4))
    assert changes >= 1, run.stdout  # the unused import in pricing.py is always fixed
    printed = re.findall(
        r"^== (lint|docstring) on \S+ \(((?:lint|docstring)-\w+)\)$", run.stdout, re.M
    )
    assert len(printed) == changes
    assert f"review queue: {changes} pending" in run.stdout
    assert (run.returncode == 0) == (summary.group(2) == "0")
    after = {p: p.read_bytes() for p in sample.rglob("*") if p.is_file()}
    assert after == before  # it works on a copy
