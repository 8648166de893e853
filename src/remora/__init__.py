"""Remora: local-first improvement of Python code with small tool-calling models.

The library entry points (docs/library.md)::

    import remora

    analysis = remora.analyze("src/", operations=["docstring"])
    for change in analysis.changes:
        print(change.diff)
    remora.review.accept([analysis.changes[0].workspace_id], project=analysis.project_root)

``await remora.analyze_async(...)`` is the same run in a running event loop. The
package is typed (``py.typed``): what the functions take and return is exported
here (``remora.ModelConfig``, ``remora.Analysis``, ``remora.TaskOutcome``, ...).

They are imported on first use, so ``import remora`` stays cheap for the CLI and
for every module below it.
"""

from __future__ import annotations

import os
import signal
import sys

# Ctrl-C while the `remora` command loads its modules (a second or more on a busy machine)
# ends it at once with the interrupt's exit code, not an import traceback: nothing has
# started. Only in the console script, never in a process that imports the library;
# remora.cli puts Python's own handler back once the modules are loaded.
if sys.argv and os.path.basename(sys.argv[0]) == "remora":

    def _interrupted_while_starting(signum: int, frame: object) -> None:
        os.write(2, b"interrupted\n")
        os._exit(130)

    signal.signal(signal.SIGINT, _interrupted_while_starting)

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from remora import review
    from remora.analysis import Analysis, Change, analyze, analyze_async
    from remora.config import ModelConfig, RemoraConfig
    from remora.coordinator import AnalyzeReport, TaskOutcome
    from remora.discovery import CSTNode
    from remora.errors import RemoraError
    from remora.runner import AgentResult

from remora.version import __version__

__all__ = [
    "AgentResult",
    "Analysis",
    "AnalyzeReport",
    "CSTNode",
    "Change",
    "ModelConfig",
    "RemoraConfig",
    "RemoraError",
    "TaskOutcome",
    "__version__",
    "analyze",
    "analyze_async",
    "review",
]

# name -> the module it comes from: the functions, what they take, what they return.
_LAZY = {
    "Analysis": "remora.analysis",
    "Change": "remora.analysis",
    "analyze": "remora.analysis",
    "analyze_async": "remora.analysis",
    "ModelConfig": "remora.config",
    "RemoraConfig": "remora.config",
    "AnalyzeReport": "remora.coordinator",
    "TaskOutcome": "remora.coordinator",
    "CSTNode": "remora.discovery",
    "RemoraError": "remora.errors",
    "AgentResult": "remora.runner",
}


def __getattr__(name: str) -> Any:
    if name == "review":
        return importlib.import_module("remora.review")
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'remora' has no attribute {name!r}")
