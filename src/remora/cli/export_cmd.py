"""``remora review export``: the pending changes for a pull request, a patch or SARIF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from remora.cli.options import SharedOptions, shared_options
from remora.cli.output import console, err_console
from remora.delivery.export import EXPORT_FORMATS, Exported, export_queue

__all__ = ["ExportFormatOpt", "OutputOpt", "register", "write_export"]

ExportFormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        "-f",
        help="github (a pull-request review's JSON body), gitlab (merge-request discussions), "
        "patch (one patch git apply takes), sarif (SARIF 2.1.0 with fixes).",
    ),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write to this file (default: standard output)."),
]
ExportBaseOpt = Annotated[
    str | None,
    typer.Option(
        "--base",
        help="github/gitlab: the pull request's base branch (its merge base with HEAD; "
        "default: the default branch, origin/HEAD else main or master).",
        show_default=False,
    ),
]


def write_export(exported: Exported, output: Path | None) -> None:
    """The text to the file (or stdout), and the changes left out to stderr."""
    for workspace_id, why in exported.left_out:
        err_console.print(f"left out {workspace_id}: {why}", markup=False, highlight=False)
    if output is None:
        console.print(exported.text, end="", markup=False, highlight=False, soft_wrap=True)
        return
    output.write_text(exported.text, encoding="utf-8")
    err_console.print(
        f"wrote {exported.changes - len(exported.left_out)} change(s) to {output}", markup=False
    )


def register(review_app: typer.Typer) -> None:
    """Add ``export`` to ``remora review``."""

    @review_app.command("export")
    @shared_options
    def export_command(
        ctx: typer.Context,
        opts: SharedOptions,
        export_format: ExportFormatOpt = "github",
        output: OutputOpt = None,
        base: ExportBaseOpt = None,
    ) -> None:
        """Export the pending changes: a GitHub or GitLab review, a patch, or SARIF."""
        if export_format not in EXPORT_FORMATS:
            raise typer.BadParameter(
                f"{export_format!r} is not one of {', '.join(EXPORT_FORMATS)}",
                param_hint="--format",
            )
        parent = ctx.parent.obj if ctx.parent is not None else None
        if isinstance(parent, SharedOptions) and opts.project is None:
            opts.project = parent.project  # `remora review --project X export`
        write_export(export_queue(opts.project_root(), export_format, base=base), output)
