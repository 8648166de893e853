"""The call probe run as the sandbox runs it: its program text on a Python subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from remora.code.probes.sandboxed import MARKER, _program_text
from remora.code.testgen.written_tests import observed_piece
from remora.code.values import CallTarget


def probe_outcome(
    cwd: Path,
    module: str,
    qualname: str,
    args: dict[str, Any],
    *,
    owner: str | None = None,
    owner_args: dict[str, Any] | None = None,
    drain: bool = False,
    contents: str | None = None,
    observe: Sequence[str] = (),
) -> dict[str, Any]:
    """The outcome of one call of ``module.qualname`` with ``args`` (a method's instance
    built from ``owner_args``; a generator drained with ``drain``; its instance's changed
    items reported as ``contents`` asks: ``items``, ``keys``; the instance's attributes
    ``observe`` names read after it), as the probe reports it."""
    request = {
        "module": module,
        "qualname": qualname,
        "kind": "function" if owner is None else "method",
        "owner": owner,
        "owner_args": owner_args or {},
        "paths": ["."],
        "sets": [{"name": "one", "args": args}],
        "call": True,
        "observe": list(observe),
        "contents": contents,
        "timeout_s": 10,
        "drain": drain,
    }
    run = subprocess.run(
        [sys.executable, "-"],
        input=_program_text("call_probe", request, None),
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in run.stdout.splitlines() if x.startswith(MARKER))
    outcome: dict[str, Any] = json.loads(line[len(MARKER) :])["outcomes"][0]
    return outcome


def observed_test(
    cwd: Path,
    module: str,
    name: str,
    args: dict[str, Any],
    names: set[str],
    *,
    owner: str | None = None,
    owner_args: dict[str, Any] | None = None,
) -> str:
    """The test the test operation writes of one probed call of ``module.name`` (a method
    of ``owner`` built from ``owner_args``): its imports (``names``: the module's), then
    the function ``test_<name>``."""
    owner_args = owner_args or {}
    qualname = f"{owner}.{name}" if owner else name
    outcome = probe_outcome(cwd, module, qualname, args, owner=owner, owner_args=owner_args)
    target = {
        "module": module,
        "qualname": qualname,
        "name": name,
        "kind": "method" if owner else "function",
        "owner": owner or "",
        "method_kind": "instance",
        "is_async": False,
        "is_generator": False,
        "parameters": [{"name": n, "kind": "positional_or_keyword"} for n in args],
        "owner_parameters": [{"name": n, "kind": "positional_or_keyword"} for n in owner_args],
    }
    row = {"args": args, "ok": True, "reason": "", **outcome}
    piece = observed_piece(cast(CallTarget, target), names, owner_args, row, f"test_{name}")
    imports = [f"import {m}" for m in piece.get("modules", [])]
    imports += [f"from {module} import {', '.join(piece['imports'])}"]
    imports += [f"from {m} import {n}" for m, n in piece.get("from_imports", [])]
    return "\n".join(imports) + f"\n\n\n{piece['source']}"


def failed_tests(folder: Path, module: str, text: str, tests: dict[str, str]) -> set[str]:
    """The names of ``tests`` (each ``test_<name>`` in its own file) that fail under pytest
    with ``text`` as ``<module>.py`` beside them."""
    folder.mkdir()
    (folder / f"{module}.py").write_text(text)
    for name, test in tests.items():
        (folder / f"test_{name}_written.py").write_text(test)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rf",
            *("-p", "no:randomly"),
            *("-p", "no:cacheprovider"),
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    return {name for name in tests if f"test_{name}_written.py::test_{name} " in run.stdout}
