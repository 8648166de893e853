"""Ruff's findings for a text, one ruff run per distinct (project, file, text, ruff settings).

Every node of a file asks ruff about the same text (the file as the project has
it, before any fix), so a file of N nodes would cost N ruff runs over the whole
file, quadratic in the file's size. The records of the last texts are kept in
the process, and runs for the same key at the same time share one ruff process.
A key holds the modification times of the ruff settings files between the file
and the project root, so an edited setting (``remora watch``) runs ruff again, and the
``--target-version`` the project's oldest Python asks for
(:mod:`remora.code.lint.oldest_python`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from pathlib import Path, PurePosixPath
from typing import Any

from remora.code.context import CodeContext
from remora.code.lint.import_order import keeps_import_order, only_layout
from remora.code.lint.loop_calls import call_in_a_loop
from remora.code.lint.oldest_python import assumes_newer, documented_rules
from remora.code.lint.project_rules import configures_import_order, not_the_projects
from remora.code.lint.type_comments import used_in_type_comment
from remora.code.python_floor import Floor, project_floor
from remora.sandbox.commands import resolve_executable
from remora.sandbox.ending import end_process, start_in_group

__all__ = ["held_back", "ruff_json", "rule_records", "start_ruff"]

# Texts whose records are kept, and records in all: a large file with many findings has
# hundreds of records (~2 KB each as dicts) per text, and every changed run is a new text.
_KEPT, _KEPT_RECORDS = 256, 20_000
# Ruff's settings, and the files the project's oldest Python is read from.
_SETTINGS = (
    "pyproject.toml",
    "ruff.toml",
    ".ruff.toml",
    "setup.py",
    "setup.cfg",
    "tox.ini",
    "PKG-INFO",
)

Key = tuple[str, str, bytes, tuple[int, ...], tuple[str, ...]]
RuffTask = asyncio.Task[list[dict[str, Any]]]
_records: OrderedDict[Key, list[dict[str, Any]]] = OrderedDict()
_running: dict[tuple[int, Key], RuffTask] = {}


# A folder's stamp is looked at again after this long: every question about a node's findings
# asked for it (nine stats for a file two folders down), and a settings file edited while
# `remora analyze` runs is seen a second later.
_STAMP_FOR_S = 1.0
_stamps: dict[tuple[Path, PurePosixPath], tuple[float, tuple[int, ...]]] = {}


def _settings_stamp(root: Path, path: str) -> tuple[int, ...]:
    """mtimes (ns; -1 when absent) of the ruff settings files from ``path``'s folder up to root."""
    folder = PurePosixPath(path).parent
    now = time.monotonic()
    known = _stamps.get((root, folder))
    if known is not None and now - known[0] < _STAMP_FOR_S:
        return known[1]
    stamps: list[int] = []
    for part in [folder, *folder.parents]:
        for name in _SETTINGS:
            try:
                stamps.append((root / part / name).stat().st_mtime_ns)
            except OSError:
                stamps.append(-1)
    if len(_stamps) > 4096:  # folders of a very large project: start again
        _stamps.clear()
    _stamps[(root, folder)] = (now, tuple(stamps))
    return tuple(stamps)


