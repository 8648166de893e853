"""The distributions a project lists among its requirements, read from its own files.

``pyproject.toml``'s dependencies, optional dependencies and dependency groups (Poetry's
dependency tables too), ``setup.cfg``'s ``install_requires``, ``tests_require`` and
extras, ``setup.py``'s same keywords (:mod:`.setup_script`), tox's ``deps``, and the
usual requirements files (``requirements.txt``, ``requirements-dev.txt``,
``requirements/test.txt``...). Each file is read with its own parser (:mod:`tomllib`,
:mod:`configparser`, :mod:`ast`); a requirements file line by line, as pip reads it.
What they are for: the installed pytest plugins the sandbox loads
(:mod:`.pytest_plugins`), the runner the project's tests are written for
(:mod:`.test_runner`), the project's type checker (the lint agent's).
"""

from __future__ import annotations

import configparser
import re
import tomllib
from collections.abc import Iterable, Iterator
from typing import Any

from remora.code.context import CodeContext
from remora.code.probes.setup_script import setup_keywords

__all__ = [
    "REQUIREMENT_FILES",
    "declared_requirements",
    "normal_name",
    "project_requirements",
    "read_texts",
    "requirement_files",
    "requirement_name",
    "toml_strings",
]

# Read where they exist, by name: a glob would walk the project's files on every write.
REQUIREMENT_FILES = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "tox.ini",
    "requirements.txt",
    "requirements-dev.txt",
    "requirements-test.txt",
    "requirements-tests.txt",
    "dev-requirements.txt",
    "test-requirements.txt",
    "requirements/dev.txt",
    "requirements/test.txt",
    "requirements/tests.txt",
)
_SETUP_KEYWORDS = ("install_requires", "tests_require", "extras_require")


def normal_name(name: str) -> str:
    """A distribution's name as PEP 503 compares them (``Pytest_Asyncio`` → ``pytest-asyncio``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The distribution a requirement names, lower-cased (``Pytest-Cov>=4``: ``pytest-cov``)."""
    name = requirement.strip()
    for stop in "<>=!~;[( ":
        name = name.split(stop, 1)[0]
    return name.lower()


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


def _pyproject(text: str) -> Iterator[str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    project = data.get("project", {})
    if isinstance(project, dict):
        yield from toml_strings(project.get("dependencies", []))
        yield from toml_strings(project.get("optional-dependencies", {}))
    yield from toml_strings(data.get("dependency-groups", {}))
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    tables: list[Any] = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
    tables += [g.get("dependencies") for g in dict(poetry.get("group", {})).values()]
    for table in tables:
        if isinstance(table, dict):
            yield from table  # Poetry names a requirement by its key


def _setup_cfg(text: str) -> Iterator[str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    for section in parser.sections():
        if section == "options":
            keys = ["install_requires", "tests_require"]
        elif section == "options.extras_require":
            keys = list(parser[section])
        elif section == "testenv" or section.startswith("testenv:"):
            keys = ["deps"]
        else:
            continue
        for key in keys:
            yield from parser.get(section, key, fallback="").splitlines()


def _setup_py(text: str) -> Iterator[str]:
    keywords = setup_keywords(text)
    for key in _SETUP_KEYWORDS:
        value = keywords.get(key)
        yield from toml_strings(value.splitlines() if isinstance(value, str) else value)


def _lines(text: str) -> Iterator[str]:
    """A requirements file's requirements (options, includes and comments left out)."""
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith(("#", "-")):
            yield line


def declared_requirements(files: dict[str, str]) -> set[str]:
    """The distributions the files (``{path: text}``) list as requirements, PEP 503 names."""
    found: set[str] = set()
    for path, text in files.items():
        name = path.rsplit("/", 1)[-1]
        if path == "pyproject.toml":
            lines: Iterator[str] = _pyproject(text)
        elif name in ("setup.cfg", "tox.ini"):
            lines = _setup_cfg(text)
        elif name == "setup.py":
            lines = _setup_py(text)
        else:
            lines = _lines(text)
        found |= {normal_name(requirement_name(line)) for line in lines if line.strip()}
    return found - {""}


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


def requirement_files(context: CodeContext) -> dict[str, str]:
    """The texts of the project's files of :data:`REQUIREMENT_FILES` that exist."""
    workspace = context.workspace
    return read_texts(context, [p for p in REQUIREMENT_FILES if workspace.exists(p)])


def project_requirements(context: CodeContext) -> frozenset[str]:
    """The distributions the project lists among its requirements (PEP 503 names), read
    once per run's workspace."""
    return context.kept(
        "project requirements",
        lambda: frozenset(declared_requirements(requirement_files(context))),
    )
