"""Which of ruff's findings are the project's to fix, and which are ruff's view of other tools.

Ruff reads the project's settings, but a project that keeps its lint in other tools
(flake8 with its plugins, isort) meets ruff's defaults where its own tools decide:

- ``RUF100`` calls a ``# noqa: C901`` unused when ruff does not enable ``C901``
  ("non-enabled") or does not know the code ("unknown"); flake8's complexity
  check still needs it, and removing it brings the warning back. Only a code
  ruff checks and finds nothing for is unused, and only where the project configures
  ruff: elsewhere its ``noqa`` comments are for the tools it does run, whose findings
  are not ruff's (pyflakes reports ``F811`` for a name redefined after a conditional
  import, where ruff reports nothing; a blanket ``# noqa`` on a long line a project's
  flake8 allows only there). Blind reviewers rejected all six such removals labelled.
  A project that configures ruff and flake8 both (pluggy: ruff's ``E`` and flake8's
  ``max-line-length=99`` in ``tox.ini``) still needs ``# noqa: E501`` on a line longer
  than flake8's limit: ruff lets a line that ends in a URL pass, flake8 does not.
- A project that pins a ruff older than 0.16 in its pre-commit checks only the rules of
  that ruff's narrower default and its own selection. Ruff 0.16 widened its default from
  pycodestyle's ``E4``, ``E7``, ``E9`` and pyflakes' ``F`` to some four hundred rules
  (``RUF``, ``UP``, ``B``, ``SIM``, ...); a project that relies on the default (no
  ``select``; ``extend-select`` adds to it) and runs an older ruff (pluggy:
  ``ruff-pre-commit`` at ``v0.11.9``) never asked for what the newer default adds: a
  ``__slots__`` sorted for ``RUF023`` is churn to its maintainer (both blind reviewers
  rejected all four). A finding is its own only when its code falls under its ``select``
  (when it sets one) or under the old default and its ``extend-select``.
- ``I001`` sorts imports by ruff's isort rules; a project that configures isort
  itself (``[tool.isort]``, ``.isort.cfg``, ``[isort]`` in ``setup.cfg`` or
  ``tox.ini``) and not ruff's isort has other rules (``force_sort_within_sections``),
  and isort would undo the change.
- ``I001``, ``RUF022`` and ``RUF023`` sort imports, ``__all__`` and ``__slots__``, and
  only ruff's wide default enables them: a project whose ruff settings do not select
  them (``select``/``extend-select`` naming ``I``, ``RUF``, the code or ``ALL``, or a
  ``[tool.ruff.lint.isort]`` section) and pins no ruff of 0.16 or later in its
  pre-commit chose no order, and keeps its own (one import a line, the attributes as the
  class uses them, the names grouped by kind): a maintainer reads the sorted list as
  churn. Blind reviewers rejected all six such sorts of tenacity (unpinned ruff,
  default selection) and pluggy's four ``__slots__``.
- ``FURB167``, ``C408`` and ``PIE808`` spell the same thing another way (``re.I`` as
  ``re.IGNORECASE``, ``dict()`` as ``{}``, ``range(0, n)`` as ``range(n)``), and only
  ruff's wide default enables them too: where the project did not select them, they are
  churn as the sorts are (isbnlib's flags "changes nothing, no configured linter asks for
  it, and leaves the module inconsistent with the short flags used elsewhere", colorama's
  ``dict()``, more-itertools' ``range(0)`` "does nothing": all four rejected).
  ``RET501`` spells ``return None`` as a bare ``return`` where ``None`` is the only value
  returned; a method whose ``None`` is an answer ("not handled", an override of a hook
  that returns values) says so with it, and both such fixes labelled were rejected
  (pygtrie, jsonmerge).

The settings are read with ``tomllib``, ``configparser`` and PyYAML (the pre-commit
pin), once per project root and settings files' modification times.
"""

from __future__ import annotations

import configparser
import functools
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

__all__ = ["configures_import_order", "isort_elsewhere", "not_the_projects"]

