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
5. tox.ini's envlist (``py27``, ``py36-django``, ``{py27,py35}-x``);
6. a universal wheel (setup.cfg's ``[bdist_wheel]``, or the older ``[wheel]``, with
   ``universal = 1``): the wheel is tagged ``py2.py3``, so it installs on Python 2.7
   (glob2 lists only "Python :: 3" but builds one, and its code still has a
   ``unicode`` branch: ``class Globber(object)`` -> ``class Globber:`` was rejected).

Ruff's oldest target is Python 3.7: a project older than that is judged at ``py37`` and
the rules that assume a newer Python are held back (:mod:`remora.code.lint.oldest_python`).
The test agent reads the floor too: on a project that supports Python 2, a raised
message's words are matched only where the code wrote them (a field the code fills,
``"unicode" if PY2 else "str"``, differs there: :mod:`remora.code.testgen.message_words`).
"""

from __future__ import annotations

import configparser
import contextlib
import email.message
import email.parser
import functools
import itertools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from remora.code.context import CodeContext
from remora.code.probes.setup_script import setup_keywords

__all__ = ["RUFF_OLDEST", "Floor", "floor_of", "floor_stamp", "project_floor"]

RUFF_OLDEST = (3, 7)
_RUFF_FILES = ("ruff.toml", ".ruff.toml", "pyproject.toml")
# A version specifier's clauses that bound the oldest version from below.
_CLAUSE = re.compile(r"^\s*(===|==|~=|>=|>)\s*(\d+)(?:\.(\d+|\*))?")
_CLASSIFIER = re.compile(r"^Programming Language :: Python :: (\d+)(?:\.(\d+))?$")
# A tox factor naming a Python: py27, py310, py2.7, pypy27, pypy3.9; "py2" means Python 2.
_TOX_FACTOR = re.compile(r"^(?:py|pypy)(?:(2)|(\d)\.?(\d+))$")


@dataclass(frozen=True)
class Floor:
    """The project's oldest Python and where it was read (``version`` None: not known)."""

    version: tuple[int, int] | None = None
    source: str = ""
    ruff_reads: bool = True  # ruff's target-version, or a requires-python it can use

    @property
    def python2(self) -> bool:
        """Whether the project still supports Python 2."""
        return self.version is not None and self.version < (3, 0)

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
    for section in ("bdist_wheel", "wheel"):
        universal = setup_cfg.get(section, "universal", fallback="").strip().lower()
        if universal in ("1", "true", "yes", "on"):
            return Floor((2, 7), f"setup.cfg's [{section}] universal = 1", False)
    return Floor()


# The files the floor is read from at the project's root (ruff's own settings aside).
_FLOOR_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "PKG-INFO", "tox.ini")


def floor_stamp(root: Path) -> tuple[int, ...]:
    """The modification times (ns; -1 when absent) of the root files the floor is read
    from: ``project_floor``'s ``stamp`` for a reader that is not ruff's."""
    stamps = []
    for name in _FLOOR_FILES:
        try:
            stamps.append((root / name).stat().st_mtime_ns)
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


def floor_of(context: CodeContext, path: str) -> Floor:
    """The oldest Python the run's project supports, for its file ``path``."""
    root = Path(context.workspace.project_root)
    return project_floor(root, PurePosixPath(path).parent, floor_stamp(root))
