"""The oldest Python a project supports: ruff judges the project at it, or not at all.

Ruff checks code for its ``target-version``; a project that sets none and has no
``requires-python`` it can read is judged at ruff's default, a recent Python. A
project that still supports Python 2.7 (``python_requires='>=2.7'`` in setup.py,
``py27`` in tox's envlist) then gets UP010's fix removing ``from __future__ import
division``, which changes what ``/`` does on Python 2. The project's oldest Python is
read, in order, from:

1. ruff's own ``target-version`` (ruff.toml, .ruff.toml, ``[tool.ruff]``) on the file's
   path: the project chose, it is left alone;
2. ``requires-python`` in pyproject.toml (ruff reads it itself when it is 3.7 or later);
3. ``python_requires`` in setup.cfg's ``[options]`` or in setup.py's ``setup(...)`` call
   (a literal keyword, read with ``ast``: :mod:`remora.code.probes.setup_script`), flit's
   ``[tool.flit.metadata]`` ``requires-python``, an sdist's PKG-INFO ``Requires-Python``;
4. the ``Programming Language :: Python :: X.Y`` classifiers (setup.cfg, setup.py,
   pyproject.toml's ``[project]`` or flit's metadata, PKG-INFO), the oldest of them;
5. tox.ini's envlist (``py27``, ``py36-django``, ``{py27,py35}-x``).

Ruff's oldest target is Python 3.7. For a project that supports an older one, ruff runs
at ``py37`` and the findings of rules that assume a newer Python (pyupgrade's ``UP``,
``FA``, and every rule whose ruff documentation names the ``target-version`` option) are
held back with the reason: neither ruff's fix nor the model's rewrite is made; for a
project that supports Python 2.6, so are those of the rules whose fix writes 2.7's set
literals and set or dict comprehensions (C401-C405).
"""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import email.message
import email.parser
import functools
import itertools
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from markdown_it import MarkdownIt

from remora.code.probes.setup_script import setup_keywords
from remora.sandbox.commands import resolve_executable
from remora.sandbox.ending import end_process, start_in_group

__all__ = ["RUFF_OLDEST", "Floor", "assumes_newer", "documented_rules", "project_floor"]

RUFF_OLDEST = (3, 7)
_RUFF_FILES = ("ruff.toml", ".ruff.toml", "pyproject.toml")
# A version specifier's clauses that bound the oldest version from below.
_CLAUSE = re.compile(r"^\s*(===|==|~=|>=|>)\s*(\d+)(?:\.(\d+|\*))?")
_CLASSIFIER = re.compile(r"^Programming Language :: Python :: (\d+)(?:\.(\d+))?$")
# A tox factor naming a Python: py27, py310, py2.7, pypy27, pypy3.9; "py2" means Python 2.
_TOX_FACTOR = re.compile(r"^(?:py|pypy)(?:(2)|(\d)\.?(\d+))$")
_FAMILIES = re.compile(r"^(UP|FA)\d+$")
# The rules whose fix writes a set literal or a set or dict comprehension: Python 2.7's
# syntax (hyperlink, which supports 2.6: "{u'%'} is a syntax error on Python 2.6").
_PY27_SYNTAX = frozenset({"C401", "C402", "C403", "C404", "C405"})


