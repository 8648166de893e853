"""A class's constructor parameters as Python itself sees them, for the docstring oracle.

The docstring agent documents a class's constructor parameters in the class
docstring (``remora.code.docstring.sections``). The oracle must not reuse
Remora's reading of the constructor to judge it, so it imports the module in a
subprocess, in the project copy, and asks ``inspect.signature(cls)`` (which
leaves ``self`` out and follows ``__init__``, ``__new__``, dataclass and
NamedTuple constructors, and metaclasses). When the module cannot be imported
or the class has no signature, the parameters cannot be judged: that is
reported apart, never counted as a wrong docstring. So is an Enum: what
``inspect.signature`` gives for it is ``EnumMeta``'s functional API, not
parameters a docstring documents.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# Runs with ``-I`` (no user site, no PYTHON* variables, no script directory on
# sys.path): only the project's import root is added. Prints one JSON object.
_PROBE = """\
import enum, importlib, inspect, json, sys
root, module, qualname = sys.argv[1:4]
sys.path.insert(0, root)
try:
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise TypeError(f"{qualname} is not a class")
    if issubclass(obj, enum.Enum):
        raise TypeError("an Enum: its signature is the functional API (value, names, ...)")
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    params = inspect.signature(obj).parameters.values()
    print(json.dumps({"names": [stars.get(p.kind, "") + p.name for p in params]}))
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
"""


@dataclass(frozen=True, slots=True)
class ClassParameters:
    """The constructor's parameter names (``*``/``**`` for variadics), or why there are none."""

    names: list[str] | None
    reason: str = ""


def import_root(project: Path, rel_path: str) -> tuple[Path, str]:
    """The directory to put on sys.path for ``rel_path`` and the file's module name.

    The root is the nearest directory above the file that is not a package (has
    no ``__init__.py``): the project for a flat layout, ``src`` for a src layout.
    """
    path = PurePosixPath(rel_path)
    parts = [] if path.stem == "__init__" else [path.stem]
    folder = path.parent
    while folder != PurePosixPath(".") and (project / folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return project / folder, ".".join(parts)


def class_parameters(project: Path, rel_path: str, qualname: str) -> ClassParameters:
    """``inspect.signature`` of the class ``qualname`` of ``rel_path``, imported in a subprocess."""
    root, module = import_root(project, rel_path)
    if not module:
        return ClassParameters(None, f"{rel_path}: no module name")
    argv = [sys.executable, "-I", "-c", _PROBE, str(root), module, qualname]
    try:
        run = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return ClassParameters(None, f"importing {module} took over 60 s")
    lines = run.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else {}
    except ValueError:
        answer = {}
    if "names" in answer:
        return ClassParameters([str(n) for n in answer["names"]])
    reason = answer.get("error") or run.stderr.strip()[-300:] or f"exit status {run.returncode}"
    return ClassParameters(None, f"{module}.{qualname}: {reason}")
