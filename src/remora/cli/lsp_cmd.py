"""``remora lsp``: the language server for editors (docs/editors.md)."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from remora.cli.changed_opts import BaseOpt, StagedOpt, wants_changed
from remora.errors import UsageError

__all__ = ["lsp_command", "register"]

TcpOpt = Annotated[
    bool, typer.Option("--tcp", help="Listen on 127.0.0.1:PORT instead of stdio (for debugging).")
]
PortOpt = Annotated[
    int, typer.Option("--port", help="Port for --tcp.", min=1, max=65535, show_default=True)
]
ChangedOpt = Annotated[
    bool,
    typer.Option(
        "--changed",
        help="Once the editor is connected, run the enabled operations on the nodes whose "
        "lines differ from the git base (the nodes `analyze --changed` picks) and show their "
        "changes.",
    ),
]
LogOpt = Annotated[
    str | None,
    typer.Option("--log-file", help="Write the server's log (debug level) to this file."),
]


def lsp_command(
    tcp: TcpOpt = False,
    port: PortOpt = 2087,
    log_file: LogOpt = None,
    changed: ChangedOpt = False,
    base: BaseOpt = None,
    staged: StagedOpt = False,
) -> None:
    """Serve the review queue to an editor over the Language Server Protocol (stdio).

    Pending changes show as diagnostics; code actions accept, reject, show the
    diff or run an agent. The project is the one the editor opened.

    With --changed, once the editor is connected, the enabled operations run on
    the nodes that differ from the git base (as `analyze --changed` picks them)
    and their changes show as diagnostics, in the changed files open or not.
    """
    if port != 2087 and not tcp:
        raise UsageError("--port needs --tcp", "stdio is the default; add --tcp to listen")
    if log_file is not None:
        logging.basicConfig(filename=log_file, level=logging.DEBUG)
    from remora.lsp import ChangedRequest, create_server  # pygls only for this command

    request = ChangedRequest(base, staged) if wants_changed(changed, base, staged) else None
    server = create_server(request)
    if tcp:
        server.start_tcp("127.0.0.1", port)
    else:
        server.start_io()


def register(app: typer.Typer) -> None:
    """Add ``remora lsp`` to the root app."""
    app.command("lsp")(lsp_command)
