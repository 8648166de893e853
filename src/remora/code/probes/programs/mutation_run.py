"""Run a test file's chosen tests against each mutant of one function; report which fail.

pytest collects the tests once (the request's ``args`` name them), then, in
place of its own test loop, each test runs on the code as it is (a test that
does not pass there says nothing about a mutant) and then on every mutant whose
line it ran: the function's code object is swapped for the mutant's (the file
compiled with the mutant's text, lines unchanged) and swapped back afterwards,
so the test module's imported names, instances and classes all see it. A test
runs under a time limit (ten times its run on the code, at least a second): a
mutant that makes it run into the limit counts as killed by it (as mutmut and
cosmic-ray count a timeout), and the test is stopped there. No mutant is
started after the request's ``budget_s``; those left are reported not run.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import signal
import sys
import time
import types
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

MARKER = "REMORA_REPORT "


class TestTimeout(Exception):
    """A test ran into its time limit on a mutant."""

    __test__ = False


def _on_alarm(_signum: int, _frame: types.FrameType | None) -> None:
    raise TestTimeout("the test ran into its time limit")


def _stored_name(owner: str, name: str) -> str:
    """``name`` as class ``owner`` stores it: a private ``__name`` is mangled to
    ``_Owner__name`` (the class name less its leading underscores), as the compiler does."""
    stripped = owner.lstrip("_")
    if not name.startswith("__") or name.endswith("__") or not stripped:
        return name
    return f"_{stripped}{name}"


def _function(module: types.ModuleType, qualname: str) -> types.FunctionType | None:
    """The function object of ``qualname`` in ``module``, through descriptors and wrappers;
    None when a name on the way is not there."""
    found: Any = module
    owner = ""
    for part in qualname.split("."):
        found = (
            inspect.getattr_static(found, _stored_name(owner, part), None)
            if isinstance(found, type)
            else getattr(found, part, None)
        )
        owner = part
    name = qualname.rsplit(".", 1)[-1]
    for _ in range(8):
        if isinstance(found, staticmethod | classmethod):
            found = found.__func__
        elif isinstance(found, property):
            found = found.fget
        elif isinstance(found, types.FunctionType) and found.__code__.co_name == name:
            return found
        elif hasattr(found, "__wrapped__"):
            found = found.__wrapped__
        else:
            return None
    return None


def _mutant_code(source: str, filename: str, original: types.CodeType) -> types.CodeType | None:
    """The code object of the function in the mutant's file (same name and first line)."""
    stack = [compile(source, filename, "exec", dont_inherit=True)]
    while stack:
        code = stack.pop()
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                if (const.co_name, const.co_firstlineno) == (
                    original.co_name,
                    original.co_firstlineno,
                ):
                    return const
                stack.append(const)
    return None


class MutationLoop:
    """A pytest plugin whose test loop runs the tests on the code and on each mutant."""

    def __init__(self, request: dict[str, Any]) -> None:
        self.request = request
        self.report: dict[str, Any] = {"baseline": {}, "mutants": {}, "error": ""}

    def _run(self, item: Any, limit: float) -> tuple[bool, bool]:
        """(passed, ran into the limit) of one run of ``item``."""
        if hasattr(item, "_initrequest"):
            item._initrequest()  # a fresh fixture request per run, as pytest-rerunfailures does
        timed_out = False
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            reports = runtestprotocol(item, nextitem=None, log=False)
        except TestTimeout:
            timed_out, reports = True, []
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for report in reports:
            longrepr = str(getattr(report, "longrepr", "") or "")
            timed_out = timed_out or (report.failed and "TestTimeout" in longrepr)
        passed = bool(reports) and not timed_out and all(not r.failed for r in reports)
        return passed, timed_out

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: Any) -> bool:
        started = time.monotonic()
        items = {str(item.nodeid).split("::", 1)[-1]: item for item in session.items}
        baseline: dict[str, float] = {}
        for name, item in items.items():
            begun = time.monotonic()
            passed, _ = self._run(item, float(self.request["first_limit_s"]))
            seconds = time.monotonic() - begun
            self.report["baseline"][name] = {"passed": passed, "seconds": round(seconds, 4)}
            if passed:
                baseline[name] = seconds
        try:
            module = importlib.import_module(str(self.request["module"]))
            function = _function(module, str(self.request["qualname"]))
        except Exception as exc:  # the project's import may fail in any way
            self.report["error"] = f"cannot import the module: {type(exc).__name__}: {exc}"
            return True
        if function is None:
            self.report["error"] = "the function could not be found in its module"
            return True
        original = function.__code__
        filename = original.co_filename
        budget = float(self.request["budget_s"])
        for mutant in self.request["mutants"]:
            entry: dict[str, Any] = {"ran": False, "killed_by": [], "timed_out_by": []}
            self.report["mutants"][mutant["id"]] = entry
            tests = [t for t in mutant["tests"] if t in baseline]
            if not tests:
                entry["ran"] = True  # no passing test runs its line: it survives unseen
                continue
            if time.monotonic() - started > budget:
                entry["problem"] = "not run: the time box was spent"
                continue
            try:
                code = _mutant_code(str(mutant["source"]), filename, original)
                if code is None:
                    entry["problem"] = "the mutant's function was not found"
                    continue
                function.__code__ = code
            except (SyntaxError, ValueError) as exc:  # other free variables: not this function
                entry["problem"] = f"not run: {exc}"
                continue
            try:
                for name in tests:
                    limit = max(1.0, 10 * baseline[name])
                    passed, timed_out = self._run(items[name], limit)
                    if timed_out:
                        entry["timed_out_by"].append(name)
                    if not passed:
                        entry["killed_by"].append(name)
            finally:
                function.__code__ = original
            entry["ran"] = True
        return True


def main(request: dict[str, Any]) -> None:
    if not request.get("autoload_plugins", True):  # only those -p names (probes/pytest_plugins.py)
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    signal.signal(signal.SIGALRM, _on_alarm)
    plugin = MutationLoop(request)
    stdout = sys.stdout
    sys.stdout = sys.stderr  # pytest's and the tests' output is not the report
    try:
        pytest.main(list(request["args"]), plugins=[plugin])
    finally:
        sys.stdout = stdout
    print(MARKER + json.dumps(plugin.report, default=str))