async def _run_ruff(
    context: CodeContext, path: str, text: str, target: tuple[str, ...]
) -> list[dict[str, Any]]:
    argv = [resolve_executable("ruff"), "check", "--output-format=json", *target]
    # --no-fix: a project's `fix = true` would print the fixed source instead of JSON
    argv += ["--no-fix", "--no-cache", "--exit-zero", "--stdin-filename", path, "-"]
    root = context.workspace.project_root
    process = await start_in_group(argv, None, cwd=root, stdin=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(
            process.communicate(text.encode("utf-8")), context.sandbox.command_timeout
        )
    except TimeoutError:
        await end_process(process, None)
        raise TimeoutError(f"ruff took longer than {context.sandbox.command_timeout} s") from None
    except asyncio.CancelledError:
        # Ctrl-C: ruff ends with the run; left running, its transport outlived the loop
        # ("Exception ignored in BaseSubprocessTransport.__del__" after exit 130).
        await end_process(process, None)
        raise
    if process.returncode != 0:
        raise RuntimeError(f"ruff failed on {path}: {err.decode(errors='replace')[:400]}")
    records: list[dict[str, Any]] = json.loads(out or b"[]")
    return records


async def rule_records(
    context: CodeContext, path: str, text: str, rules: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Ruff's findings of ``rules`` alone for ``text`` as the file ``path`` (its settings
    otherwise), whether the project selects them or not; not kept."""
    return await _run_ruff(context, path, text, ("--select", ",".join(rules)))


def _finished(running_key: tuple[int, Key], task: RuffTask) -> None:
    _running.pop(running_key, None)
    if not task.cancelled():
        task.exception()  # retrieved: every waiter got it; none left means no one to tell


def _floor(context: CodeContext, path: str) -> Floor:
    root = Path(context.workspace.project_root)
    return project_floor(root, PurePosixPath(path).parent, _settings_stamp(root, path))


def _key(context: CodeContext, path: str, text: str) -> Key:
    root = Path(context.workspace.project_root)
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
    target = tuple(_floor(context, path).ruff_args())
    return (str(root), path, digest, _settings_stamp(root, path), target)


def _running_task(context: CodeContext, path: str, text: str, key: Key) -> RuffTask:
    """The ruff run for ``key`` under way on this loop, started now if none is."""
    running_key = (id(asyncio.get_running_loop()), key)
    task = _running.get(running_key)
    if task is None:
        task = asyncio.ensure_future(_run_ruff(context, path, text, key[4]))
        _running[running_key] = task
        task.add_done_callback(lambda done: _finished(running_key, done))
    return task


def start_ruff(context: CodeContext, path: str, text: str) -> None:
    """Start ruff on ``text`` now, for a :func:`ruff_json` of it that comes later: ruff runs
    in its own process while the caller works (lint's fix parses the text it checks)."""
    key = _key(context, path, text)
    if key not in _records:
        _running_task(context, path, text, key)


async def _all_records(context: CodeContext, path: str, text: str) -> list[dict[str, Any]]:
    key = _key(context, path, text)
    kept = _records.get(key)
    if kept is None:
        task = _running_task(context, path, text, key)
        # shield: one waiter cancelled (its run interrupted) does not stop the others' ruff.
        kept = await asyncio.shield(task)
        _records[key] = kept
        total = sum(map(len, _records.values()))
        while len(_records) > 1 and (len(_records) > _KEPT or total > _KEPT_RECORDS):
            total -= len(_records.popitem(last=False)[1])
    _records.move_to_end(key)
    return kept


async def _older_python(context: CodeContext, path: str) -> tuple[Floor, frozenset[str]]:
    """The project's oldest Python, and the rules documented as judging for a target
    (asked of ruff only for a project older than ruff's oldest target)."""
    floor = _floor(context, path)
    if not floor.below_ruff:
        return floor, frozenset()
    return floor, await documented_rules(context.sandbox.command_timeout)


async def ruff_json(context: CodeContext, path: str, text: str) -> list[dict[str, Any]]:
    """Ruff's findings for ``text`` as the file ``path`` of the project (JSON records).

    Ruff reads the text on stdin from the project root (``--stdin-filename`` keeps
    the project's settings and per-file rules). The records are shared with
    other callers asking about the same text: read them, never change them.
    Records of checks the project leaves to other tools are left out
    (:mod:`remora.code.lint.project_rules`; ``I001`` where nothing configures an import
    order and the project's other files do not keep ruff's: :mod:`.import_order`), an
    import a type comment reads (:mod:`.type_comments`), a loop's comparison whose fix is a
    ``min()``/``max()`` call (:mod:`.loop_calls`), and so are those of rules that
    judge for a newer Python than the oldest the project supports (:func:`held_back`).

    Raises TimeoutError when ruff (on the text, or on the other files for ``I001``) takes
    longer than the sandbox's command timeout, RuntimeError when it fails.
    """
    kept = await _all_records(context, path, text)
    root = Path(context.workspace.project_root)
    floor, documented = await _older_python(context, path)
    found = [
        r
        for r in kept
        if not not_the_projects(r, root, text)
        and not used_in_type_comment(r, text)
        and not call_in_a_loop(r, text)
        and not (floor.below_ruff and assumes_newer(r.get("code"), documented, floor.version))
    ]
    if any(r.get("code") == "I001" for r in found) and not configures_import_order(root):
        data = text.encode("utf-8")
        found = [r for r in found if r.get("code") != "I001" or not only_layout(r, data)]
        timeout = context.sandbox.command_timeout
        if not await keeps_import_order(root, path, timeout):
            found = [r for r in found if r.get("code") != "I001"]
    return found


async def held_back(context: CodeContext, path: str, text: str) -> list[tuple[dict[str, Any], str]]:
    """The records :func:`ruff_json` leaves out because the project supports a Python older
    than ruff's oldest target, each with the reason ([] for any other project)."""
    floor, documented = await _older_python(context, path)
    if not floor.below_ruff:
        return []
    kept = await _all_records(context, path, text)
    return [
        (r, floor.reason()) for r in kept if assumes_newer(r.get("code"), documented, floor.version)
    ]
