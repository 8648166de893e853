"""``remora agents ...``: agents and their tool scripts.

The one home of the command. Plain ``remora agents`` lists the bundled and
user agents, validated, with their model's availability (``describe_agents``);
``check`` validates ``.pym`` tool scripts and agent YAMLs (files, or
directories searched recursively).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from remora.agents.definition import SubagentDefinition
from remora.agents.loader import AgentLoadError, load_agent
from remora.agents.registry import AGENT_FILENAME, AgentRegistry
from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import console, err_console, print_json
from remora.config import ModelConfig, RemoraConfig
from remora.errors import UsageError
from remora.profiles import resolve_profile
from remora.providers.base import Availability
from remora.providers.factory import check_availability

__all__ = ["agent_yaml_files", "agents_app", "describe_agents", "register"]

# ---------------------------------------------------------------- what the listing shows


async def _check_models(
    models: Iterable[tuple[str, ModelConfig]], profile_name: str | None
) -> dict[str, Availability]:
    distinct = dict(models)
    results = await asyncio.gather(
        *(check_availability(m, profile_name) for m in distinct.values())
    )
    return dict(zip(distinct, results, strict=True))


def _profile_name(explicit: str | None, model_id: str) -> str:
    try:
        return resolve_profile(explicit, model_id).name
    except ValueError as exc:  # an agent's model override may name an unknown profile
        return f"invalid ({exc})"


def _key(model: ModelConfig) -> str:
    return json.dumps(model.model_dump(mode="json"), sort_keys=True)


def describe_agents(
    config: RemoraConfig, project_root: Path, *, check_models: bool = True
) -> list[dict[str, Any]]:
    """One entry per agent (bundled and user), each validated; plain data for tables/JSON."""
    registry = AgentRegistry(config.agents_dir, project_root=project_root)
    profile_name = config.runner.model_profile
    rows: list[dict[str, Any]] = []
    models: list[tuple[str, ModelConfig]] = []
    for entry, outcome in zip(registry.entries(), registry.validate().values(), strict=True):
        definition = outcome if isinstance(outcome, SubagentDefinition) else None
        model = config.model_for(entry.name, definition.model if definition else None)
        models.append((_key(model), model))
        row: dict[str, Any] = {
            "name": entry.name,
            "origin": entry.origin,
            "overrides_bundled": entry.overrides,
            "path": str(entry.path),
            "valid": definition is not None,
            "problems": outcome.findings if isinstance(outcome, AgentLoadError) else [],
            "description": definition.description if definition else "",
            "node_types": list(definition.node_types) if definition else [],
            "tools": [t.name for t in definition.tools] if definition else [],
            "max_turns": definition.max_turns if definition else None,
            "model": {
                "provider": model.provider,
                "id": model.id,
                "profile": _profile_name(profile_name or model.profile, model.id),
            },
            "_model_key": _key(model),
        }
        rows.append(row)
    availability = asyncio.run(_check_models(models, profile_name)) if check_models else {}
    for row in rows:
        found = availability.get(row.pop("_model_key"))
        if found is not None:
            row["model"].update(available=found.ok, reason=found.reason, hint=found.hint)
    return rows


def agent_yaml_files(paths: Iterable[Path]) -> list[Path]:
    """Agent definitions named by ``paths``: YAML files as given, ``agent.yaml`` in directories."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.rglob(AGENT_FILENAME)))
        elif path.suffix in (".yaml", ".yml"):
            found.append(path)
    return found


# ---------------------------------------------------------------- printing


def list_agents(
    opts: SharedOptions, output_format: OutputFormat, *, check_models: bool = True
) -> int:
    """Print every agent, validated, with its model's availability; the exit code.

    1 when an agent is invalid or its model is unavailable, else 0.
    """
    loaded = opts.load()
    rows = describe_agents(loaded.config, loaded.project_root, check_models=check_models)
    if output_format is OutputFormat.json:
        print_json(rows)
    else:
        _print_table(rows)
    bad = [r for r in rows if not r["valid"] or r["model"].get("available") is False]
    return 1 if bad else 0


def _print_table(rows: list[dict[str, Any]]) -> None:
    table = Table(title="Agents", title_justify="left")
    for column in ("agent", "origin", "nodes", "tools", "model", "status"):
        table.add_column(column)
    for row in rows:
        origin = row["origin"] + (" (overrides bundled)" if row["overrides_bundled"] else "")
        model = row["model"]
        model_text = f"{model['provider']}:{model['id']} [{model['profile']}]"
        if model.get("available") is False:
            model_text += f"\n[red]unavailable[/]: {model['reason']}"
        status = "[green]ok[/]" if row["valid"] else f"[red]{len(row['problems'])} problem(s)[/]"
        table.add_row(
            row["name"],
            origin,
            ", ".join(row["node_types"]),
            ", ".join(row["tools"]),
            model_text,
            status,
        )
    console.print(table)
    for row in rows:
        for finding in row["problems"]:
            line = f":{finding['line']}" if finding["line"] else ""
            err_console.print(f"{finding['file']}{line}: {finding['message']}", markup=False)
        model = row["model"]
        if model.get("available") is False:
            hint = f" ({model['hint']})" if model.get("hint") else ""
            err_console.print(
                f"{row['name']}: model {model['provider']}:{model['id']} "
                f"unavailable: {model['reason']}{hint}",
                markup=False,
            )


def check_agent_yamls(
    paths: list[Path], output_format: OutputFormat
) -> tuple[list[dict[str, Any]], int]:
    """Validate agent YAMLs (and their scripts); the report entries and problem count.

    In table format each problem is printed as ``file:line: field: message``.
    """
    report: list[dict[str, Any]] = []
    problems = 0
    for path in paths:
        try:
            load_agent(path)
            findings: list[dict[str, Any]] = []
        except AgentLoadError as exc:
            findings = exc.findings
            if output_format is OutputFormat.table:
                for text in exc.problems:
                    console.print(text, markup=False)
        problems += len(findings)
        report.append(
            {"file": str(path), "kind": "agent", "ok": not findings, "findings": findings}
        )
    return report, problems


# ---------------------------------------------------------------- the commands


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
