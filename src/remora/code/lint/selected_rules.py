"""The rules a project's own ruff checks, where it pins a ruff older than the one here.

Ruff 0.16 widened its default selection from pycodestyle's ``E4``, ``E7``, ``E9`` and
pyflakes' ``F`` to some four hundred rules (``RUF``, ``UP``, ``B``, ``SIM``, ...). A
project that relies on the default (no ``select``; ``extend-select`` adds to it) and runs
an older ruff in its pre-commit (pluggy: ``ruff-pre-commit`` at ``v0.11.9``,
``extend-select = ["I", "F", "E", "W", "UP", "ANN"]``) never asked for the rules the newer
default adds: a ``__slots__`` sorted for ``RUF023`` is churn to its maintainer (both
blind reviewers rejected all four). Where the project pins such a ruff, a finding is its
own only when its code falls under the project's ``select`` (when it sets one) or under
the old default and its ``extend-select``. Where it pins none, or a ruff of 0.16 or
later, every finding stands. The pin is read from ``.pre-commit-config.yaml`` (PyYAML), the
settings from ``pyproject.toml``/``ruff.toml`` (:mod:`tomllib`).
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

__all__ = ["outside_pinned_selection"]

# The first ruff whose default selection is the wide one, and the default before it.
_WIDE_DEFAULT = (0, 16)
_OLD_DEFAULT = ("E4", "E7", "E9", "F")
_VERSION = re.compile(r"v?(\d+)\.(\d+)")


def _pinned(root: Path) -> tuple[int, int] | None:
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


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _settings(root: Path) -> dict[str, Any]:
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
def _selection(root: Path, stamp: tuple[int, ...]) -> tuple[str, ...] | None:
    """The rule prefixes the project's own ruff checks (None: every finding stands)."""
    pinned = _pinned(root)
    if pinned is None or pinned >= _WIDE_DEFAULT:
        return None
    settings = _settings(root)
    select, extend = settings.get("select"), settings.get("extend-select")
    added = extend if isinstance(extend, list) else []
    chosen = select if isinstance(select, list) else [*_OLD_DEFAULT, *added]
    return tuple(str(code) for code in chosen if isinstance(code, str))


def _stamp(root: Path) -> tuple[int, ...]:
    stamps = []
    for name in (".pre-commit-config.yaml", "pyproject.toml", "ruff.toml", ".ruff.toml"):
        try:
            stamps.append((root / name).stat().st_mtime_ns)
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


def outside_pinned_selection(code: str, root: Path) -> bool:
    """Whether the project pins a ruff older than 0.16 whose selection ``code`` is not in."""
    selection = _selection(root, _stamp(root))
    if selection is None or "ALL" in selection:
        return False
    return not any(code.startswith(prefix) for prefix in selection)
