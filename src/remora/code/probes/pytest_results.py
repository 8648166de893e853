"""What the toolkit's pytest functions give (:mod:`remora.code.probes.pytest_files`).

``run_pytest``'s report is read from the sandboxed ``pytest_report`` program's rows
(:mod:`remora.code.probes.programs.pytest_report`), which these fields follow.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

__all__ = [
    "CollectionError",
    "ModuleTestFile",
    "PassingTests",
    "PytestReport",
    "PytestTest",
    "RefusedTest",
]


class ModuleTestFile(TypedDict):
    """The node module's test file (``tests/`` first, else a new one) and its tests."""

    path: str
    exists: bool
    tests: list[str]


class PytestTest(TypedDict):
    """One test's outcome: passed, failed, error or skipped; ``message`` and ``detail``
    (pytest's message and traceback) when it failed or errored."""

    name: str
    outcome: str
    message: NotRequired[str]
    detail: NotRequired[str]


class CollectionError(TypedDict):
    """A file or test pytest could not collect (``where``: its node id)."""

    where: str
    message: str
    detail: str


class PytestReport(TypedDict):
    """One pytest run of a file; ``ran`` false (with ``output``) when it could not start."""

    ran: bool
    passed: int
    failed: int
    tests: list[PytestTest]
    collection_errors: list[CollectionError]
    output: str


class RefusedTest(TypedDict):
    """A test piece not kept, with pytest's message (or why it could not be written)."""

    name: str
    message: str
    detail: str


class PassingTests(TypedDict):
    """The pieces kept (they passed), those refused, and the file's run after them."""

    kept: list[str]
    refused: list[RefusedTest]
    passed: int
    failed: int