@dataclass(frozen=True)
class Floor:
    """The project's oldest Python and where it was read (``version`` None: not known)."""

    version: tuple[int, int] | None = None
    source: str = ""
    ruff_reads: bool = True  # ruff's target-version, or a requires-python it can use

    @property
    def below_ruff(self) -> bool:
        return self.version is not None and self.version < RUFF_OLDEST

    def ruff_args(self) -> list[str]:
        """``--target-version pyXY`` when ruff would not find the version itself."""
        if self.version is None or self.ruff_reads:
            return []
        major, minor = max(self.version, RUFF_OLDEST)
        return ["--target-version", f"py{major}{minor}"]

    def reason(self) -> str:
        """Why a rule that assumes a newer Python is neither fixed nor rewritten."""
        major, minor = self.version or RUFF_OLDEST
        shown = f"{major}" if (major, minor) == (2, 0) else f"{major}.{minor}"
        return (
            f"the project supports Python {shown} ({self.source}), older than ruff's oldest "
            "target (3.7): a rule that assumes a newer Python is neither fixed nor rewritten"
        )


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _ini(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    with contextlib.suppress(OSError, UnicodeDecodeError, configparser.Error):
        parser.read_string(path.read_text(encoding="utf-8"))
    return parser


def _specifier_floor(text: str) -> tuple[int, int] | None:
    """The oldest X.Y a version specifier (``>=2.7, !=3.0.*``) allows; None without a bound."""
    found = []
    for clause in text.split(","):
        if match := _CLAUSE.match(clause):
            minor = match[3] if match[3] and match[3] != "*" else "0"
            found.append((int(match[2]), int(minor)))
    return min(found) if found else None


def _classifiers_floor(classifiers: list[str]) -> tuple[int, int] | None:
    found = []
    for text in classifiers:
        if (match := _CLASSIFIER.match(text.strip())) and (match[2] or match[1] == "2"):
            found.append((int(match[1]), int(match[2] or 0)))
    return min(found) if found else None


def _setup_call(root: Path) -> dict[str, Any]:
    """setup.py's ``setup(...)`` keywords whose values are literals."""
    try:
        return setup_keywords((root / "setup.py").read_bytes())
    except OSError:
        return {}


def _package_info(root: Path) -> email.message.Message:
    """An sdist's PKG-INFO (core metadata, an email-style header block); empty when none."""
    try:
        text = (root / "PKG-INFO").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    return email.parser.HeaderParser().parsestr(text)


def _expand(envlist: str) -> list[str]:
    """tox's envlist as names: commas and lines split it, ``{a,b}`` gives one name each."""
    names = []
    for item in re.split(r",(?![^{]*\})|\n", envlist):
        parts = re.split(r"\{([^}]*)\}", item.strip())
        choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
        names += ["".join(c.strip() for c in combo) for combo in itertools.product(*choices)]
    return [name for name in names if name]


def _tox_floor(root: Path) -> tuple[int, int] | None:
    parser = _ini(root / "tox.ini")
    envlist = parser.get("tox", "envlist", fallback="") or parser.get(
        "tox", "env_list", fallback=""
    )
    found = []
    for name in _expand(envlist):
        for factor in name.split("-"):
            if match := _TOX_FACTOR.match(factor):
                found.append((2, 0) if match[1] else (int(match[2]), int(match[3])))
    return min(found) if found else None


def _ruff_target(root: Path, folder: PurePosixPath) -> str | None:
    """The ``target-version`` a ruff settings file on the file's path sets, if any."""
    for part in [folder, *folder.parents]:
        for name in _RUFF_FILES:
            settings = _toml(root / part / name)
            if name == "pyproject.toml":
                settings = settings.get("tool", {}).get("ruff", {})
            if isinstance(value := settings.get("target-version"), str):
                return value
    return None


def _requires_python(root: Path, folder: PurePosixPath) -> str | None:
    """The nearest pyproject.toml's ``requires-python`` on the file's path (as ruff reads it)."""
    for part in [folder, *folder.parents]:
        value = _toml(root / part / "pyproject.toml").get("project", {}).get("requires-python")
        if isinstance(value, str):
            return value
    return None


@functools.lru_cache(maxsize=256)
def project_floor(root: Path, folder: PurePosixPath, stamp: tuple[int, ...]) -> Floor:
    """The oldest Python the project supports, for a file in ``folder`` (``stamp``: the
    modification times of the settings files it is read from, for the cache)."""
    del stamp
    if (target := _ruff_target(root, folder)) is not None:
        digits = re.fullmatch(r"py(\d)(\d+)", target)
        version = (int(digits[1]), int(digits[2])) if digits else None
        return Floor(version, f"ruff's target-version {target!r}", True)
    requires = _requires_python(root, folder)
    if requires is not None and (version := _specifier_floor(requires)) is not None:
        return Floor(version, f"requires-python {requires!r}", version >= RUFF_OLDEST)
    setup = _setup_call(root)
    setup_cfg = _ini(root / "setup.cfg")
    pyproject = _toml(root / "pyproject.toml")
    flit = pyproject.get("tool", {}).get("flit", {}).get("metadata", {})
    metadata = _package_info(root)
    for source, value in (
        ("setup.cfg python_requires", setup_cfg.get("options", "python_requires", fallback="")),
        ("setup.py python_requires", setup.get("python_requires")),
        ("flit's requires-python", flit.get("requires-python")),
        ("PKG-INFO's Requires-Python", metadata.get("Requires-Python")),
    ):
        if isinstance(value, str) and (version := _specifier_floor(value)) is not None:
            return Floor(version, f"{source} {value!r}", False)
    classifiers = setup_cfg.get("metadata", "classifiers", fallback="").splitlines()
    listed = setup.get("classifiers")
    classifiers += (
        [c for c in listed if isinstance(c, str)] if isinstance(listed, list | tuple) else []
    )
    for table in (pyproject.get("project", {}), flit):
        classifiers += [c for c in table.get("classifiers", []) if isinstance(c, str)]
    classifiers += metadata.get_all("Classifier") or []
    if (version := _classifiers_floor(classifiers)) is not None:
        return Floor(version, "its Programming Language classifiers", False)
    if (version := _tox_floor(root)) is not None:
        return Floor(version, "tox.ini's envlist", False)
    return Floor()


_DOCUMENTED: dict[str, frozenset[str]] = {}


def _names_target_version(explanation: str) -> bool:
    """Whether ruff's documentation of a rule names the ``target-version`` option."""
    for token in MarkdownIt().parse(explanation):
        for child in token.children or []:
            if child.type == "code_inline" and child.content == "target-version":
                return True
    return False


async def documented_rules(limit_s: float) -> frozenset[str]:
    """The rules whose ruff documentation names ``target-version`` (``ruff rule --all``),
    read once per process; empty when ruff cannot say (the UP and FA families still count),
    and then asked again next time: a ruff that timed out or failed is no answer to keep."""
    ruff = resolve_executable("ruff")
    if ruff not in _DOCUMENTED:
        argv = [ruff, "rule", "--all", "--output-format", "json"]
        process = await start_in_group(argv, None)
        try:
            out, _ = await asyncio.wait_for(process.communicate(), limit_s)
            rules = json.loads(out) if process.returncode == 0 else None
        except ValueError:
            rules = None
        except TimeoutError:
            await end_process(process, None)
            rules = None
        except asyncio.CancelledError:
            await end_process(process, None)
            raise
        if rules is None:
            return frozenset()
        _DOCUMENTED[ruff] = frozenset(
            str(rule["code"])
            for rule in rules
            if _names_target_version(str(rule.get("explanation", "")))
        )
    return _DOCUMENTED[ruff]


def assumes_newer(
    code: object, documented: frozenset[str], version: tuple[int, int] | None = None
) -> bool:
    """Whether rule ``code`` judges code for a target Python (a project below ruff's oldest
    target gets none of its findings), or its fix writes syntax newer than ``version``,
    the project's oldest Python (a set literal or comprehension before 2.7)."""
    if version is not None and version < (2, 7) and code in _PY27_SYNTAX:
        return True
    return isinstance(code, str) and (bool(_FAMILIES.match(code)) or code in documented)
