"""The pytest plugins a sandboxed pytest run loads: the installed ones the project declares.

The sandbox runs the project's tests with Remora's own interpreter, so pytest would load
every plugin of Remora's environment by its entry point (``pytest11``): anyio's and
platformdirs' on a plain install, pytest-asyncio's, xdist's and more with Remora's
development tools; none of them the project's, each imported again by every pytest
process (on Remora's development environment ~1.1 of a run's ~1.4 CPU-s). Remora's runs
of the programs that run pytest (:mod:`.programs.pytest_report`, :mod:`.programs.mutation_run`)
ask them to turn the automatic loading off (``autoload_plugins: false``, then
``PYTEST_DISABLE_PLUGIN_AUTOLOAD``), and :func:`plugin_args` names
with ``-p`` each installed plugin whose distribution the project lists among its
requirements: ``pyproject.toml``'s dependencies, optional dependencies and dependency
groups (Poetry's dependency tables too), ``setup.cfg``'s ``install_requires``,
``tests_require`` and extras, tox's ``deps``, and the usual requirements files
(``requirements.txt``, ``requirements-dev.txt``, ``requirements/test.txt``...). A plugin
the project loads itself (a conftest's ``pytest_plugins``, ``-p`` in its ``addopts``)
loads as before. Each file is read with its own parser (:mod:`tomllib`,
:mod:`configparser`); a requirements file line by line, as pip reads it.
"""

from __future__ import annotations

import configparser
import functools
import re
import tomllib
from collections.abc import Iterator
from importlib import metadata
from typing import Any

from remora.code.context import CodeContext
from remora.code.probes.test_runner import read_texts, requirement_name, toml_strings

__all__ = ["declared_requirements", "installed_plugins", "plugin_args", "project_requirements"]

# Read where they exist, by name: a glob would walk the project's files on every write.
_FILES = ("pyproject.toml", "setup.cfg", "tox.ini")
_REQUIREMENT_FILES = (
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


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares them (``Pytest_Asyncio`` → ``pytest-asyncio``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.cache
def installed_plugins() -> tuple[tuple[str, str], ...]:
    """(distribution, plugin module) of each ``pytest11`` entry point of this interpreter,
    the one the sandbox runs."""
    found = []
    for entry in metadata.entry_points(group="pytest11"):
        dist = entry.dist.name if entry.dist is not None else ""
        found.append((_normal(dist), entry.value.split(":", 1)[0].strip()))
    return tuple(sorted(set(found)))


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
        else:
            lines = _lines(text)
        found |= {_normal(requirement_name(line)) for line in lines if line.strip()}
    return found - {""}


def _project_files(context: CodeContext) -> dict[str, str]:
    workspace = context.workspace
    return read_texts(context, [p for p in (*_FILES, *_REQUIREMENT_FILES) if workspace.exists(p)])


def project_requirements(context: CodeContext) -> frozenset[str]:
    """The distributions the project lists among its requirements (PEP 503 names), read
    once per run's workspace: its pytest plugins here, its type checker for the lint
    agent (:mod:`remora.code.lint.type_checks`)."""
    return context.kept(
        "project requirements",
        lambda: frozenset(declared_requirements(_project_files(context))),
    )


def plugin_args(context: CodeContext) -> list[str]:
    """``-p MODULE`` for each installed pytest plugin the project declares, read once per
    run's workspace."""

    def args() -> list[str]:
        declared = project_requirements(context)
        modules = [module for dist, module in installed_plugins() if dist in declared]
        return [arg for module in modules for arg in ("-p", module)]

    return list(context.kept("pytest plugins", args))
