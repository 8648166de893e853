"""Whether a project keeps ruff's import order, when nothing in its settings says.

``I001`` sorts a file's imports by ruff's isort rules. A project that configures ruff or
isort chose an order (project_rules.py judges those). One that configures neither may
still keep ruff's order, or may not: a maintainer whose other modules are not sorted
reads a sorted block in one file as churn (a blind review rejected exactly that). The
project's other files say which: :func:`keeps_import_order` runs ruff's ``I001`` on them
(at most ``_MOST_FILES``, the file at hand left out) and is true when none is unsorted,
or when there is no other file to tell.

Nor, where nothing configures an order, is a fix that only changes the block's layout (the
blank line between ``import re`` and ``from collections.abc import Mapping`` that ruff's
isort removes): the same statements in the same order, read with :mod:`ast`
(:func:`only_layout`); a blind reviewer read it as churn, where sorted names were merged.

The answer is kept per project root and file with the other files' stats
(``workspace/filestat.py``): a later question costs a walk that stops at ``_MOST_FILES``
files and a stat of each, and ruff runs again only when one of them changed, appeared or
went (``remora watch`` and ``remora lsp`` live while a project sorts its imports, or
unsorts them). An answer about files changed in the last few seconds is not kept
(:func:`~remora.workspace.filestat.settled`), nor is a ruff that timed out or failed an
answer: it is an error (a slow moment of a loaded machine would otherwise read "not
sorted" until a file changed).
"""

from __future__ import annotations

import ast
import asyncio
import json
import textwrap
from pathlib import Path
from typing import Any

from remora import python_ast
from remora.code.lint.record_edits import fix_edits
from remora.sandbox.commands import resolve_executable
from remora.sandbox.ending import end_process, start_in_group
from remora.workspace.filestat import Signature, settled, signature
from remora.workspace.paths import walk_files

__all__ = ["keeps_import_order", "only_layout"]

_MOST_FILES = 50
# (root, file at hand) -> the other files as last looked at, their stats, and the answer
_known: dict[tuple[Path, str], tuple[tuple[str, ...], tuple[Signature, ...], bool]] = {}


async def keeps_import_order(root: Path, path: str, timeout_s: float) -> bool:
    """Whether the project's other Python files (``path`` aside) are all in ruff's import
    order; True when there is none to tell.

    Raises TimeoutError when ruff takes longer than ``timeout_s``, RuntimeError when it
    fails; nothing is kept then, and the next question asks ruff again.
    """
    key = (root, path)
    others, stamps = await asyncio.to_thread(_other_files, root, path)
    known = _known.get(key)
    if known is not None and known[:2] == (others, stamps):
        return known[2]
    answer = await _others_sorted(root, others, timeout_s)
    if settled(stamps):
        _known[key] = (others, stamps, answer)
    else:
        _known.pop(key, None)
    return answer


def _other_files(root: Path, path: str) -> tuple[tuple[str, ...], tuple[Signature, ...]]:
    """The first ``_MOST_FILES`` Python files of the walk (``path`` and hidden folders at the
    root left out), with their stats."""
    found: list[str] = []
    stamps: list[Signature] = []
    for rel, full in walk_files(root):
        if rel.endswith(".py") and rel != path and not rel.startswith("."):
            found.append(rel)
            stamps.append(signature(full))
        if len(found) == _MOST_FILES:
            break
    return tuple(found), tuple(stamps)


async def _others_sorted(root: Path, others: tuple[str, ...], timeout_s: float) -> bool:
    if not others:
        return True
    argv = [resolve_executable("ruff"), "check", "--select", "I001", "--output-format=json"]
    argv += ["--no-fix", "--no-cache", "--exit-zero", "--isolated", *others]
    process = await start_in_group(argv, None, cwd=root)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout_s)
    except TimeoutError:
        await end_process(process, None)
        raise TimeoutError(
            f"ruff took longer than {timeout_s} s to check the import order of "
            f"{len(others)} other file(s) of the project"
        ) from None
    except asyncio.CancelledError:
        await end_process(process, None)
        raise
    if process.returncode != 0:
        detail = err.decode(errors="replace")[:400]
        raise RuntimeError(f"ruff failed checking the project's import order: {detail}")
    return not json.loads(out or b"[]")


def only_layout(record: dict[str, Any], data: bytes) -> bool:
    """Whether an ``I001`` fix leaves the same import statements in the same order, only
    laid out otherwise (blank lines, wrapping); False where a block cannot be read."""
    edits = fix_edits(data, record)
    if not edits:
        return False
    for start, end, content in edits:
        try:
            before = python_ast.parse(textwrap.dedent(data[start:end].decode("utf-8")))
            after = python_ast.parse(textwrap.dedent(content.decode("utf-8")))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            return False
        if ast.dump(before) != ast.dump(after):
            return False
    return True
