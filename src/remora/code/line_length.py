"""The line length a project's tools hold its code to: its formatter's, or its linter's.

ruff's and black's ``line-length`` (``ruff.toml``, ``.ruff.toml``, ``pyproject.toml``) and
flake8's ``max-line-length`` (``.flake8``, ``setup.cfg``, ``tox.ini``), read with
:mod:`tomllib` and :mod:`configparser`; the shortest any of them states, since each is a
check a change must pass (cachelib's ``max-line-length = 80``: blind reviewers sent back
docstrings of 89 and 162 columns). 88, the formatters' default, where none states one;
new prose (a docstring) keeps to PEP 8's 79 there (blind reviewers on projects that state
none: "the line is over 79 columns").
"""

from __future__ import annotations

import configparser
import tomllib
from typing import Any

from remora.code.context import CodeContext

__all__ = ["DEFAULT_LINE_LENGTH", "PEP8_LINE_LENGTH", "project_line_length", "stated_line_length"]

DEFAULT_LINE_LENGTH = 88
PEP8_LINE_LENGTH = 79
_TOML = (
    ("ruff.toml", ("line-length",)),
    (".ruff.toml", ("line-length",)),
    ("pyproject.toml", ("tool", "ruff", "line-length")),
    ("pyproject.toml", ("tool", "black", "line-length")),
)
_FLAKE8 = (".flake8", "setup.cfg", "tox.ini")


def _toml_length(context: CodeContext, path: str, keys: tuple[str, ...]) -> int | None:
    try:
        found: Any = tomllib.loads(context.read_text(path))
    except tomllib.TOMLDecodeError:
        return None
    for key in keys:
        found = found.get(key) if isinstance(found, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _flake8_length(context: CodeContext, path: str) -> int | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(context.read_text(path), source=path)
        value = parser.get("flake8", "max-line-length", fallback=None)
        return int(value) if value is not None else None
    except (configparser.Error, ValueError):
        return None


def project_line_length(context: CodeContext) -> int:
    """The shortest line length the project's ruff, black or flake8 settings state."""
    return stated_line_length(context) or DEFAULT_LINE_LENGTH


def stated_line_length(context: CodeContext) -> int | None:
    """The shortest line length the project's ruff, black or flake8 settings state; None
    where none states one."""
    found = [
        _toml_length(context, path, keys) for path, keys in _TOML if context.workspace.exists(path)
    ]
    found += [_flake8_length(context, path) for path in _FLAKE8 if context.workspace.exists(path)]
    lengths = [length for length in found if length is not None and length > 0]
    return min(lengths, default=None)
