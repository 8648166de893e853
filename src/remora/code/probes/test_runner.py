"""How the project runs its tests: pytest, unittest or nose; the one place that decides.

Read from the project's own files, each with its parser: ``pyproject.toml`` with
:mod:`tomllib` (``[tool.pytest.ini_options]``; tox's ``commands``), ``setup.cfg`` and
``tox.ini`` with :mod:`configparser` (``[tool:pytest]``/``[pytest]``; ``[testenv]``'s
``commands``), ``pytest.ini`` and ``conftest.py`` by their presence, the requirements the
project lists (:mod:`.project_requirements`: pytest, or nose, among them), the existing
test files with :mod:`ast` (does one import pytest, or nose? does one subclass
``unittest.TestCase``?), and the command lines of CI workflows and a makefile, read as
lines of text only for the runner's command name (``pytest``, ``python -m unittest``,
``nosetests``).

A project that uses pytest anywhere is a pytest project; one whose tests or commands
are unittest's or nose's and never pytest's writes its tests as ``unittest.TestCase``
classes (nose runs those too); where nothing says, pytest (as before), but not
``stated``: what only pytest runs (a conftest fixture, a test taking one) is written only
where the project says it runs pytest. Either way the tests written are run by pytest
in the sandbox, which collects ``TestCase`` classes too: the file written is valid for
the project's own runner, and pytest's per-test report and coverage contexts serve both.
"""

from __future__ import annotations

import ast
import configparser
import functools
import shlex
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.probes.project_requirements import (
    REQUIREMENT_FILES,
    declared_requirements,
    read_texts,
)

__all__ = [
    "TestStyle",
    "project_test_files",
    "project_test_style",
    "shared_futures",
    "style_of_files",
]

Runner = Literal["pytest", "unittest", "nose"]
# Test files read with ast for the style; enough to see how a project writes them.
_MAX_TEST_FILES = 40
# pytest's default names, and unittest's (``test*.py``: ``testdayclock.py``) in a test folder.
_TEST_GLOBS = (
    "**/test_*.py",
    "**/*_test.py",
    "**/tests.py",
    "**/tests/test*.py",
    "**/test/test*.py",
)
# The names GNU make reads a makefile by, and nox's file.
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
_COMMAND_FILES = (*_MAKEFILES, "noxfile.py")
# Test runners' names as requirements: nose and its successor run TestCase classes.
_RUNNER_REQUIREMENTS: tuple[tuple[str, Runner], ...] = (
    ("pytest", "pytest"),
    ("nose", "nose"),
    ("nose2", "nose"),
)
_NOTHING_SAID = "nothing in the project says how it runs its tests"
# Python files among the settings, never test files.
_SCRIPTS = ("noxfile.py", "setup.py")


@dataclass(frozen=True)
class TestStyle:
    """The runner the written tests are for, and what in the project said so."""

    __test__ = False  # not a test class, whatever pytest's collection rules say

    runner: Runner
    evidence: str
    # Whether the project's files said it (False: pytest, as nothing said otherwise).
    stated: bool = True

    @property
    def classes(self) -> bool:
        """Whether tests are written as ``unittest.TestCase`` methods (unittest's, nose's)."""
        return self.runner != "pytest"


_COMMANDS: dict[str, Runner] = {"pytest": "pytest", "py.test": "pytest", "nosetests": "nose"}
_COMMANDS |= {"nose2": "nose"}
_MODULES: dict[str, Runner] = {"pytest": "pytest", "unittest": "unittest"}
_MODULES |= {"nose": "nose", "nose2": "nose"}


def _runner_of_command(words: list[str]) -> Runner | None:
    """``pytest``/``py.test``, ``nosetests``/``nose2``, ``python -m pytest`` (``-mpytest``),
    ``python -m unittest``, ``python -m nose`` in a command."""
    for index, word in enumerate(words):
        name = word.rsplit("/", 1)[-1]
        if name in _COMMANDS:
            return _COMMANDS[name]
        module = ""
        if word == "-m" and index + 1 < len(words):
            module = words[index + 1]
        elif word.startswith("-m") and len(word) > 2:  # python's own joined form
            module = word[2:]
        if module.split(".", 1)[0] in _MODULES:
            return _MODULES[module.split(".", 1)[0]]
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
    return found


def _requirement_evidence(text: str, path: str) -> list[tuple[Runner, str]]:
    """A test runner among the requirements the file lists (tox's ``deps`` included)."""
    declared = declared_requirements({path: text})
    return [
        (runner, f"{path} lists {name} among its requirements")
        for name, runner in _RUNNER_REQUIREMENTS
        if name in declared
    ]


