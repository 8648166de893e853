"""``remora agents ...``: agents and their tool scripts.

One typer sub-app; each subcommand is a function below. ``check`` validates
``.pym`` tool scripts (files, or directories searched recursively).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from remora.cli.options import FormatOpt, OutputFormat
from remora.cli.output import console, err_console, print_json
from remora.errors import USAGE, RemoraError

__all__ = ["agents_app", "register"]

agents_app = typer.Typer(
    name="agents",
    help="Agents and their .pym tool scripts.",
    no_args_is_help=True,
)


@agents_app.command("check")
def check_command(
    paths: Annotated[list[Path], typer.Argument(help=".pym files, or directories of them.")],
    output_format: FormatOpt = OutputFormat.table,
) -> None:
    """Check .pym tool scripts; print every problem as `file:line rule message`.

    Exit code 0 when every script loads, 1 when any has a problem.
    """
    from remora.sandbox import check_pym, iter_pym_files

    files = list(iter_pym_files(paths))
    if not files:
        shown = ", ".join(str(p) for p in paths)
        raise RemoraError(USAGE, f"no .pym files under {shown}",
                          "name .pym files or directories that contain them")
    report: list[dict[str, Any]] = []
    problems = 0
    for path in files:
        findings = check_pym(path)
        problems += len(findings)
        report.append({"file": str(path), "ok": not findings,
                       "findings": [f.to_dict() for f in findings]})
        if output_format is OutputFormat.table:
            for finding in findings:
                console.print(str(finding), markup=False)
    if output_format is OutputFormat.json:
        print_json(report)
    else:
        bad = sum(1 for item in report if not item["ok"])
        err_console.print(f"{len(files)} script(s) checked, {bad} with problems, "
                          f"{problems} problem(s)")
    if problems:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``agents`` group to the root app."""
    app.add_typer(agents_app, name="agents")
