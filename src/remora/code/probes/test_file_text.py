"""A test file's text, read with :mod:`ast`: the tests it holds, and pieces added to it.

The tests are named as pytest reports them (``Class::method`` in a test class). A new
test's imports join the file's import block by the one rule of
:mod:`remora.workspace.import_block` (the node's module's names, plain ``import x``, and
names of other modules: ``from kit import errors``); its function goes at the end, in
name order, or into the ``unittest.TestCase`` class the project's tests call for
(:mod:`.unittest_methods`). Nothing here runs a test (:mod:`.pytest_files` does).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from remora import python_ast
from remora.code.probes.unittest_methods import with_methods
from remora.workspace.import_block import with_imports

__all__ = ["add_to_test_file", "reported_name", "taken_names", "tests_in_file", "with_pieces"]


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
    others: Mapping[str, list[str]] | None = None,
    futures: Sequence[str] = (),
) -> str:
    """``text`` with the imports present and each function appended after two blank lines,
    in name order (workspace/merge_python.py keeps that order when changes that add tests to
    one file are accepted, so the file is the same whichever is accepted first).

    ``test_class``: the functions are ``unittest.TestCase`` methods of that class
    (:mod:`.unittest_methods`), added at its end when the file has it, else in a new one.
    ``others``: names imported from other modules than ``module``, by module.
    ``futures``: the ``from __future__`` features a new file starts with (the project's
    test files': :func:`remora.code.probes.test_runner.shared_futures`)."""
    newline = _newline(text) if text else "\n"
    if not text:
        text = f'"""Tests for {module}."""{newline}'
        if futures:
            text += f"{newline}from __future__ import {', '.join(futures)}{newline}"
    _parse(text, path)  # a file that does not parse is named with its line
    if test_class:
        plain = sorted({*plain, "unittest"} - {"pytest"})
    body = with_imports(text, module, names, plain)
    for other, imported in sorted((others or {}).items()):
        body = with_imports(body, other, imported, [])
    if not body.endswith(("\n", "\r")):
        body += newline
    ordered = sorted(functions, key=str.strip)
    if test_class:
        return with_methods(body, test_class, ordered, newline)
    for function in ordered:
        body += newline + newline + function.rstrip().replace("\n", newline) + newline
    return body


def with_pieces(
    original: str,
    path: str,
    module: str,
    pieces: list[dict[str, Any]],
    test_class: str = "",
    futures: Sequence[str] = (),
) -> str:
    """``original`` (a test file's text) with the pieces' imports and functions added
    (methods of ``test_class``, when one is named; a new file starts with ``futures``)."""
    names = sorted({n for piece in pieces for n in piece.get("imports", [])})
    plain = sorted({m for piece in pieces for m in piece.get("modules", [])})
    others: dict[str, list[str]] = {}
    pairs = {(str(p[0]), str(p[1])) for piece in pieces for p in piece.get("from_imports", [])}
    for source, name in sorted(pairs):
        others.setdefault(source, []).append(name)
    functions = [str(piece["source"]) for piece in pieces]
    return add_to_test_file(
        original, path, module, names, plain, functions, test_class, others, futures
    )
