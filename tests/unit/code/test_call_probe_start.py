"""The call probe's process starts without asyncio (a third of its start-up) and still runs
a coroutine function's calls to their end; what the code's own programs write cannot hide
its report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from remora.code.probes.sandboxed import MARKER, _program_text

MODULE = """\
import os
import subprocess


def plain(a):
    return a + 1


async def later(a):
    return a * 2


def noisy(a):
    # As an editor does: a program writing to the inherited stdout, its line left open.
    subprocess.run(["sh", "-c", "printf 'screen drawn'"], check=True)
    os.write(1, b"\\x1b[?1049h")
    return a
"""


def _probe(
    tmp_path: Path, qualname: str
) -> tuple[dict[str, object], bool, subprocess.CompletedProcess[str]]:
    (tmp_path / "probed.py").write_text(MODULE)
    request: dict[str, object] = {
        "module": "probed",
        "qualname": qualname,
        "kind": "function",
        "owner": None,
        "owner_args": {},
        "paths": ["."],
        "sets": [{"name": "one", "args": {"a": 3}}],
        "call": True,
        "observe": [],
        "timeout_s": 10,
    }
    text = _program_text("call_probe", request, None)
    text += '\nprint("ASYNCIO", "asyncio" in sys.modules)\n'
    run = subprocess.run(
        [sys.executable, "-"], input=text, cwd=tmp_path, capture_output=True, text=True, check=True
    )
    lines = run.stdout.splitlines()
    report = json.loads(next(line for line in lines if line.startswith(MARKER))[len(MARKER) :])
    return report, "ASYNCIO True" in lines, run


def test_a_plain_function_is_probed_without_importing_asyncio(tmp_path: Path) -> None:
    report, imported, _ = _probe(tmp_path, "plain")
    assert report["outcomes"][0]["returned"]["repr"] == "4"  # type: ignore[index]
    assert not imported


def test_a_coroutine_function_is_awaited(tmp_path: Path) -> None:
    report, imported, _ = _probe(tmp_path, "later")
    assert report["outcomes"][0]["returned"]["repr"] == "6"  # type: ignore[index]
    assert imported


def test_a_program_the_code_starts_writes_to_stderr_not_over_the_report(tmp_path: Path) -> None:
    report, _, run = _probe(tmp_path, "noisy")
    assert report["outcomes"][0]["returned"]["repr"] == "3"  # type: ignore[index]
    assert "screen drawn" in run.stderr and "screen drawn" not in run.stdout
