"""Test files: where a module's tests live, running pytest on one, adding tests that pass.

``run_pytest`` runs pytest on one file of the workspace in the command sandbox
and returns each test's outcome with pytest's own message (a plugin records
the reports; nothing is read back from pytest's printed text). Side effects of
the tests are discarded. A run of the same file in a workspace whose files are
byte for byte those of an earlier run is that run's report, not a new pytest
process (a test agent's submit re-reads the file ``add_passing_tests`` has just
run; each process costs ~0.5 CPU-s). ``add_passing_tests`` is the whole loop a
test agent needs: write the new test functions, run them, take back every one
that does not pass and say why, so only passing tests are left for review.

A module's tests are its ``test_<module>.py``, found anywhere, else a new one in the
folder the project keeps its tests in (its pytest's first ``testpaths`` folder, else
:func:`test_folder`: its ``test/`` where it has one and no ``tests/``), named as its
``python_files`` collects (``tests.py``, ``<module>_test.py``:
:mod:`remora.code.probes.pytest_settings`), which the sample_data agent's ``conftest.py``
goes beside.
A test file's text (its tests, pieces added to it) is :mod:`.test_file_text`'s.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter, OrderedDict
from collections.abc import Mapping
from typing import Any

from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.import_paths import module_name, root_paths
from remora.code.probes.machine_settings import OTHER_MACHINE
from remora.code.probes.pytest_plugins import plugin_args
from remora.code.probes.pytest_results import (
    ModuleTestFile,
    PassingTests,
    PytestReport,
    PytestTest,
    RefusedTest,
)
from remora.code.probes.pytest_settings import collect_settings, collected_name
from remora.code.probes.sandboxed import ProgramRun, run_program
from remora.code.probes.test_file_text import reported_name, tests_in_file, with_pieces
from remora.code.probes.test_runner import (
    project_test_files,
    project_test_style,
    shared_futures,
)
from remora.code.probes.unittest_methods import case_class_name, method_source

__all__ = ["overlay_digest", "pytest_args", "test_folder", "written_class"]

# The project's own ``addopts`` are left out (``-o addopts=``): they are for its command line
# (``--cov``, ``-n auto``, ``-s``), name plugins this run does not load, and a table this
# pytest reads differently stops it before any test (pyee's ``[tool.pytest] addopts =
# "--verbose -s"``: "expects a list", so no test of it could ever be kept).
# Its ``filterwarnings`` stay: a test its own suite runs as an error (``filterwarnings =
# ["error"]`` and a deprecated call) is no test to offer (blinker's, which a reviewer ran);
# only pytest's and its plugins' own warnings are left out (an ``asyncio_mode`` for a plugin
# this run does not load, a plugin's deprecated setting): they are this machine's, not the
# project's code's.
PYTEST_ARGS = ["-q", "-p", "no:cacheprovider", "--no-header", "--tb=short"]
PYTEST_ARGS += ["-W", "ignore::pytest.PytestWarning", "-o", "addopts="]
# Reports of recent runs by (workspace id, its creation time, arguments, its changed
# files): ids repeat across commands (one per operation and node), creation times do not.
_RECENT_RUNS: OrderedDict[tuple[str, float, tuple[str, ...], str], PytestReport] = OrderedDict()
_MAX_RECENT_RUNS = 32
# The names a project's test folder goes by; a new one is the first.
_TEST_FOLDER_NAMES = ("tests", "test")


def written_class(context: CodeContext) -> str:
    """The ``TestCase`` class the run's tests go in (the project's tests are unittest's),
    or '' (pytest functions)."""
    if not project_test_style(context).classes:
        return ""
    return case_class_name(str(context.bound_node().full_name))


def test_folder(context: CodeContext) -> str:
    """The folder the project keeps its tests in: the shallowest folder named ``tests`` or
    ``test`` that holds one of its test files (at any depth below it), the one holding
    more first; else the shallowest such folder with no tests yet; ``tests`` when the project
    has none."""
    counts: Counter[str] = Counter()
    for path in project_test_files(context):
        folders = path.split("/")[:-1]
        named = [depth for depth, name in enumerate(folders) if name in _TEST_FOLDER_NAMES]
        if named:
            counts["/".join(folders[: named[0] + 1])] += 1
    if not counts:  # a test folder that holds no tests yet (a package's ``test/`` helpers)
        counts.update(_empty_test_folders(context))
    if not counts:
        return _TEST_FOLDER_NAMES[0]
    return min(counts, key=lambda folder: (folder.count("/"), -counts[folder], folder))


def _empty_test_folders(context: CodeContext) -> list[str]:
    """The folders named ``tests`` or ``test`` that hold a file (an ``__init__.py``, a
    helper) but no test file, outside hidden folders and installed packages."""
    folders: set[str] = set()
    for name in _TEST_FOLDER_NAMES:
        for path in context.search_files(f"**/{name}/*"):
            if "/." not in f"/{path}" and "site-packages" not in path:
                folders.add(path.rsplit("/", 1)[0])
    return sorted(f for f in folders if f.rsplit("/", 1)[-1] in _TEST_FOLDER_NAMES)


@host_function
def module_test_file(context: CodeContext) -> ModuleTestFile:
    """The node module's test file: ``{path, exists, tests}`` (in the project's test
    folder first, else a new one there)."""
    node = context.bound_node()
    stem = node.file_path.rsplit("/", 1)[-1].removesuffix(".py")
    if stem == "__init__":
        stem = node.file_path.rsplit("/", 2)[-2] if "/" in node.file_path else "package"
    found = [
        p
        for p in context.search_files(f"**/test_{stem}.py")
        if "/." not in f"/{p}" and "site-packages" not in p
    ]
    settings = collect_settings(context)
    testpaths = [p.rstrip("/") for p in settings.testpaths if context.workspace.exists(p)]
    folder = testpaths[0] if testpaths else test_folder(context)
    preferred = sorted(p for p in found if p.startswith(f"{folder}/")) or sorted(found)
    name = collected_name(f"test_{stem}.py", settings.python_files, stem)
    path = preferred[0] if preferred else f"{folder}/{name}"
    exists = bool(preferred) or context.workspace.exists(path)
    names = tests_in_file(context.read_text(path), path) if exists else []
    return {"path": path, "exists": exists, "tests": names}


@host_function
def tests_added_by_run(context: CodeContext, path: str) -> list[str]:
    """Test functions of ``path`` in this run's workspace that the project's file lacks."""
    if not context.workspace.exists(path):
        return []
    current = tests_in_file(context.read_text(path), path)
    change = next((c for c in context.workspace.changes() if c.path == path), None)
    if change is None:
        return []
    before = tests_in_file(change.old.decode("utf-8"), path) if change.old is not None else []
    return [name for name in current if name not in before]


def pytest_args(context: CodeContext, path: str) -> list[str]:
    """pytest's arguments for ``path`` in the sandbox: quiet, no cache, the plugins the
    project declares (:mod:`remora.code.probes.pytest_plugins`), the import root."""
    roots = root_paths(context)
    pythonpath = ["-o", f"pythonpath={roots[0]}"] if roots else []
    return [*PYTEST_ARGS, *plugin_args(context), *pythonpath, path]


def _run_key(context: CodeContext, args: list[str]) -> tuple[str, float, tuple[str, ...], str]:
    workspace = context.workspace
    return (workspace.id, workspace.created, tuple(args), overlay_digest(context))


def _remember_run(context: CodeContext, args: list[str], report: PytestReport) -> None:
    if report["ran"]:  # a run that could not start is tried again
        _RECENT_RUNS[_run_key(context, args)] = copy.deepcopy(report)
        while len(_RECENT_RUNS) > _MAX_RECENT_RUNS:
            _RECENT_RUNS.popitem(last=False)


@host_function
async def run_pytest(context: CodeContext, path: str) -> PytestReport:
    """Run pytest on ``path``: ``{ran, passed, failed, tests: [{name, outcome, message}],
    collection_errors, output}``; what the tests change is discarded."""
    args = pytest_args(context, path)
    recent = _RECENT_RUNS.get(_run_key(context, args))
    if recent is not None:
        return copy.deepcopy(recent)
    request = {"args": args, "autoload_plugins": False}
    report = _report(await run_program(context, "pytest_report", request))
    _remember_run(context, args, report)
    return report


async def run_pytest_measured(
    context: CodeContext,
    path: str,
    coverage: dict[str, Any],
    timeout_s: float | None = None,
    *,
    elsewhere: bool = False,
) -> tuple[PytestReport, dict[str, Any] | None]:
    """``run_pytest`` under coverage (``coverage``: the span spec of
    :func:`remora.code.probes.sandboxed.run_program`): (the report, the coverage or None).

    ``elsewhere``: the tests run as on another machine, with its locale and time zone
    (:mod:`remora.code.probes.machine_settings`); a second run, so a test whose outcome
    depends on them fails.

    The report stands for a plain run of the same files too (elsewhere, when every test
    passed): a submit that asks for the file's outcomes right after this needs no second
    process.
    """
    args = pytest_args(context, path)
    request: dict[str, Any] = {"args": args, "autoload_plugins": False}
    if elsewhere:
        request["machine"] = OTHER_MACHINE
    run = await run_program(
        context, "pytest_report", request, timeout_s=timeout_s, coverage=coverage
    )
    report = _report(run)
    if not elsewhere or (report["failed"] == 0 and not report["collection_errors"]):
        _remember_run(context, args, report)
    return report, run.coverage if report["ran"] else None


def overlay_digest(context: CodeContext) -> str:
    """The workspace's changed files, as one hash (the project's own files are its base)."""
    digest = hashlib.sha256()
    for path, content, deleted in context.workspace.overlay_rows():
        digest.update(f"{path}\0{int(deleted)}\0{len(content or b'')}\0".encode())
        digest.update(content or b"")
    return digest.hexdigest()


def _report(run: ProgramRun) -> PytestReport:
    if run.report is None:
        return {
            "ran": False,
            "passed": 0,
            "failed": 0,
            "tests": [],
            "collection_errors": [],
            "output": f"pytest could not run: {run.problem}\n{run.output}",
        }
    tests: list[PytestTest] = run.report["tests"]
    return {
        "ran": True,
        "passed": sum(t["outcome"] == "passed" for t in tests),
        "failed": sum(t["outcome"] in ("failed", "error") for t in tests),
        "tests": tests,
        "collection_errors": run.report["collection_errors"],
        "output": "",
    }


def _unwritable(pieces: list[dict[str, Any]], test_class: str) -> dict[str, str]:
    """Why each piece that has no form in ``test_class`` (it needs pytest) cannot be written."""
    why: dict[str, str] = {}
    for piece in pieces if test_class else []:
        try:
            method_source(str(piece["source"]))
        except (ValueError, SyntaxError) as exc:
            why[str(piece["name"])] = f"the project's tests are unittest's: {exc}"
    return why


def restore_file(context: CodeContext, path: str, original: str | None) -> None:
    """Put ``path`` back as it was in the workspace (``None``: it did not exist)."""
    if original is None:
        context.workspace.delete(path)
    else:
        context.write_text(path, original)


@host_function
async def add_passing_tests(
    context: CodeContext, path: str, pieces: list[dict[str, Any]]
) -> PassingTests:
    """Add test functions to ``path``, run the file, and keep only those that pass.

    Each piece: ``{"name", "source", "imports": [names from the node's module],
    "modules": ["pytest", ...]}``, and ``"from_imports": [[module, name], ...]`` where it
    imports from other modules. Returns ``{kept, refused: [{name, message,
    detail}], passed, failed}``: a refused test is not left in the file, and
    pytest's message says why; the file is rewritten with the passing ones only.
    """
    module = module_name(context, context.bound_node().file_path)
    original = context.read_text(path) if context.workspace.exists(path) else None
    test_class = written_class(context)
    unwritable = _unwritable(pieces, test_class)
    refused: list[RefusedTest] = [
        {"name": n, "message": m, "detail": ""} for n, m in unwritable.items()
    ]
    pieces = [p for p in pieces if p["name"] not in unwritable]
    if not pieces:
        return {"kept": [], "refused": refused, "passed": 0, "failed": 0}
    futures = shared_futures(context)
    updated = with_pieces(original or "", path, module, pieces, test_class, futures)
    context.write_text(path, updated)
    first = await run_pytest(context, path)
    if not first["ran"] or first["collection_errors"]:
        restore_file(context, path, original)
        reason = first["output"] or "; ".join(e["message"] for e in first["collection_errors"])
        message = f"the test file could not be collected: {reason}"
        refused += [{"name": piece["name"], "message": message, "detail": ""} for piece in pieces]
        return {"kept": [], "refused": refused, "passed": 0, "failed": 0}
    outcomes: dict[str, Mapping[str, Any]] = {t["name"]: t for t in first["tests"]}
    ids = {p["name"]: reported_name(test_class, p["name"]) for p in pieces}
    passing = [p for p in pieces if outcomes.get(ids[p["name"]], {}).get("outcome") == "passed"]
    refused += [
        {
            "name": piece["name"],
            "message": outcomes.get(ids[piece["name"]], {}).get("message", "it was not run"),
            "detail": outcomes.get(ids[piece["name"]], {}).get("detail", ""),
        }
        for piece in pieces
        if piece not in passing
    ]
    if not passing:
        restore_file(context, path, original)
        return {"kept": [], "refused": refused, "passed": 0, "failed": 0}
    if refused:
        passing_text = with_pieces(original or "", path, module, passing, test_class, futures)
        context.write_text(path, passing_text)
        first = await run_pytest(context, path)
    return {
        "kept": [p["name"] for p in passing],
        "refused": refused,
        "passed": first["passed"],
        "failed": first["failed"],
    }
