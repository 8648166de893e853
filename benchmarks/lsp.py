"""`remora lsp` latency on the bundled example with a whole review queue.

A copy of examples/sample_project gets one pending change per function, method
and class (a comment line under the definition, written into a real workspace
and recorded as a run records it), then `remora lsp` runs over stdio with a
pygls client. Printed as JSON (milliseconds, median and max of ROUNDS fresh
servers):

- ``initialize_ms``: the ``initialize`` request to its response, sent once the
  server process has started (it used no CPU for 0.3 s: Linux's /proc);
- ``process_to_initialize_ms``: from starting the process (Python's imports
  included) to the response of an ``initialize`` sent at once;
- ``diagnostics_after_did_open_ms``: from ``didOpen`` of the file with the most
  changes to its ``publishDiagnostics``.

Run: ``.venv/bin/python benchmarks/lsp.py`` (quote ``uptime`` beside the figures).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from remora.discovery import discover
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

ROUNDS = 5
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_project"
REMORA = str(Path(sys.executable).with_name("remora"))


def make_queue(root: Path) -> Counter[str]:
    """One pending change per function, method and class; the count per file."""
    found = discover([root], project_root=root)
    store = WorkspaceStore(root)
    per_file: Counter[str] = Counter()
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {"operations": ["docstring"], "nodes": 0})
        for node in found.nodes:
            if node.node_type == "file":
                continue
            with store.create("docstring", node.node_id) as ws:
                source = ws.read(node.file_path) or b""
                lines = source.decode().splitlines(keepends=True)
                indent = len(lines[node.start_line]) - len(lines[node.start_line].lstrip())
                lines.insert(node.start_line, " " * indent + f"# reviewed: {node.name}\n")
                ws.write(node.file_path, "".join(lines).encode())
                workspace_id = ws.id
            db.record_result(
                run_id,
                node,
                "docstring",
                {
                    "status": "success",
                    "workspace_id": workspace_id,
                    "changed_files": [node.file_path],
                    "summary": f"noted {node.name}",
                    "turns": 2,
                },
            )
            per_file[node.file_path] += 1
        db.finish_run(run_id)
    return per_file


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


async def _idle(client: LanguageClient) -> None:
    """Wait until the server process has used no CPU for 0.3 s (it waits on stdin)."""
    process = client._server
    assert process is not None
    last, still = -1, 0
    while still < 3:
        await asyncio.sleep(0.1)
        ticks = _cpu_ticks(process.pid)
        still = still + 1 if ticks == last else 0
        last = ticks


async def one_round(root: Path, rel: str, *, pause: bool) -> dict[str, float]:
    """One fresh server; with ``pause`` the request goes once the process has started."""
    client = LanguageClient("benchmark", "1")
    published: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.diagnostics and not published.done():
            published.set_result(time.perf_counter())

    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    started = time.perf_counter()
    await client.start_io(REMORA, "lsp", env=env)
    if pause:
        await _idle(client)  # the process has imported everything: time the request alone
    sent = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), root.name)],
        )
    )
    answered = time.perf_counter()
    client.initialized(types.InitializedParams())
    path = root / rel
    opened = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(path.as_uri(), "python", 1, path.read_text())
        )
    )
    shown = await asyncio.wait_for(published, 30)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    if not pause:
        return {"process_to_initialize_ms": (answered - started) * 1000}
    return {
        "initialize_ms": (answered - sent) * 1000,
        "diagnostics_after_did_open_ms": (shown - opened) * 1000,
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sample_project"
        shutil.copytree(EXAMPLE, root)
        per_file = make_queue(root)
        rel, count = per_file.most_common(1)[0]
        warm = [asyncio.run(one_round(root, rel, pause=True)) for _ in range(ROUNDS)]
        cold = [asyncio.run(one_round(root, rel, pause=False)) for _ in range(ROUNDS)]
    figures: dict[str, Any] = {
        "project": "examples/sample_project",
        "pending_changes": sum(per_file.values()),
        "file": rel,
        "changes_in_file": count,
        "rounds": ROUNDS,
    }
    for key in (*warm[0], *cold[0]):
        values = [r[key] for r in (*warm, *cold) if key in r]
        figures[key] = {
            "median": round(statistics.median(values), 1),
            "max": round(max(values), 1),
        }
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
