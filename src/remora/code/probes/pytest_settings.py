"""Where the project's pytest looks for tests: its ``testpaths`` and ``python_files``.

A new test file pytest never collects is a test nobody runs: blind reviewers of a project
whose ``pyproject.toml`` says ``python_files = "tests.py"`` and ``testpaths =
"voluptuous/tests"`` found every proposed ``test_<module>.py`` "would never run under
plain pytest or tox". Read from the file pytest itself reads first, each with its parser:
``pytest.ini`` (``[pytest]``), ``pyproject.toml`` (``[tool.pytest.ini_options]``, or the
native ``[tool.pytest]``: :mod:`tomllib`), ``tox.ini`` (``[pytest]``), ``setup.cfg``
(``[tool:pytest]``: :mod:`configparser`). A value is a list of words (an ini line split at
whitespace, a TOML string or list).
"""

from __future__ import annotations

import configparser
import fnmatch
import tomllib
from dataclasses import dataclass
from typing import Any

from remora.code.context import CodeContext

__all__ = ["CollectSettings", "collect_settings", "collected_name"]

# pytest's own order; the section holding its settings ("" for pyproject.toml's table).
_CONFIGS = (
    ("pytest.ini", "pytest"),
    ("pyproject.toml", ""),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


@dataclass(frozen=True)
class CollectSettings:
    """``python_files`` patterns and ``testpaths`` folders (empty where not set)."""

    python_files: tuple[str, ...] = ()
    testpaths: tuple[str, ...] = ()


def _words(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    return ()


def _from_pyproject(text: str) -> dict[str, Any] | None:
    try:
        tool = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        return None
    pytest = tool.get("pytest") if isinstance(tool, dict) else None
    if not isinstance(pytest, dict):
        return None
    options = pytest.get("ini_options")
    return options if isinstance(options, dict) else pytest


def _from_ini(text: str, section: str) -> dict[str, Any] | None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return dict(parser.items(section)) if parser.has_section(section) else None


def collect_settings(context: CodeContext) -> CollectSettings:
    """The project's pytest ``python_files`` and ``testpaths``, from its first config file."""
    for path, section in _CONFIGS:
        if not context.workspace.exists(path):
            continue
        try:
            text = context.read_text(path)
        except (OSError, ValueError):  # not text (a bad encoding): pytest cannot read it either
            continue
        found = _from_pyproject(text) if not section else _from_ini(text, section)
        if found is not None:
            return CollectSettings(
                _words(found.get("python_files")), _words(found.get("testpaths"))
            )
    return CollectSettings()


def collected_name(name: str, patterns: tuple[str, ...], stem: str) -> str:
    """``name`` where pytest's ``python_files`` ``patterns`` collect it (or none are set),
    else the first pattern that names one file (``tests.py``), else the first pattern with
    its ``*`` made ``stem`` (``*_test.py``: ``<stem>_test.py``)."""
    if not patterns or any(fnmatch.fnmatch(name, p) for p in patterns):
        return name
    fixed = [p for p in patterns if not any(c in p for c in "*?[")]
    return fixed[0] if fixed else patterns[0].replace("*", stem, 1)
