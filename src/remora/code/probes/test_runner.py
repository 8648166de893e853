"""How the project runs its tests: pytest, or unittest alone; the one place that decides.

Read from the project's own files, each with its parser: ``pyproject.toml`` with
:mod:`tomllib` (``[tool.pytest.ini_options]``; tox's ``commands`` and any ``pytest`` among
its dependency lists), ``setup.cfg`` and ``tox.ini`` with :mod:`configparser`
(``[tool:pytest]``/``[pytest]``; ``[testenv]``'s ``commands``), ``pytest.ini`` and
``conftest.py`` by their presence, the existing test files with :mod:`ast` (does one
import pytest? does one subclass ``unittest.TestCase``?), and the command lines of CI
workflows and a ``Makefile``, read as lines of text only for the runner's command name.

A project that uses pytest anywhere is a pytest project; one whose tests or commands
are unittest's and never pytest's writes its tests as ``unittest.TestCase`` classes;
where nothing says, pytest (as before). Either way the tests written are run by pytest
in the sandbox, which collects ``TestCase`` classes too: the file written is valid for
the project's own runner, and pytest's per-test report and coverage contexts serve both.
"""

from __future__ import annotations

import ast
import configparser
import shlex
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from remora import python_ast
from remora.code.context import CodeContext
from remora.sandbox import search

__all__ = [
    "TestStyle",
    "project_test_style",
    "read_texts",
    "requirement_name",
    "style_of_files",
    "toml_strings",
]

Runner = Literal["pytest", "unittest"]
# Test files read with ast for the style; enough to see how a project writes them.
_MAX_TEST_FILES = 40
_TEST_GLOBS = ("**/test_*.py", "**/*_test.py", "**/tests.py")
_COMMAND_FILES = ("Makefile", "noxfile.py", "tox.ini")


@dataclass(frozen=True)
class TestStyle:
    """The runner the written tests are for, and what in the project said so."""

    __test__ = False  # not a test class, whatever pytest's collection rules say

    runner: Runner
    evidence: str

    @property
    def classes(self) -> bool:
        """Whether tests are written as ``unittest.TestCase`` methods."""
        return self.runner == "unittest"


def _runner_of_command(words: list[str]) -> Runner | None:
    """``pytest``/``py.test``, ``python -m pytest``, ``python -m unittest`` in a command."""
    for index, word in enumerate(words):
        name = word.rsplit("/", 1)[-1]
        if name in ("pytest", "py.test"):
            return "pytest"
        if word == "-m" and index + 1 < len(words):
            module = words[index + 1].split(".", 1)[0]
            if module in ("pytest", "unittest"):
                return "pytest" if module == "pytest" else "unittest"
    return None


def _command_runners(lines: Iterable[str]) -> Iterator[Runner]:
    for line in lines:
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        runner = _runner_of_command(words)
        if runner is not None:
            yield runner


def toml_strings(value: Any) -> Iterator[str]:
    """Every string in a TOML value, nested lists and tables included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from toml_strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from toml_strings(item)


def _pyproject_evidence(text: str) -> list[tuple[Runner, str]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    tool = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    found: list[tuple[Runner, str]] = []
    if "pytest" in tool:
        found.append(("pytest", "pyproject.toml [tool.pytest]"))
    tox = tool.get("tox", {})
    for command in _tox_commands(tox):
        runner = _runner_of_command(command)
        if runner is not None:
            found.append((runner, f"pyproject.toml tox command: {' '.join(command)}"))
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    wanted = [project.get("optional-dependencies", {}), data.get("dependency-groups", {})]
    requirements = [s for group in wanted for s in toml_strings(group)]
    if any(requirement_name(r) == "pytest" for r in requirements):
        found.append(("pytest", "pyproject.toml lists pytest among its dependencies"))
    return found


def _tox_commands(tox: Any) -> Iterator[list[str]]:
    """The commands of tox's TOML configuration, each a list of words."""
    if not isinstance(tox, dict):
        return
    envs = [tox.get("env_run_base", {}), *dict(tox.get("env", {})).values()]
    for env in envs:
        for command in env.get("commands", []) if isinstance(env, dict) else []:
            if isinstance(command, list):
                yield [word for word in command if isinstance(word, str)]
            elif isinstance(command, str):
                yield command.split()


def requirement_name(requirement: str) -> str:
    """The distribution a requirement names, lower-cased (``Pytest-Cov>=4``: ``pytest-cov``)."""
    name = requirement.strip()
    for stop in "<>=!~;[( ":
        name = name.split(stop, 1)[0]
    return name.lower()


