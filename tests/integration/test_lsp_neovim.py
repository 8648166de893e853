"""`remora lsp` in Neovim's built-in client, headless: open, wait for the diagnostic, accept
through the code action menu, write the buffer, compare the file's bytes.

Neovim comes from Debian (scripts/test.sh installs it); Debian 12 ships 0.7.2, which has
no `vim.lsp.start`, so the script uses `vim.lsp.start_client` + `buf_attach_client`
(docs/editors.md gives both).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from lsp_support import REMORA, SHOP, TOTAL_NEW, make_project

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

SCRIPT = Path(__file__).with_name("nvim") / "accept.lua"


def _nvim() -> str:
    found = shutil.which("nvim")
    assert found is not None, "Neovim is missing: scripts/test.sh installs Debian's `neovim`"
    return found


def test_accept_from_the_code_action_menu_then_write(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    ids = make_project(root)
    report = tmp_path / "report.json"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("REMORA_")},
        "REMORA_E2E_ROOT": str(root),
        "REMORA_E2E_REPORT": str(report),
        "REMORA_E2E_REMORA": REMORA,
        "REMORA_E2E_ACTION": "Remora: accept the docstring change to total",
        "HOME": str(tmp_path),  # no user config, shada or state from the machine
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    run = subprocess.run(
        [_nvim(), "--headless", "--clean", "-n", "-c", f"luafile {SCRIPT}"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    outcome = json.loads(report.read_text()) if report.exists() else {}
    assert run.returncode == 0, (run.stdout, run.stderr, outcome)
    assert outcome["diagnostics"] == [
        "15:remora:docstring: documented total() and rounded its sum [hunk 2 of 2]",
        "2:remora:lint: removed the unused import os",
        "6:remora:docstring: documented total() and rounded its sum [hunk 1 of 2]",
    ]
    assert outcome["offered"][:4] == [
        "Remora: accept the docstring change to total",
        "Remora: accept hunk 2 of 2 of the docstring change to total",
        "Remora: reject the docstring change to total…",
        "Remora: show the diff of the docstring change to total",
    ]
    assert (root / "pkg" / "shop.py").read_bytes() == TOTAL_NEW.encode()
    assert TOTAL_NEW != SHOP
    with ResultsDB(root) as db:
        record = db.get(ids["docstring"])
    assert record is not None and record.review_state == "accepted"
    assert not WorkspaceStore(root).exists(ids["docstring"])
    # the lint change read the file before the write, on other lines: it is placed on the
    # written file (merged into it), still a change to apply, not a conflict
    assert [m.split(":")[0] for m in outcome["left"]] == ["lint"]
