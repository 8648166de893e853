"""Run pytest on one file and report every test's outcome with pytest's own message."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any

import pytest

from remora.code.probes.programs.other_machine import at_terminal, present_machine

MARKER = "REMORA_REPORT "
MAX_MESSAGE_CHARS = 600
MAX_DETAIL_CHARS = 1500


def _message(report: Any) -> tuple[str, str]:
    """(pytest's one-line reason, the end of its traceback) of a failed report."""
    crash = getattr(report.longrepr, "reprcrash", None)
    detail = str(report.longreprtext or "")
    message = str(crash.message) if crash is not None else detail.strip().splitlines()[-1:]
    if isinstance(message, list):
        message = message[0] if message else "failed"
    return message[:MAX_MESSAGE_CHARS], detail[-MAX_DETAIL_CHARS:]


def switch_context(name: str) -> None:
    """Names the coverage context of what runs next; rebound when coverage is measured."""


class Collector:
    """A pytest plugin that records each test's outcome and each collection error."""

    def __init__(self) -> None:
        self.tests: dict[str, dict[str, Any]] = {}
        self.collection_errors: list[dict[str, str]] = []

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        switch_context(nodeid.split("::", 1)[-1])

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        switch_context("")

    def pytest_runtest_logreport(self, report: Any) -> None:
        name = report.nodeid.split("::", 1)[-1]
        entry = self.tests.setdefault(report.nodeid, {"name": name, "outcome": "passed"})
        if report.failed:
            message, detail = _message(report)
            entry["outcome"] = "failed" if report.when == "call" else "error"
            entry["message"] = message
            entry["detail"] = detail
        elif report.skipped and entry["outcome"] == "passed":
            entry["outcome"] = "skipped"

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            message, detail = _message(report)
            self.collection_errors.append(
                {"where": report.nodeid, "message": message, "detail": detail}
            )


def main(request: dict[str, Any]) -> None:
    if not request.get("autoload_plugins", True):  # only those -p names (probes/pytest_plugins.py)
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    args = list(request["args"])
    machine = request.get("machine") or {}
    if machine:  # before pytest imports the project
        present_machine(machine)
    shown: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if machine.get("terminal"):  # the tests see it as under `pytest -s` in a terminal
        shown = at_terminal(machine["terminal"])
        # pytest's own words stay plain: its messages are the report's, read off a terminal
        args += ["--capture=no", "--color=no"]
    collector = Collector()
    stdout = sys.stdout
    sys.stdout = sys.stderr  # pytest's own output is not the report
    try:
        with shown:
            exit_code = int(pytest.main(args, plugins=[collector]))
    finally:
        sys.stdout = stdout
    report = {
        "exit_code": exit_code,
        "tests": list(collector.tests.values()),
        "collection_errors": collector.collection_errors,
    }
    print(MARKER + json.dumps(report, default=str))
