"""Whether a project keeps ruff's import order, when nothing in its settings says.

``I001`` sorts a file's imports by ruff's isort rules. A project that configures ruff or
isort chose an order (project_rules.py judges those). One that configures neither may
still keep ruff's order, or may not: a maintainer whose other modules are not sorted
reads a sorted block in one file as churn (a blind review rejected exactly that). The
project's other files say which: :func:`keeps_import_order` runs ruff's ``I001`` on them
(at most ``_MOST_FILES``, the file at hand left out) and is true when none is unsorted,
or when there is no other file to tell. Once per project root and file.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from remora.sandbox.commands import resolve_executable
from remora.sandbox.ending import end_process, start_in_group
from remora.workspace.paths import is_skipped

__all__ = ["keeps_import_order"]

_MOST_FILES = 50
_known: dict[tuple[Path, str], bool] = {}


async def keeps_import_order(root: Path, path: str, timeout_s: float) -> bool:
    """Whether the project's other Python files (``path`` aside) are all in ruff's import
    order; True when there is none to tell, False when ruff cannot say in time."""
    key = (root, path)
    if key not in _known:
        _known[key] = await _others_sorted(root, path, timeout_s)
    return _known[key]


def _other_files(root: Path, path: str) -> list[str]:
    found = []
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root).as_posix()
        if rel != path and not is_skipped(rel) and not rel.startswith("."):
            found.append(rel)
        if len(found) == _MOST_FILES:
            break
    return found


async def _others_sorted(root: Path, path: str, timeout_s: float) -> bool:
    others = await asyncio.to_thread(_other_files, root, path)
    if not others:
        return True
    argv = [resolve_executable("ruff"), "check", "--select", "I001", "--output-format=json"]
    argv += ["--no-fix", "--no-cache", "--exit-zero", "--isolated", *others]
    process = await start_in_group(argv, None, cwd=root)
    try:
        out, _err = await asyncio.wait_for(process.communicate(), timeout_s)
    except TimeoutError:
        await end_process(process, None)
        return False
    except asyncio.CancelledError:
        await end_process(process, None)
        raise
    return process.returncode == 0 and not json.loads(out or b"[]")
