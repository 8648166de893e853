"""The call probe's process starts without asyncio (a third of its start-up) and still runs
a coroutine function's calls to their end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from remora.code.sandboxed import MARKER, _program_text

MODULE = "def plain(a):\n    return a + 1\n\n\nasync def later(a):\n    return a * 2\n"


def _probe(tmp_path: Path, qualname: str) -> tuple[dict[str, object], bool]:
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
    return report, "ASYNCIO True" in lines


def test_a_plain_function_is_probed_without_importing_asyncio(tmp_path: Path) -> None:
    report, imported = _probe(tmp_path, "plain")
    assert report["outcomes"][0]["returned"]["repr"] == "4"  # type: ignore[index]
    assert not imported


def test_a_coroutine_function_is_awaited(tmp_path: Path) -> None:
    report, imported = _probe(tmp_path, "later")
    assert report["outcomes"][0]["returned"]["repr"] == "6"  # type: ignore[index]
    assert imported
