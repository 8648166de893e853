"""The ``remora`` command: one typer app, one module per command group."""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
import traceback
import warnings

import typer
from rich.markup import escape

from remora.cli import (
    agents_cmd,
    analyze_cmd,
    assistant_cmd,
    ci_cmd,
    config_cmd,
    discover_cmd,
    lsp_cmd,
    models_cmd,
    review_cmd,
    serve_cmd,
    tool_cmd,
)
from remora.cli.fetch_progress import console_progress
from remora.cli.output import err_console
from remora.errors import RemoraError
from remora.providers.model_store import set_fetch_progress
from remora.results import is_busy
from remora.version import __version__

__all__ = ["app", "main"]

app = typer.Typer(
    name="remora",
    help="Improve Python code with small tool-calling models, locally.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # --install-completion / --show-completion for bash, zsh, fish and PowerShell.
    add_completion=True,
)

_state = {"debug": False}


def _print_version(value: bool) -> None:
    if value:
        print(f"remora {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks for errors."),
    _version: bool = typer.Option(
        False,
        "--version",
        "-V",
        callback=_print_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    _state["debug"] = debug or os.environ.get("REMORA_DEBUG", "") not in ("", "0")
    # A model fetched on first use (the embedded provider) shows its progress on stderr.
    set_fetch_progress(console_progress)


for _module in (
    discover_cmd,
    config_cmd,
    review_cmd,
    tool_cmd,
    agents_cmd,
    models_cmd,
    analyze_cmd,
    ci_cmd,
    assistant_cmd,
    serve_cmd,
    lsp_cmd,
):
    _module.register(app)


def _show_warning(
    message: warnings.WarningMessage | Warning | str, *args: object, **kwargs: object
) -> None:
    err_console.print(f"[yellow]warning:[/] {escape(str(message))}", markup=True)


# OSErrors that say what is wrong with the machine rather than with Remora.
_ENVIRONMENT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM}
)


def _environment_hint(exc: OSError | sqlite3.OperationalError) -> str:
    if isinstance(exc, sqlite3.OperationalError) and is_busy(exc):
        return "another process held the database past the wait: let it finish, then run it again"
    return "free disk space or fix the folder's permissions, then run it again"


def main() -> None:
    """Console-script entry point: errors become one line, a hint and an exit code."""
    warnings.showwarning = _show_warning
    try:
        # standalone_mode=False returns typer.Exit's code instead of exiting.
        code = app(standalone_mode=False)
        if isinstance(code, int) and code != 0:
            sys.exit(code)
    except RemoraError as exc:
        if _state["debug"]:
            traceback.print_exc()
        # Messages and hints are plain text: "remora[openai]" is not markup.
        err_console.print(f"[red]error\\[{exc.code}]:[/] {escape(exc.message)}", markup=True)
        if exc.hint:
            err_console.print(f"  hint: {exc.hint}", markup=False)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        err_console.print("aborted")
        sys.exit(130)
    except (OSError, sqlite3.OperationalError) as exc:
        if isinstance(exc, OSError) and exc.errno not in _ENVIRONMENT_ERRNOS:
            raise
        # The machine, not the input or Remora: a full disk, a read-only folder,
        # a database another process holds. Nothing to debug, so no traceback.
        if _state["debug"]:
            traceback.print_exc()
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        err_console.print(f"error: {reason}{where}", markup=False)
        err_console.print(f"  hint: {_environment_hint(exc)}", markup=False)
        sys.exit(2)
    except Exception as exc:
        # Usage errors from typer's vendored click: shown as click shows them.
        show = getattr(exc, "show", None)
        if callable(show) and isinstance(getattr(exc, "exit_code", None), int):
            show()
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        raise
