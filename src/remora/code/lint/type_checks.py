"""A fix that changes what a type checker accepts is kept only when the project's own checker
finds no new error in the changed file.

A blind maintainer rejected PYI032's ``other: Any`` → ``other: object`` in an ``__eq__``:
``Any`` was a valid annotation there, and with ``object`` the project's mypy (a
development dependency) rejected ``set(other)`` in the body, while nothing changed at
run time. So when a fix changes what an annotation means
(:func:`remora.code.lint.annotation_meaning.changed_annotations`: ``List[int]`` →
``list[int]`` does not, ``Any`` → ``object`` does) and the project checks its types:

- mypy (``[tool.mypy]`` in ``pyproject.toml``, ``mypy.ini``, ``.mypy.ini``, a ``[mypy]``
  section of ``setup.cfg``, ``mypy`` among its requirements or a ``mypy`` pre-commit
  hook) is run in the command sandbox on the file before and after the change
  (:mod:`remora.code.probes.programs.mypy_check`, with the interpreter the sandbox
  runs); an error the changed file has that the file had not (by code and message: a
  fix can move lines) refuses the fix, naming it;
- where mypy cannot be run there (not installed beside that interpreter, running the
  project's tools not allowed, or mypy stopping on its settings), and where the project
  checks with pyright (``[tool.pyright]``, ``pyrightconfig.json``, a requirement or a
  hook), which Remora does not run on a changed text, the fix is refused: precision
  first, a finding left costs the maintainer nothing.

A project with no type checker of its own is not asked about: its annotations are read
by no tool it runs. Every refusal says why (``lint_refusals``).
"""

from __future__ import annotations

import configparser
import hashlib
import importlib.util
from collections import Counter
from typing import Any

from remora.code.context import CodeContext
from remora.code.lint.annotation_meaning import changed_annotations
from remora.code.probes import run_program
from remora.code.project_tools import declared_tools, text_of
from remora.sandbox.envelope import ExternalRefused

__all__ = ["configured_checkers", "type_check_refusal"]

# The names mypy and pyright read their settings from, and the pre-commit hooks that run them.
_MYPY_FILES = ("mypy.ini", ".mypy.ini")
_PYRIGHT_FILES = ("pyrightconfig.json",)
_CHECKERS = {"mypy": ("mypy",), "pyright": ("pyright", "basedpyright")}
_SHOWN = 3  # changed annotations named in a reason
_REFUSED = "type check refused"


def _setup_cfg_sections(context: CodeContext) -> set[str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text_of(context, "setup.cfg"))
    except configparser.Error:
        return set()
    return set(parser.sections())


def _configured(context: CodeContext) -> tuple[str, ...]:
    declared = declared_tools(context)
    found = []
    for checker, names in _CHECKERS.items():
        files = _MYPY_FILES if checker == "mypy" else _PYRIGHT_FILES
        sections = _setup_cfg_sections(context) if checker == "mypy" else set()
        if (
            set(names) & declared
            or any(context.workspace.exists(name) for name in files)
            or any(s == "mypy" or s.startswith("mypy-") for s in sections)
        ):
            found.append(checker)
    return tuple(found)


def configured_checkers(context: CodeContext) -> tuple[str, ...]:
    """The type checkers the project configures or requires: ``mypy``, ``pyright``."""
    return context.kept("type checkers", lambda: _configured(context))


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


async def _mypy_report(context: CodeContext, path: str, after: str) -> dict[str, Any] | str:
    """The mypy_check program's report for ``after`` in place of ``path``, or why none came."""
    missing = "mypy is not installed in the environment Remora's sandbox runs"
    if importlib.util.find_spec("mypy") is None:  # the sandbox runs this same interpreter
        return missing
    try:
        run = await run_program(
            context, "mypy_check", {"path": path, "text": after}, read_only=True
        )
    except ExternalRefused as exc:
        return f"mypy could not be run: {exc}"
    if run.report is None:
        return f"mypy could not be run: {run.problem}"
    if "missing" in run.report:
        return f"{missing} ({run.report['missing']})"
    for side in ("before", "after"):
        if run.report[side]["problem"]:
            return f"mypy stopped on the {side} text: {run.report[side]['problem']}"
    return run.report


async def _mypy_refusal(context: CodeContext, path: str, before: str, after: str) -> str:
    """Why mypy refuses ``after``: an error it has that ``before`` had not ('' when none)."""
    report = await context.kept_async(
        ("mypy check", path, _digest(before), _digest(after)),
        lambda: _mypy_report(context, path, after),
    )
    if isinstance(report, str):
        return report
    old = Counter(tuple(error) for error in report["before"]["errors"])
    new = Counter(tuple(error) for error in report["after"]["errors"]) - old
    if not new:
        return ""
    shown = "; ".join(f"{message} [{code}]" for code, message in list(new.elements())[:_SHOWN])
    return f"the project's mypy reports a new error on {path}: {shown}"


async def type_check_refusal(context: CodeContext, path: str, before: str, after: str) -> str:
    """Why a change of ``path`` from ``before`` to ``after`` is refused for the types it
    changes; '' when it changes no annotation's meaning, the project configures no type
    checker, or its checker reports no new error on the changed file."""
    try:
        changed = changed_annotations(before, after)
    except SyntaxError:  # syntax this Python cannot read: what changed is not known
        changed = ["the annotations (the file could not be read with ast)"]
    if not changed:
        return ""
    checkers = configured_checkers(context)
    if not checkers:
        return ""
    # Refused once, refused for the run: fix_safe asks again after its other fixes, and
    # the same annotation change would cost another mypy run for the same answer.
    key = (path, tuple(changed))
    for known, given in context.notes(_REFUSED):
        if known == key:
            return str(given)
    what = "; ".join(changed[:_SHOWN]) + ("; ..." if len(changed) > _SHOWN else "")
    lead = f"the fix changes what a type checker accepts ({what})"
    if "pyright" in checkers:
        why = "the project checks with pyright, which Remora does not run on a fix"
    else:
        why = await _mypy_refusal(context, path, before, after)
    if not why:
        return ""
    reason = f"{lead}, and {why}"
    context.note(_REFUSED, (key, reason))
    return reason
