"""``remora agents`` (the listing) and the agent-YAML half of ``remora agents check``.

Kept apart from ``agents_cmd.py`` so the command module stays a thin table of
subcommands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table

from remora.cli.options import OutputFormat, SharedOptions
from remora.cli.output import console, err_console, print_json

__all__ = ["check_agent_yamls", "list_agents"]


def list_agents(
    opts: SharedOptions, output_format: OutputFormat, *, check_models: bool = True
) -> int:
    """Print every agent, validated, with its model's availability; the exit code.

    1 when an agent is invalid or its model is unavailable, else 0.
    """
    from remora.agents.report import describe_agents

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
    from remora.agents import AgentLoadError, load_agent

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
