"""``remora lsp --changed``: what the branch changed, run once the editor is connected.

After ``initialized`` the server picks, in each workspace folder's project, the
nodes whose lines differ from the git base exactly as ``remora analyze --changed``
does (:func:`remora.discovery.changed_nodes.discover_changed`: the same base, the same
errors), runs the enabled operations of remora.yaml on them as "run agent X now"
runs (:func:`remora.lsp.agent_runs.run_agents`: work-done progress the user can cancel,
one run at a time) and publishes what they leave for review: diagnostics on the
open documents and on each changed file not open (from the file as saved).

A git error (no repository, an unknown ref, a shallow clone without its base) or
a configuration error is a ``window/showMessage`` error and a line of the log;
the server goes on serving the queue (docs/editors.md).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from lsprotocol import types

from remora.agents import AgentRegistry
from remora.coordinator import parse_operations
from remora.discovery.changed_nodes import ChangedNodes, discover_changed
from remora.errors import RemoraError
from remora.lsp.agent_runs import run_agents
from remora.lsp.open_projects import Project
from remora.lsp.server import RemoraLanguageServer

__all__ = ["ChangedRequest", "run_changed"]

logger = logging.getLogger(__name__)
_PREFIX = "remora --changed"


@dataclass(frozen=True, slots=True)
class ChangedRequest:
    """``--base REF`` (None: the merge base with the default branch) and ``--staged``."""

    base: str | None = None
    staged: bool = False


async def run_changed(ls: RemoraLanguageServer, request: ChangedRequest) -> None:
    """Run the changed nodes of every workspace folder's project, one project after another."""
    try:
        projects = ls.projects.all()
    except RemoraError as exc:  # a damaged remora.db (results/health.py)
        _error(ls, exc)
        return
    if not projects:
        ls.log(f"{_PREFIX}: the editor opened no workspace folder: nothing to compare")
        ls.tell(f"{_PREFIX}: open a folder (a git work tree) to run its changed nodes")
        return
    for project in projects:
        try:
            await _run_project(ls, project, request)
        except RemoraError as exc:
            _error(ls, exc, project)


def _error(ls: RemoraLanguageServer, exc: RemoraError, project: Project | None = None) -> None:
    where = f" ({project.root})" if project is not None else ""
    hint = f" (hint: {exc.hint})" if exc.hint else ""
    message = f"{_PREFIX}{where}: {exc.message}{hint}"
    ls.log(message, types.MessageType.Error)
    ls.tell(message, types.MessageType.Error)


async def _run_project(ls: RemoraLanguageServer, project: Project, request: ChangedRequest) -> None:
    loaded = project.config()  # works from the project's root, as analyze does
    registry = AgentRegistry(loaded.config.agents_dir, project_root=project.root)
    operations = parse_operations(None, loaded.config, registry)
    # git and the parses block: off the loop, so the editor's requests are answered meanwhile
    found: ChangedNodes = await asyncio.to_thread(
        discover_changed,
        [project.root],
        project_root=project.root,
        config=loaded.config.discovery,
        base=request.base,
        staged=request.staged,
    )
    for warning in found.result.warnings:
        ls.log(f"{_PREFIX}: {warning}", types.MessageType.Warning)
    for line in found.listing():
        ls.log(line)
    nodes = found.result.nodes
    if not nodes:
        ls.tell(f"{_PREFIX}: no node changed ({found.describe()})")
        return
    async with ls.run_lock:
        report = await run_agents(
            ls,
            project,
            nodes,
            operations,
            f"remora {', '.join(operations)}: {len(nodes)} changed nodes",
        )
    ls.on_disk |= {(project.root / rel).as_uri() for rel in found.changed_files}
    ls.reload(project)
    if report is None:
        ls.tell(f"{_PREFIX}: cancelled: unfinished runs were discarded")
        return
    counts = report.counts()
    ls.tell(
        f"{_PREFIX}: {len(nodes)} nodes in {len(found.changed_files)} files "
        f"({found.describe()}): {counts['success']} succeeded, {counts['failed']} failed; "
        f"{counts['changed']} change(s) to review"
    )
