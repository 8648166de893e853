"""No test of a call that leaves files where it runs (issue 56).

A call that makes a file in the working directory (``SqliteDict("example.sqlite")``, the
project's own example) makes it, under pytest, in the folder the suite runs in: the
project. The test leaves it there, and the tests after it see it: sqlitedict's blind
reviewer found a read-only test that passed only because an earlier one made the table,
a test of a missing file that failed once the file was there, and a key listing that
held another test's rows. The probe reports what each call made and removes it
(:mod:`remora.code.probes.programs.made_files`); such a call gives no test. A test that
ran it in a folder of its own (pytest's ``tmp_path``) is the next step.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MADE_FILES_REASON", "made_files_reason"]

MADE_FILES_REASON = (
    "it leaves files in the folder it runs in: a test of it would leave them in the "
    "project, and its outcome would hang on the tests before it"
)


def made_files_reason(row: dict[str, Any]) -> str | None:
    """:data:`MADE_FILES_REASON` where the probed call (``row``) made files; None else."""
    return MADE_FILES_REASON if row.get("made_files") else None
