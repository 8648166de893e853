"""`remora lsp`: the review queue and the agents in the editor, over the Language Server Protocol.

Pending changes are diagnostics on the nodes they touch; code actions accept
(through the editor's own ``workspace/applyEdit``), reject, show the diff and
run an agent; hover shows the diff and what the agent did. See docs/editors.md.
"""

from __future__ import annotations

from remora.lsp.branch_changes import ChangedRequest
from remora.lsp.server import RemoraLanguageServer

__all__ = ["ChangedRequest", "RemoraLanguageServer", "create_server"]


def create_server(changed: ChangedRequest | None = None) -> RemoraLanguageServer:
    """A server with every feature and command registered; ``changed``: ``lsp --changed``."""
    from remora.lsp.commands import register_commands
    from remora.lsp.features import register_features

    server = RemoraLanguageServer()
    register_features(server, changed)
    register_commands(server)
    return server
