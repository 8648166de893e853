"""Run a user's script into a namespace, as ``python -i script.py`` would.

``remora ask "..." --exec script.py`` asks about the session the script left
behind, so a script that raises is not an error here: what it defined before
the exception stays in the namespace, and the exception becomes the session's
last exception for ``get_last_exception``.
"""

from __future__ import annotations

import builtins
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from remora.errors import UsageError

__all__ = ["ScriptRun", "new_namespace", "run_script"]


def new_namespace(name: str = "__main__", file: Path | None = None) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": name, "__doc__": None, "__builtins__": builtins}
    if file is not None:
        namespace["__file__"] = str(file)
    return namespace


@dataclass
class ScriptRun:
    namespace: dict[str, Any]
    error: BaseException | None = None
    exit_code: int | None = None
    argv: list[str] = field(default_factory=list)

    def traceback_text(self) -> str:
        return "".join(traceback.format_exception(self.error)) if self.error else ""


def run_script(
    path: Path, namespace: dict[str, Any] | None = None, args: list[str] | None = None
) -> ScriptRun:
    """Execute ``path`` in ``namespace`` (a fresh ``__main__`` one by default)."""
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise UsageError(
            f"cannot read script {path}: {exc.strerror or exc}",
            "check the path given to --exec",
        ) from exc
    if namespace is None:
        namespace = new_namespace(file=path.resolve())
    else:
        namespace.setdefault("__file__", str(path.resolve()))
    run = ScriptRun(namespace, argv=[str(path), *(args or [])])
    saved_argv = sys.argv
    # Like `python script.py`: its own directory first on sys.path, its argv.
    sys.argv = run.argv
    sys.path.insert(0, str(path.resolve().parent))
    try:
        code = compile(source, str(path), "exec")
        exec(code, namespace)
    except SystemExit as exc:
        run.exit_code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception as exc:  # the user's script failed: the session keeps the error
        tb = exc.__traceback__
        # Drop this function's frame, keep the script's own.
        run.error = exc.with_traceback(tb.tb_next if tb is not None else None)
    finally:
        sys.argv = saved_argv
        # Unless the script rearranged sys.path itself: then its choice stands.
        if sys.path and sys.path[0] == str(path.resolve().parent):
            del sys.path[0]
    return run
