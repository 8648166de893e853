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

Test files are read through :mod:`ast`; imports join the file's import block
by the one rule of :mod:`remora.workspace.import_block`, new functions go at the
end.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.import_paths import module_name, root_paths
from remora.code.probes.pytest_plugins import plugin_args
from remora.code.probes.pytest_results import (
    ModuleTestFile,
    PassingTests,
    PytestReport,
    PytestTest,
    RefusedTest,
)
from remora.code.probes.sandboxed import ProgramRun, run_program
from remora.code.probes.test_runner import project_test_style
from remora.code.probes.unittest_methods import case_class_name, method_source, with_methods
from remora.sandbox import search
from remora.workspace.import_block import with_imports

__all__ = [
    "add_to_test_file",
    "overlay_digest",
    "pytest_args",
    "reported_name",
    "taken_names",
    "tests_in_file",
    "with_pieces",
    "written_class",
]

PYTEST_ARGS = ["-q", "-p", "no:cacheprovider", "--no-header", "--tb=short", "-W", "ignore"]
# Reports of recent runs by (workspace id, its creation time, arguments, its changed
# files): ids repeat across commands (one per operation and node), creation times do not.
_RECENT_RUNS: OrderedDict[tuple[str, float, tuple[str, ...], str], PytestReport] = OrderedDict()
_MAX_RECENT_RUNS = 32


def _parse(text: str, path: str) -> ast.Module:
    try:
        return python_ast.parse(text)
    except SyntaxError as exc:
        raise ValueError(f"{path}:{exc.lineno}: cannot parse the test file ({exc.msg})") from None


def _test_functions(body: list[ast.stmt]) -> list[str]:
    return [
        stmt.name
        for stmt in body
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
        and stmt.name.startswith("test_")
    ]


def _test_class(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.ClassDef) and (
        stmt.name.startswith("Test") or any(ast.unparse(b).endswith("TestCase") for b in stmt.bases)
    )


def tests_in_file(text: str, path: str = "<test file>") -> list[str]:
    """The tests of a test file as pytest names them, in order: a top-level ``test_*``
    function by its name, a method of a test class (``Test*``, a ``TestCase``) as
    ``Class::method``."""
    names: list[str] = []
    for stmt in _parse(text, path).body:
        names += _test_functions([stmt])
        if isinstance(stmt, ast.ClassDef) and _test_class(stmt):
            names += [f"{stmt.name}::{name}" for name in _test_functions(stmt.body)]
    return names


def reported_name(test_class: str, name: str) -> str:
    """A written test's name in pytest's report: ``name``, or ``Class::name`` in a class."""
    return f"{test_class}::{name}" if test_class else name


def taken_names(tests: list[str]) -> set[str]:
    """The function or method names ``tests`` (pytest's names) take: a new test needs another."""
    return {test.rsplit("::", 1)[-1] for test in tests}


def written_class(context: CodeContext) -> str:
    """The ``TestCase`` class the run's tests go in (the project's tests are unittest's),
    or '' (pytest functions)."""
    if not project_test_style(context).classes:
        return ""
    return case_class_name(str(context.bound_node().full_name))


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def add_to_test_file(
    text: str,
    path: str,
    module: str,
    names: list[str],
    plain: list[str],
    functions: list[str],
    test_class: str = "",
) -> str:
    """``text`` with the imports present and each function appended after two blank lines,
    in name order (workspace/merge_python.py keeps that order when changes that add tests to
    one file are accepted, so the file is the same whichever is accepted first).

    ``test_class``: the functions are ``unittest.TestCase`` methods of that class
    (:mod:`.unittest_methods`), added at its end when the file has it, else in a new one."""
    newline = _newline(text) if text else "\n"
    if not text:
        text = f'"""Tests for {module}."""{newline}'
    _parse(text, path)  # a file that does not parse is named with its line
    if test_class:
        plain = sorted({*plain, "unittest"} - {"pytest"})
    body = with_imports(text, module, names, plain)
    if not body.endswith(("\n", "\r")):
        body += newline
    ordered = sorted(functions, key=str.strip)
    if test_class:
        return with_methods(body, test_class, ordered, newline)
    for function in ordered:
        body += newline + newline + function.rstrip().replace("\n", newline) + newline
    return body


@host_function
def module_test_file(context: CodeContext) -> ModuleTestFile:
    """The node module's test file: ``{path, exists, tests}`` (tests/ first, else a new one)."""
    node = context.bound_node()
    stem = node.file_path.rsplit("/", 1)[-1].removesuffix(".py")
    if stem == "__init__":
        stem = node.file_path.rsplit("/", 2)[-2] if "/" in node.file_path else "package"
    found = [
        p
        for p in search.search_files(context.workspace, f"**/test_{stem}.py")
        if "/." not in f"/{p}" and "site-packages" not in p
    ]
    preferred = sorted(p for p in found if p.startswith("tests/")) or sorted(found)
    path = preferred[0] if preferred else f"tests/test_{stem}.py"
    exists = bool(preferred)
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
    context: CodeContext, path: str, coverage: dict[str, Any], timeout_s: float | None = None
) -> tuple[PytestReport, dict[str, Any] | None]:
    """``run_pytest`` under coverage (``coverage``: the span spec of
    :func:`remora.code.probes.sandboxed.run_program`): (the report, the coverage or None).

    The report stands for a plain run of the same files too: a submit that asks
    for the file's outcomes right after this needs no second process.
    """
    args = pytest_args(context, path)
    request = {"args": args, "autoload_plugins": False}
    run = await run_program(
        context, "pytest_report", request, timeout_s=timeout_s, coverage=coverage
    )
    report = _report(run)
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


def with_pieces(
    original: str, path: str, module: str, pieces: list[dict[str, Any]], test_class: str = ""
) -> str:
    """``original`` (a test file's text) with the pieces' imports and functions added
    (methods of ``test_class``, when one is named)."""
    names = sorted({n for piece in pieces for n in piece.get("imports", [])})
    plain = sorted({m for piece in pieces for m in piece.get("modules", [])})
    functions = [str(piece["source"]) for piece in pieces]
    return add_to_test_file(original, path, module, names, plain, functions, test_class)


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
    "modules": ["pytest", ...]}``. Returns ``{kept, refused: [{name, message,
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
    updated = with_pieces(original or "", path, module, pieces, test_class)
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
        context.write_text(path, with_pieces(original or "", path, module, passing, test_class))
        first = await run_pytest(context, path)
    return {
        "kept": [p["name"] for p in passing],
        "refused": refused,
        "passed": first["passed"],
        "failed": first["failed"],
    }
