"""The test search's round one on a made-up module: real discovery, ``ast`` and a real
workspace; nothing of the module runs."""

from __future__ import annotations

from pathlib import Path

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.values import Candidate, host_candidates
from remora.config import SandboxConfig
from remora.discovery import discover
from remora.workspace import WorkspaceStore


def candidates_of(root: Path, file: str, text: str, name: str) -> list[Candidate]:
    """:func:`host_candidates` for the node ``name`` of ``text`` written at ``root/file``."""
    (root / file).write_text(text)
    node = next(n for n in discover([root / file], project_root=root).nodes if n.full_name == name)
    with WorkspaceStore(root).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        return host_candidates(context, node_call_target(context))
