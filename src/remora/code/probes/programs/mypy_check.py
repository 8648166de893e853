"""Run mypy on one file of the project as it is, then as a change would write it; report each
run's errors in that file.

The project is seen read-only: the changed text goes to a file of its own, and mypy's
``--shadow-file`` checks it in the file's place (its module name, the project's settings
and per-module sections stay the file's). Both runs share one cache in a temporary
folder, so the second checks only what the change touches. mypy reads the project's
own settings (``[tool.mypy]``, ``mypy.ini``, ``setup.cfg``) from the folder it runs in,
the project's root.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

MARKER = "REMORA_REPORT "
MAX_OUTPUT_CHARS = 1500


def _errors(arguments: list[str], path: str) -> dict[str, Any]:
    """mypy's errors in ``path`` (``[code, message]`` each), its exit status and, when it
    could not check (status 2), what it printed."""
    from mypy import api

    out, err, status = api.run(arguments)
    errors: list[list[str]] = []
    for line in out.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("severity") == "error" and row.get("file") == path:
            errors.append([str(row.get("code") or ""), str(row.get("message") or "")])
    problem = (err or out).strip()[-MAX_OUTPUT_CHARS:] if status not in (0, 1) else ""
    return {"errors": errors, "status": status, "problem": problem}


def main(request: dict[str, Any]) -> None:
    path = str(request["path"])
    try:
        import mypy.api  # noqa: F401  (installed where the sandbox's interpreter is)
    except ImportError as exc:
        print(MARKER + json.dumps({"missing": str(exc)}))
        return
    folder = tempfile.mkdtemp(prefix="remora-mypy-")
    shadow = os.path.join(folder, "changed.py")
    with open(shadow, "w", encoding="utf-8") as handle:
        handle.write(str(request["text"]))
    common = ["--output=json", "--cache-dir", os.path.join(folder, "cache"), path]
    before = _errors(common, path)
    after = _errors(["--shadow-file", path, shadow, *common], path)
    print(MARKER + json.dumps({"before": before, "after": after}))
