"""``remora serve``: the review queue as a local web page (see docs/review.md)."""

from __future__ import annotations

import ipaddress
import secrets
import socket
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from remora.cli.output import console
from remora.errors import UsageError
from remora.project import find_project_root
from remora.web import LOOPBACK_HOSTS, Credentials, create_app

__all__ = ["register", "serve_command"]

PathArg = Annotated[
    Path | None,
    typer.Argument(
        help="The project (default: the one around the current directory).",
        show_default=False,
        metavar="PATH",
    ),
]
PortOpt = Annotated[
    int, typer.Option("--port", "-p", help="Port; 0 picks a free one.", min=0, max=65535)
]
OpenOpt = Annotated[bool, typer.Option("--open", help="Open the page in the default browser.")]
HostOpt = Annotated[
    str,
    typer.Option(
        "--host", help="Address to listen on; another than loopback needs --allow-remote."
    ),
]
AllowRemoteOpt = Annotated[
    bool,
    typer.Option(
        "--allow-remote",
        help="Allow --host to be an address other machines reach (the token is still needed).",
    ),
]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, allow_remote: bool) -> tuple[str, ...]:
    """The Host header names the server answers to; refuses an unsafe --host."""
    if _is_loopback(host):
        return LOOPBACK_HOSTS
    if not allow_remote:
        raise UsageError(
            f"--host {host} would let other machines reach the review server",
            "add --allow-remote if that is what you want (requests still need the token)",
        )
    try:
        wildcard = ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        wildcard = False
    if wildcard:
        raise UsageError(
            f"--host {host} listens on every interface, so no Host header can be checked",
            "give the address of the one interface to serve on, e.g. --host 192.168.1.5",
        )
    return (*LOOPBACK_HOSTS, host)


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise UsageError(
            f"cannot listen on {host}:{port}: {exc.strerror}",
            "--host must be an address of this machine; --port 0 picks a free port",
        ) from None
    sock.listen(128)
    return sock


def serve_command(
    path: PathArg = None,
    port: PortOpt = 8765,
    open_browser: OpenOpt = False,
    host: HostOpt = "127.0.0.1",
    allow_remote: AllowRemoteOpt = False,
) -> None:
    """Serve the review queue on 127.0.0.1: diffs, accept (by hunk), reject (with a reason), runs.

    Every request needs the token printed at start; Ctrl-C stops the server.
    """
    import uvicorn  # the server's import cost only for this command

    root = find_project_root(path or Path.cwd())
    hosts = allowed_hosts(host, allow_remote)
    sock = _listen(host, port)
    bound_port = int(sock.getsockname()[1])
    credentials = Credentials(secrets.token_urlsafe(24), bound_port, hosts)
    app = create_app(root, credentials)
    shown_host = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown_host}:{bound_port}/?token={credentials.token}"
    console.print(f"Remora review of {root}", highlight=False)
    console.print(f"  open {url}", highlight=False, soft_wrap=True)
    console.print("  (the token is needed once per browser; Ctrl-C stops)", highlight=False)
    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def register(app: typer.Typer) -> None:
    """Add ``remora serve`` to the root app."""
    app.command("serve")(serve_command)
