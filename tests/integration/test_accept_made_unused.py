"""Accepting lint changes leaves no import they made unused (issue 57): two changes, each
right alone (the other node still uses ``Optional``), whose sum leaves it unused. Through
the real accept path (`remora review accept`, the CLI in a subprocess), real ruff, a real
git project."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration

REMORA = str(Path(sys.executable).with_name("remora"))
MODULE = '''\
"""Helpers."""

from typing import Any, Optional


def first(x: Optional[int]) -> int:
    return x or 0


def second(x: Optional[str]) -> str:
    return x or ""
'''
FIRST = ("x: Optional[int]", "x: int | None")
SECOND = ("x: Optional[str]", "x: str | None")


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def remora(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    return subprocess.run(
        [REMORA, *args], cwd=root, capture_output=True, text=True, timeout=300, env=env
    )


def project(tmp_path: Path) -> Path:
    """A git project with two lint changes waiting, one per function, as results of a run."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "proj"\nversion = "0.1"\n\n[tool.ruff.lint]\nselect = ["F", "UP"]\n'
    )
    (root / "pkg" / "__init__.py").write_text("")
    (root / ".gitignore").write_text(".remora/\n")
    (root / "pkg" / "helpers.py").write_text(MODULE)
    git(root, "init", "-q")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    store = WorkspaceStore(root)
    with ResultsDB(root) as db:
        run = db.start_run("analyze")
        for name, (old, new) in (("first", FIRST), ("second", SECOND)):
            with store.create("lint", name) as ws:
                ws.write("pkg/helpers.py", MODULE.replace(old, new).encode())
            node = {"node_id": name, "full_name": name, "file_path": "pkg/helpers.py"}
            result = {
                "status": "success",
                "workspace_id": f"lint-{name}",
                "summary": f"UP045 fixed in {name}",
                "changed_files": ["pkg/helpers.py"],
            }
            db.record_result(run, node, "lint", result)
    return root


def test_the_second_accept_removes_the_import_both_changes_made_unused(tmp_path: Path) -> None:
    root = project(tmp_path)
    helpers = root / "pkg" / "helpers.py"

    one = remora(root, "review", "accept", "lint-first")
    assert one.returncode == 0, one.stderr
    # `second` still uses Optional: the import stays, and nothing else is said
    assert helpers.read_text() == MODULE.replace(*FIRST)
    assert "also removed" not in one.stdout

    two = remora(root, "review", "accept", "lint-second")
    assert two.returncode == 0, two.stderr
    # Optional goes; Any, unused before either change, is the project's business
    assert helpers.read_text() == MODULE.replace(*FIRST).replace(*SECOND).replace(
        "from typing import Any, Optional", "from typing import Any"
    )
    assert (
        "pkg/helpers.py: also removed from typing import Optional, "
        "unused after the accepted changes" in two.stdout
    )
    with ResultsDB(root) as db:
        first, second = db.get("lint-first"), db.get("lint-second")
    assert first is not None and first.also_removed is None
    assert second is not None and second.review_state == "accepted"
    assert second.also_removed == {"pkg/helpers.py": ["from typing import Optional"]}
    assert git(root, "status", "--porcelain") == " M pkg/helpers.py\n"


def test_accept_all_as_commits_removes_it_once_and_says_so(tmp_path: Path) -> None:
    root = project(tmp_path)
    done = remora(root, "review", "accept", "--all", "--commit")
    assert done.returncode == 0, done.stderr
    text = (root / "pkg" / "helpers.py").read_text()
    assert "Optional" not in text and "from typing import Any\n" in text
    # the commit that removed it says so; the first one touched no import
    first, second = git(root, "log", "--format=%B%x00", "-2").split("\x00")[:2][::-1]
    assert "Also removed" not in first
    assert (
        "Also removed from pkg/helpers.py: from typing import Optional (unused after the change)."
        in second
    )
