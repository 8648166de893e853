"""An import only a ``# type:`` comment reads is not unused.

hyperlink (Python 2 and 3, annotated in comments): ruff's F401 called ``Callable``,
``Type``, ``Tuple`` and ``Iterable`` unused, and its safe fix removed them; the blind
reviewer: "removing them breaks the mypy tox environment". Invented module, real ruff.
"""

from __future__ import annotations

from pathlib import Path

from remora.code import CodeContext
from remora.code.lint.ruff_runs import ruff_json
from remora.config import SandboxConfig
from remora.workspace import WorkspaceStore

SOURCE = """\
import os
import typing as t
from typing import Callable, Iterable, Optional, Tuple


def pairs(items, key=None):
    # type: (Iterable[str], Optional[Callable]) -> list
    found = []  # type: list[Tuple[str, str]]
    for item in items:  # type: str
        found.append((item, item))
    return found


def size(x):
    # type: (t.Sized) -> int
    return len(x)
"""


async def test_an_import_a_type_comment_reads_is_not_reported_unused(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    with WorkspaceStore(tmp_path).create("t", "n") as workspace:
        context = CodeContext(workspace, None, SandboxConfig())
        records = await ruff_json(context, "m.py", SOURCE)
    unused = sorted(str(r["message"]) for r in records if r["code"] == "F401")
    assert unused == ["`os` imported but unused"], unused
