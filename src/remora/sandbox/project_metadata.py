"""The project as an installed distribution, for a checkout that was never installed.

Much code asks for its own distribution as it imports: ``__version__ =
importlib.metadata.version("shelf-kit")``, ``pkg_resources.get_distribution(...)``.
In a maintainer's environment the project is installed (``pip install -e .``) and the
answer is there; in the sandbox, which runs this interpreter on a copy of the checkout,
it was not, the import raised ``PackageNotFoundError``, and every probe, test and sample
of the project failed before its first line ran (a package of the review corpus got no
test for any of its 150 definitions).

:func:`metadata_path` writes what an install would leave for the lookup, a
``NAME-VERSION.dist-info/METADATA`` with the project's declared name and version, into a
folder of the sandbox's own (never the project), for ``PYTHONPATH``: a folder of nothing
but that holds no module, so it shadows none. The name and version are read from the
project's own files with their own parsers: ``PKG-INFO`` (an sdist's, :mod:`email`),
``pyproject.toml``'s ``[project]`` (:mod:`tomllib`), ``setup.cfg``'s ``[metadata]``
(:mod:`configparser`); a version computed at build time (``dynamic``, ``attr:``) is
written as ``0``. Nothing is written where this interpreter's environment has the
distribution installed already (the real one answers), or where no file names it.
"""

from __future__ import annotations

import configparser
import functools
import importlib.metadata
import re
import tomllib
from collections.abc import Callable
from email.parser import HeaderParser
from pathlib import Path

__all__ = ["declared_distribution", "metadata_path"]

# What a version computed at build time is written as: any version answers the lookup.
UNKNOWN_VERSION = "0"
_FILES = ("PKG-INFO", "pyproject.toml", "setup.cfg")


def _from_pkg_info(text: str) -> tuple[str, str] | None:
    headers = HeaderParser().parsestr(text)
    name = headers.get("Name")
    return (name, headers.get("Version") or UNKNOWN_VERSION) if name else None


def _from_pyproject(text: str) -> tuple[str, str] | None:
    try:
        project = tomllib.loads(text).get("project")
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(project, dict) or not isinstance(project.get("name"), str):
        return None
    version = project.get("version")
    return project["name"], version if isinstance(version, str) else UNKNOWN_VERSION


def _from_setup_cfg(text: str) -> tuple[str, str] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    name = parser.get("metadata", "name", fallback="").strip()
    version = parser.get("metadata", "version", fallback="").strip()
    if not name:
        return None
    computed = not version or version.startswith(("attr:", "file:"))
    return name, UNKNOWN_VERSION if computed else version


_READERS: dict[str, Callable[[str], tuple[str, str] | None]] = {
    "PKG-INFO": _from_pkg_info,
    "pyproject.toml": _from_pyproject,
    "setup.cfg": _from_setup_cfg,
}


@functools.lru_cache(maxsize=64)
def _declared(texts: tuple[str | None, ...]) -> tuple[str, str] | None:
    for file, text in zip(_FILES, texts, strict=True):
        if text is not None and (found := _READERS[file](text)):
            return found
    return None


def declared_distribution(read: Callable[[str], bytes | None]) -> tuple[str, str] | None:
    """The project's distribution name and version, as its first file that names one says
    (``read``: a project file's bytes, None where there is none); None where none does."""
    raw = [read(file) for file in _FILES]
    return _declared(tuple(None if b is None else b.decode("utf-8", "replace") for b in raw))


@functools.lru_cache(maxsize=64)
def _installed(name: str) -> bool:
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def metadata_path(read: Callable[[str], bytes | None], home: Path) -> Path | None:
    """The folder, under the sandbox's ``home``, holding the project's ``.dist-info`` for
    ``PYTHONPATH``; None where the project declares no distribution or this interpreter's
    environment has it installed."""
    declared = declared_distribution(read)
    if declared is None or _installed(declared[0]):
        return None
    name, version = declared
    folder = home / ".remora-site"
    info = folder / f"{re.sub(r'[-_.]+', '_', name)}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", "utf-8"
    )
    return folder