# RUF100's message names why each code is unused: "(non-enabled: `C901`)".
_NOT_CHECKED = ("non-enabled", "unknown")
# Rules whose only fix is an order or another spelling of the same thing, which only
# ruff's wide default enables unasked.
_FORM_ONLY = frozenset({"I001", "RUF022", "RUF023", "FURB167", "C408", "PIE808", "RET501"})
_FILES = (
    "pyproject.toml",
    "ruff.toml",
    ".ruff.toml",
    ".isort.cfg",
    "setup.cfg",
    "tox.ini",
    ".flake8",
    ".pre-commit-config.yaml",
)
# The first ruff whose default selection is the wide one, and the default before it.
_WIDE_DEFAULT = (0, 16)
_OLD_DEFAULT = ("E4", "E7", "E9", "F")
_VERSION = re.compile(r"v?(\d+)\.(\d+)")


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _ini_sections(path: Path) -> set[str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return set()
    return set(parser.sections())


def _stamp(root: Path) -> tuple[int, ...]:
    stamps = []
    for name in _FILES:
        try:
            stamps.append((root / name).stat().st_mtime_ns)
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


@functools.lru_cache(maxsize=64)
def _configures_ruff(root: Path, stamp: tuple[int, ...]) -> bool:
    """Whether the project has ruff settings of its own (``[tool.ruff]``, a ruff.toml)."""
    if "ruff" in _toml(root / "pyproject.toml").get("tool", {}):
        return True
    return (root / "ruff.toml").is_file() or (root / ".ruff.toml").is_file()


@functools.lru_cache(maxsize=64)
def _isort_elsewhere(root: Path, stamp: tuple[int, ...]) -> bool:
    """Whether the project configures isort itself and not ruff's isort rules."""
    pyproject = _toml(root / "pyproject.toml")
    tool = pyproject.get("tool", {})
    ruff = tool.get("ruff", {})
    ruff_toml = _toml(root / "ruff.toml") or _toml(root / ".ruff.toml")
    ruff_isort = any(
        "isort" in section
        for section in (ruff, ruff.get("lint", {}), ruff_toml, ruff_toml.get("lint", {}))
    )
    return _isort_own(root, stamp) and not ruff_isort


def isort_elsewhere(root: Path) -> bool:
    """Whether the project's own isort (not ruff's isort rules) judges its import order."""
    return _isort_elsewhere(root, _stamp(root))


def configures_import_order(root: Path) -> bool:
    """Whether the project's settings choose an import order: ruff's, or isort's own."""
    stamp = _stamp(root)
    return _configures_ruff(root, stamp) or _isort_own(root, stamp)


@functools.lru_cache(maxsize=64)
def _isort_own(root: Path, stamp: tuple[int, ...]) -> bool:
    """Whether the project configures isort itself (``[tool.isort]``, ``.isort.cfg``, …)."""
    tool = _toml(root / "pyproject.toml").get("tool", {})
    own = "isort" in tool or (root / ".isort.cfg").is_file()
    return own or any(
        {"isort", "tool:isort"} & _ini_sections(root / name) for name in ("setup.cfg", "tox.ini")
    )


@functools.lru_cache(maxsize=64)
def _flake8_limit(root: Path, stamp: tuple[int, ...]) -> int | None:
    """flake8's ``max-line-length`` where the project configures flake8 (its default, 79,
    where a ``[flake8]`` section does not say); None where it does not."""
    for name in (".flake8", "setup.cfg", "tox.ini"):
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            parser.read_string((root / name).read_text(encoding="utf-8"))
            if parser.has_section("flake8"):
                return int(parser.get("flake8", "max-line-length", fallback="79"))
        except (OSError, UnicodeDecodeError, configparser.Error, ValueError):
            continue
    return None


def _pinned_ruff(root: Path) -> tuple[int, int] | None:
    """The ruff version the project's pre-commit runs (None: none pinned there)."""
    try:
        config = yaml.safe_load((root / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    repos = config.get("repos") if isinstance(config, dict) else None
    for repo in repos if isinstance(repos, list) else []:
        if isinstance(repo, dict) and "ruff-pre-commit" in str(repo.get("repo", "")):
            found = _VERSION.match(str(repo.get("rev", "")))
            return (int(found[1]), int(found[2])) if found else None
    return None


def _ruff_settings(root: Path) -> dict[str, Any]:
    """The project's ruff settings, ``[lint]`` merged over the top level (ruff reads both)."""
    for name in ("ruff.toml", ".ruff.toml"):
        if (root / name).is_file():
            found = _toml(root / name)
            break
    else:
        found = _toml(root / "pyproject.toml").get("tool", {}).get("ruff", {})
    lint = found.get("lint", {})
    return {**found, **lint} if isinstance(lint, dict) else found


@functools.lru_cache(maxsize=64)
def _pinned_selection(root: Path, stamp: tuple[int, ...]) -> tuple[str, ...] | None:
    """The rule prefixes the project's own, older ruff checks (None: no ruff older than
    0.16 is pinned, and every finding stands)."""
    pinned = _pinned_ruff(root)
    if pinned is None or pinned >= _WIDE_DEFAULT:
        return None
    settings = _ruff_settings(root)
    select, extend = settings.get("select"), settings.get("extend-select")
    added = extend if isinstance(extend, list) else []
    chosen = select if isinstance(select, list) else [*_OLD_DEFAULT, *added]
    return tuple(str(code) for code in chosen if isinstance(code, str))


def _outside_pinned_selection(code: str, root: Path, stamp: tuple[int, ...]) -> bool:
    selection = _pinned_selection(root, stamp)
    if selection is None or "ALL" in selection:
        return False
    return not any(code.startswith(prefix) for prefix in selection)


def _long_for_flake8(record: dict[str, Any], root: Path, stamp: tuple[int, ...], text: str) -> bool:
    """A RUF100 that calls ``E501`` unused on a line longer than flake8's limit."""
    limit = _flake8_limit(root, stamp)
    if limit is None or "`E501`" not in str(record.get("message", "")):
        return False
    row = int((record.get("location") or {}).get("row") or 0)
    lines = text.splitlines()
    return 0 < row <= len(lines) and len(lines[row - 1]) > limit


def not_the_projects(record: dict[str, Any], root: Path, text: str = "") -> bool:
    """Whether a ruff record (of ``text``) is ruff's view of a check the project leaves to
    another tool."""
    code, message = record.get("code"), str(record.get("message", ""))
    stamp = _stamp(root)
    if code and _outside_pinned_selection(str(code), root, stamp):  # ruff 0.16's wide default
        return True
    if code == "RUF100":  # a noqa is ruff's to judge only where the project lints with ruff
        if not _configures_ruff(root, stamp) or _long_for_flake8(record, root, stamp, text):
            return True
        return any(word in message for word in _NOT_CHECKED)
    if code in _FORM_ONLY:
        return not _form_chosen(str(code), root, stamp) or (
            code == "I001" and _isort_elsewhere(root, stamp)
        )
    return False


@functools.lru_cache(maxsize=64)
def _form_chosen(code: str, root: Path, stamp: tuple[int, ...]) -> bool:
    """Whether the project chose an order or spelling rule: its ruff settings select it
    (``I``, ``RUF022``, ``FURB``, ``ALL``; ruff's isort settings for ``I001``), or its
    pre-commit pins a ruff whose own default is the wide one."""
    pinned = _pinned_ruff(root)
    if pinned is not None and pinned >= _WIDE_DEFAULT:
        return True
    settings = _ruff_settings(root)
    chosen = [
        str(prefix)
        for key in ("select", "extend-select")
        if isinstance(settings.get(key), list)
        for prefix in settings[key]
    ]
    if code == "I001" and "isort" in settings:
        return True
    return any(prefix == "ALL" or (prefix and code.startswith(prefix)) for prefix in chosen)