def _ini_evidence(text: str, path: str) -> list[tuple[Runner, str]]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    found: list[tuple[Runner, str]] = []
    if parser.has_section("tool:pytest") or parser.has_section("pytest"):
        found.append(("pytest", f"{path} has pytest's section"))
    for section in parser.sections():
        if section == "testenv" or section.startswith("testenv:"):
            lines = parser.get(section, "commands", fallback="").splitlines()
            found += [(r, f"{path} [{section}] commands") for r in _command_runners(lines)]
            deps = parser.get(section, "deps", fallback="").splitlines()
            if any(requirement_name(d) == "pytest" for d in deps):
                found.append(("pytest", f"{path} [{section}] installs pytest"))
    return found


def _imports_pytest(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "pytest" for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "pytest":
            return True
    return False


def _test_case_names(tree: ast.Module) -> set[str]:
    """How the file names ``unittest.TestCase`` (``unittest.TestCase``, ``TestCase``)."""
    names = {"unittest.TestCase"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "unittest":
            names |= {a.asname or a.name for a in node.names if a.name == "TestCase"}
    return names


def _subclasses_test_case(tree: ast.Module) -> bool:
    names = _test_case_names(tree)
    return any(
        isinstance(node, ast.ClassDef) and any(ast.unparse(base) in names for base in node.bases)
        for node in tree.body
    )


def _test_file_evidence(text: str, path: str) -> list[tuple[Runner, str]]:
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return []
    if _imports_pytest(tree):
        return [("pytest", f"{path} imports pytest")]
    if _subclasses_test_case(tree):
        return [("unittest", f"{path} subclasses unittest.TestCase")]
    return []


def style_of_files(files: dict[str, str]) -> TestStyle:
    """The style the project's files say (``{path: text}``): pytest where anything uses
    pytest, unittest where its tests or commands are unittest's alone, else pytest."""
    found: list[tuple[Runner, str]] = []
    for path, text in sorted(files.items()):
        name = path.rsplit("/", 1)[-1]
        if name in ("pytest.ini", "conftest.py"):
            found.append(("pytest", f"{path} exists"))
        elif path == "pyproject.toml":
            found += _pyproject_evidence(text)
        elif name in ("setup.cfg", "tox.ini"):
            found += _ini_evidence(text, path)
        if name.endswith(".py") and path not in ("noxfile.py",) and name != "conftest.py":
            found += _test_file_evidence(text, path)
        if name in ("Makefile", "noxfile.py") or path.startswith(".github/workflows/"):
            found += [(r, f"{path}: a command") for r in _command_runners(text.splitlines())]
    pytest_evidence = [why for runner, why in found if runner == "pytest"]
    if pytest_evidence:
        return TestStyle("pytest", pytest_evidence[0])
    unittest_evidence = [why for runner, why in found if runner == "unittest"]
    if unittest_evidence:
        return TestStyle("unittest", unittest_evidence[0])
    return TestStyle("pytest", "nothing in the project says how it runs its tests")


def _project_files(context: CodeContext) -> dict[str, str]:
    workspace = context.workspace
    paths = [p for p in ("pyproject.toml", "setup.cfg", *_COMMAND_FILES) if workspace.exists(p)]
    paths += search.search_files(workspace, ".github/workflows/*.y*ml")
    paths += search.search_files(workspace, "**/pytest.ini")[:1]
    paths += search.search_files(workspace, "**/conftest.py")[:1]
    tests = sorted(
        {
            p
            for pattern in _TEST_GLOBS
            for p in search.search_files(workspace, pattern)
            if "/." not in f"/{p}" and "site-packages" not in p
        }
    )
    return read_texts(context, [*paths, *tests[:_MAX_TEST_FILES]])


def read_texts(context: CodeContext, paths: Iterable[str]) -> dict[str, str]:
    """The text of each of the project's ``paths`` that reads as text (settings and test
    files looked at for evidence: one that cannot be read gives none)."""
    files: dict[str, str] = {}
    for path in paths:
        try:
            files[path] = context.read_text(path)
        except (OSError, UnicodeDecodeError):
            continue
    return files


def project_test_style(context: CodeContext) -> TestStyle:
    """The project's test style, read once per run's workspace."""
    return context.kept("test style", lambda: style_of_files(_project_files(context)))
