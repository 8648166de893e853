"""What an accept does to each file it writes beyond the change: the accept's ``tidy`` hook.

Every accept that writes files (``remora review accept``, ``--all``, ``--commit``, the web
page, ``analyze --auto-accept``) passes :func:`tidy_accepted` to
:func:`remora.results.review_queue.accept`; it removes the imports the accepted change
made unused (:mod:`.made_unused`). The accept is synchronous and may be called from a
thread with no event loop (the CLI, the web app's thread pool) or from inside one
(``analyze --auto-accept``): ruff's runner is awaited on a loop of its own either way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from remora.code.context import CodeContext
from remora.code.lint.made_unused import remove_made_unused
from remora.config import SandboxConfig
from remora.workspace import Workspace
from remora.workspace.accept import Tidied

__all__ = ["tidy_accepted"]

T = TypeVar("T")


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)``, in a thread of its own when this one runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="remora-accept") as pool:
        return pool.submit(asyncio.run, coroutine).result()


def tidy_accepted(ws: Workspace, path: str, before: bytes, after: bytes) -> Tidied:
    """``after`` (the file as the change leaves it; ``before``: as the project has it)
    without the imports the change made unused, and those named.

    A file that is not UTF-8 text is written as it is; one ruff cannot check (a broken
    ruff setting) too, with the reason, which the accept reports.
    """
    try:
        old, new = before.decode("utf-8"), after.decode("utf-8")
    except UnicodeDecodeError:
        return Tidied(after)
    context = CodeContext(ws, None, SandboxConfig())
    try:
        text, removed = _run(remove_made_unused(context, path, old, new))
    except (RuntimeError, TimeoutError, OSError) as exc:  # ruff failed, timed out, is missing
        return Tidied(after, unchecked=f"its imports were not checked: {exc}")
    return Tidied(text.encode("utf-8"), tuple(removed))
