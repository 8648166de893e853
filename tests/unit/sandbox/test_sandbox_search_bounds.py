"""search_content under hostile patterns: a real time bound, and Ctrl-C that works."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
from pathlib import Path

from remora.config import SandboxConfig
from remora.sandbox import build_externals
from remora.workspace import WorkspaceStore


def _project(tmp_path: Path, lines: int, width: int = 60) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "victim.py").write_text(("a" * width + "!\n") * lines + "needle = 1\n")
    return root


def test_catastrophic_backtracking_stops_with_a_reason(tmp_path: Path) -> None:
    root = _project(tmp_path, lines=3)
    with WorkspaceStore(root).create("test", "re") as ws:
        ext = build_externals(ws, None, SandboxConfig(), search_timeout_s=5)
        found = asyncio.run(ext["search_content"](r"(a|aa)+$", "**/*.py"))
        assert found["matches"] == [] and found["truncated"]
        assert "victim.py:1" in found["reason"] and "catastrophic" in found["reason"]
        # the case from the bug report, and a sane search after it
        found = asyncio.run(ext["search_content"](r"(a+)+$", "**/*.py"))
        assert found == {"matches": [], "truncated": False, "reason": None}
        found = asyncio.run(ext["search_content"](r"^needle", "**/*.py"))
        assert [m["line"] for m in found["matches"]] == [4]


_SEARCHER = """
import asyncio, sys
from pathlib import Path
from remora.config import SandboxConfig
from remora.sandbox import build_externals
from remora.workspace import WorkspaceStore

ws = WorkspaceStore(Path(sys.argv[1])).create("test", "sigint")
ext = build_externals(ws, None, SandboxConfig(), search_timeout_s=600)
print("searching", flush=True)
try:
    asyncio.run(ext["search_content"](r"(a|aa)+$", "**/*.py"))
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
print("finished", flush=True)
"""


def test_ctrl_c_interrupts_a_slow_search(tmp_path: Path) -> None:
    # Each line is slow but under the per-line bound (tens of ms for 22 a's), so only
    # the 600 s time bound would end it: without a working Ctrl-C this runs for minutes.
    root = _project(tmp_path, lines=5000, width=22)
    proc = subprocess.Popen(
        [sys.executable, "-c", _SEARCHER, str(root)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline() == "searching\n"
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=2)  # let it get into the regex engine
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    # asyncio.run ends by re-raising SIGINT (-2) or our handler exits 130; never "finished"
    assert proc.returncode in (130, -signal.SIGINT) and "finished" not in out
