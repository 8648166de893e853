"""``.remora/servers.json``: each model server's state while a command runs, for ``remora models``.

The coordinator rewrites the file every second while runs go to servers (the
openai provider's router: in rotation, cooling down, in flight, served), and
once more at the end, so ``remora models`` in another terminal shows a running
analysis live and, after it, how the last one went.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from remora.coordinator.providers import ProviderPool
from remora.project import STATE_DIR

__all__ = ["SERVERS_FILE", "publish_server_states", "read_server_states"]

SERVERS_FILE = "servers.json"
_EVERY_S = 1.0


def _write(project_root: Path, states: list[dict[str, Any]], running: bool) -> None:
    folder = project_root / STATE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / SERVERS_FILE
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    payload = {"updated": time.time(), "running": running, "servers": states}
    partial.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, target)  # readers never see half a file


@contextlib.asynccontextmanager
async def publish_server_states(providers: ProviderPool, project_root: Path) -> AsyncIterator[None]:
    """Keep ``.remora/servers.json`` current while the block runs (when any provider routes)."""
    if not providers.servers():
        yield
        return

    async def every_second() -> None:
        while True:
            _write(project_root, providers.servers(), running=True)
            await asyncio.sleep(_EVERY_S)

    task = asyncio.create_task(every_second(), name="remora-server-states")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        _write(project_root, providers.servers(), running=False)


def read_server_states(project_root: Path) -> dict[str, Any] | None:
    """The last states written under ``project_root``; None when there are none (or unreadable:
    the file is a display aid, rewritten by the next run)."""
    path = project_root / STATE_DIR / SERVERS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("servers"), list) else None
