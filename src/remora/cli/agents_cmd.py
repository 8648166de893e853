"""``remora agents ...``: agents and their tool scripts.

One typer sub-app; each subcommand is a function below. Plain ``remora agents``
lists the bundled and user agents, validated, with their model's availability;
``check`` validates ``.pym`` tool scripts and agent YAMLs (files, or
directories searched recursively).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import console, err_console, print_json
from remora.errors import UsageError

__all__ = ["agents_app", "register"]

agents_app = typer.Typer(
    name="agents",
    help="Agents and their .pym tool scripts.",
    invoke_without_command=True,
)


@agents_app.callback(invoke_without_command=True)
@shared_options
def agents_command(
    ctx: typer.Context,
    opts: SharedOptions,
    output_format: FormatOpt = OutputFormat.table,
    model_check: Annotated[
        bool,
        typer.Option(
            "--model-check/--no-model-check", help="Check each agent's model is available."
        ),
    ] = True,
) -> None:
    """List bundled and user agents, validated, with their model's availability.

    Exit code 0 when every agent loads and its model is available, else 1.
    """
    if ctx.invoked_subcommand is not None:
        return
    from remora.cli.agents_list import list_agents

    code = list_agents(opts, output_format, check_models=model_check)
    if code:
        raise typer.Exit(code)


@agents_app.command("check")
def check_command(
    paths: Annotated[
        list[Path], typer.Argument(help=".pym files, agent YAMLs, or directories of them.")
    ],
    output_format: FormatOpt = OutputFormat.table,
) -> None:
    """Check .pym tool scripts and agent YAMLs; print every problem with file and line.

    Exit code 0 when every script and agent loads, 1 when any has a problem.
    """
    from remora.agents.report import agent_yaml_files
    from remora.cli.agents_list import check_agent_yamls
    from remora.code import check_tool_script
    from remora.sandbox import iter_pym_files

    agents = agent_yaml_files(paths)
    files = list(iter_pym_files([p for p in paths if p.suffix not in (".yaml", ".yml")]))
    if not files and not agents:
        shown = ", ".join(str(p) for p in paths)
        raise UsageError(
            f"no .pym files or agent YAMLs under {shown}",
            "name .pym files, agent YAMLs or directories that contain them",
        )
    report: list[dict[str, Any]] = []
    problems = 0
    for path in files:
        findings = check_tool_script(path)
        problems += len(findings)
        report.append(
            {"file": str(path), "ok": not findings, "findings": [f.to_dict() for f in findings]}
        )
        if output_format is OutputFormat.table:
            for finding in findings:
                console.print(str(finding), markup=False)
    agent_report, agent_problems = check_agent_yamls(agents, output_format)
    report += agent_report
    problems += agent_problems
    if output_format is OutputFormat.json:
        print_json(report)
    else:
        bad = sum(1 for item in report if not item["ok"])
        agents_note = f", {len(agents)} agent(s)" if agents else ""
        err_console.print(
            f"{len(files)} script(s){agents_note} checked, {bad} with problems, "
            f"{problems} problem(s)"
        )
    if problems:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``agents`` group to the root app."""
    app.add_typer(agents_app, name="agents")
