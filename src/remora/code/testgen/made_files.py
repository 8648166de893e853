"""Tests of a call that leaves files where it runs: in a folder of their own (issue 56).

A call that makes a file in the working directory (``SqliteDict("example.sqlite")``, the
project's own example) makes it, under pytest, in the folder the suite runs in: the
project. A test that left it there would change the tests after it: sqlitedict's blind
reviewer found a read-only test that passed only because an earlier one made the table,
a test of a missing file that failed once the file was there, and a key listing that
held another test's rows ("switch to a temp file"). The probe reports what each call
made and removes it (:mod:`remora.code.probes.programs.made_files`), so each set runs
where no other set left anything; the test does the same in pytest's own folder for it:
it takes ``tmp_path`` and ``monkeypatch`` and first moves there
(``monkeypatch.chdir(tmp_path)``), which pytest undoes after it. A project whose tests
are ``TestCase`` methods (unittest's, nose's: :mod:`remora.code.probes.test_runner`)
has no such fixtures, and such a call gives it no test.
"""

from __future__ import annotations

from typing import Any

from remora.code.context import CodeContext
from remora.code.probes.test_runner import project_test_style

__all__ = ["in_own_folder", "made_files_reason"]

# What a test of such a call takes, and its first line.
_FIXTURES = ("tmp_path", "monkeypatch")
_MOVED = "monkeypatch.chdir(tmp_path)"

_NOT_PYTEST = (
    "it leaves files in the folder it runs in, and the project's tests are TestCase "
    "methods (not pytest's, whose tmp_path gives a test a folder of its own): a test of it "
    "would leave them in the project, and its outcome would hang on the tests before it"
)


def _made(row: dict[str, Any]) -> bool:
    """Whether the probed call (``row``) made files: its test runs in a folder of its own."""
    return bool(row.get("made_files"))


def in_own_folder(row: dict[str, Any], lines: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """The test's lines and the fixtures it takes: as they are where the call (``row``)
    made no file, else moved to pytest's ``tmp_path`` first."""
    return ([_MOVED, *lines], _FIXTURES) if _made(row) else (lines, ())


def made_files_reason(context: CodeContext, row: dict[str, Any]) -> str | None:
    """Why the probed call (``row``) gives no test: it made files and the project's tests
    are ``TestCase`` methods (unittest's, nose's); None else."""
    return _NOT_PYTEST if _made(row) and project_test_style(context).classes else None
