"""``.remora/servers.json``: each model server's state while a command runs, for ``remora models``.

The coordinator rewrites the file every second while runs go to servers (the
openai provider's router: in rotation, cooling down, in flight, served), and
once more at the end, so ``remora models`` in another terminal shows a running
analysis live and, after it, how the last one went. Sharded over host processes
(``sandbox.host_processes``), each process sends its states to the parent, which
writes them merged: one row per model and server, the figures summed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from remora.coordinator.provider_pool import ProviderPool
from remora.project import STATE_DIR

__all__ = [
    "SERVERS_FILE",
    "StatesWriter",
    "merge_server_states",
    "publish_server_states",
    "read_server_states",
    "write_server_states",
]

SERVERS_FILE = "servers.json"
_EVERY_S = 1.0
# The figures a server's row sums over processes; its state is the most severe one.
_SUMMED = ("in_flight", "served", "failed", "throttled", "limit", "max_in_flight")
_SEVERITY = ("in rotation", "probing", "paused", "cooling down")

# (states, running) -> None
StatesWriter = Callable[[list[dict[str, Any]], bool], None]


def write_server_states(project_root: Path, states: list[dict[str, Any]], running: bool) -> None:
    """Write ``.remora/servers.json`` (atomically: readers never see half a file)."""
    folder = project_root / STATE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / SERVERS_FILE
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    payload = {"updated": time.time(), "running": running, "servers": states}
    partial.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, target)


def merge_server_states(per_process: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per (model, url) from each process's rows: counts summed, the worst state."""
    merged: dict[tuple[Any, Any], dict[str, Any]] = {}
    for rows in per_process:
        for row in rows:
            key = (row.get("model"), row.get("url"))
            into = merged.get(key)
            if into is None:
                merged[key] = dict(row)
                continue
            # Shared slots: each process may take every one of them, together no more, so
            # the server's max_in_flight is each process's, not their sum.
            shared = ("max_in_flight",) if row.get("shared") else ()
            for name in _SUMMED:
                if name in row and name not in shared:
                    into[name] = into.get(name, 0) + row[name]
            if _rank(row.get("state")) > _rank(into.get("state")):
                into["state"] = row["state"]
            into["back_in_s"] = max(into.get("back_in_s", 0.0), row.get("back_in_s", 0.0))
            into["last_error"] = into.get("last_error") or row.get("last_error")
    for row in merged.values():
        if row.get("shared"):
            row["limit"] = min(row["limit"], row["max_in_flight"])
    return list(merged.values())


def _rank(state: Any) -> int:
    return _SEVERITY.index(state) if state in _SEVERITY else -1


@contextlib.asynccontextmanager
async def publish_server_states(
    providers: ProviderPool, project_root: Path, write: StatesWriter | None = None
) -> AsyncIterator[None]:
    """Keep ``.remora/servers.json`` current while the block runs (when any provider routes);
    ``write`` sends the states elsewhere instead (a shard to its parent)."""

    def _write(states: list[dict[str, Any]], running: bool) -> None:
        if write is None:
            write_server_states(project_root, states, running)
        else:
            write(states, running)

    if not providers.servers():
        yield
        return

    async def every_second() -> None:
        while True:
            _write(providers.servers(), True)
            await asyncio.sleep(_EVERY_S)

    task = asyncio.create_task(every_second(), name="remora-server-states")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        _write(providers.servers(), False)


def read_server_states(project_root: Path) -> dict[str, Any] | None:
    """The last states written under ``project_root``; None when there are none (or unreadable:
    the file is a display aid, rewritten by the next run)."""
    path = project_root / STATE_DIR / SERVERS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("servers"), list) else None