def _imports(tree: ast.Module, package: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == package for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package:
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


# A pure function of its arguments, kept for the process: each run reads the same test
# files afresh (its own workspace), and a large one took ~25 ms to parse and walk
# (SQLAlchemy's forty: ~1 s, once per sample_data and test run).
@functools.lru_cache(maxsize=256)
def _test_file_evidence(text: str, path: str) -> tuple[tuple[Runner, str], ...]:
    return tuple(_read_test_file(text, path))


def _read_test_file(text: str, path: str) -> list[tuple[Runner, str]]:
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return []
    if _imports(tree, "pytest"):
        return [("pytest", f"{path} imports pytest")]
    if _imports(tree, "nose") or _imports(tree, "nose2"):
        return [("nose", f"{path} imports nose")]
    if _subclasses_test_case(tree):
        return [("unittest", f"{path} subclasses unittest.TestCase")]
    return []


def style_of_files(files: dict[str, str]) -> TestStyle:
    """The style the project's files say (``{path: text}``): pytest where anything uses
    pytest, unittest (nose) where its tests or commands are unittest's (nose's) alone,
    else pytest, not stated. The files are read in order of path, up to the first pytest
    evidence: what follows it cannot change the answer."""
    other: tuple[Runner, str] | None = None
    for runner, why in _evidence(files):
        if runner == "pytest":
            return TestStyle("pytest", why)
        other = other or (runner, why)
    if other:
        return TestStyle(*other)
    return TestStyle("pytest", _NOTHING_SAID, stated=False)


def _evidence(files: dict[str, str]) -> Iterator[tuple[Runner, str]]:
    """What each file says of the runner, by path, each file's in the order it is read."""
    for path, text in sorted(files.items()):
        name = path.rsplit("/", 1)[-1]
        if name in ("pytest.ini", "conftest.py"):
            yield ("pytest", f"{path} exists")
        elif path == "pyproject.toml":
            yield from _pyproject_evidence(text)
        elif name in ("setup.cfg", "tox.ini"):
            yield from _ini_evidence(text, path)
        if path in REQUIREMENT_FILES:
            yield from _requirement_evidence(text, path)
        if name.endswith(".py") and path not in _SCRIPTS and name != "conftest.py":
            yield from _test_file_evidence(text, path)
        if name in _COMMAND_FILES or path.startswith(".github/workflows/"):
            yield from ((r, f"{path}: a command") for r in _command_runners(text.splitlines()))


def project_test_files(context: CodeContext) -> list[str]:
    """The project's test files by their names (``test_*.py``, ``*_test.py``, ``tests.py``;
    ``test*.py`` in a ``tests`` or ``test`` folder), sorted; none in a hidden folder or an
    installed package."""

    def found() -> list[str]:
        return sorted(
            {
                p
                for pattern in _TEST_GLOBS
                for p in context.search_files(pattern)
                if "/." not in f"/{p}" and "site-packages" not in p
            }
        )

    return list(context.kept("project test files", found))


def _project_files(context: CodeContext) -> dict[str, str]:
    workspace = context.workspace
    settings = {*REQUIREMENT_FILES, *_COMMAND_FILES}
    paths = [p for p in sorted(settings) if workspace.exists(p)]
    paths += context.search_files(".github/workflows/*.y*ml")
    paths += context.search_files("**/pytest.ini")[:1]
    paths += context.search_files("**/conftest.py")[:1]
    return read_texts(context, [*paths, *project_test_files(context)[:_MAX_TEST_FILES]])


def project_test_style(context: CodeContext) -> TestStyle:
    """The project's test style, read once per run's workspace."""
    return context.kept("test style", lambda: style_of_files(_project_files(context)))


def shared_futures(context: CodeContext) -> list[str]:
    """The ``from __future__`` features every one of the project's test files imports
    (none where it has no test file, or they differ): a new test file starts with them.
    hyperlink, which still runs on Python 2, writes each under ``unicode_literals``; without
    it a test's ``"&"`` is bytes on 2.7 and raised another error than the one pinned (a
    reviewer ran it there). Read once per run's workspace; an unparseable file is skipped."""

    def shared() -> list[str]:
        common: set[str] | None = None
        for path in project_test_files(context):
            try:
                tree = python_ast.parse(context.read_text(path))
            except (SyntaxError, ValueError):  # ValueError: not UTF-8 text
                continue
            features = {
                alias.name
                for stmt in tree.body
                if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
                for alias in stmt.names
            }
            common = features if common is None else common & features
        return sorted(common or ())

    return context.kept("test futures", shared)
