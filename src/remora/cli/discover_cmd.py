"""``remora discover``: the nodes Remora would work on, without running anything."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from remora.cli.changed_opts import BaseOpt, ChangedOpt, StagedOpt, print_picked, wants_changed
from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import err_console, print_json, print_table
from remora.discovery import NODE_TYPES, DiscoveryResult, NodeType, discover
from remora.discovery.changed_nodes import discover_changed
from remora.events import build_emitter

__all__ = ["parse_types", "register"]


def parse_types(value: str | None) -> list[NodeType] | None:
    """``"function,method"`` -> ["function", "method"]; unknown names are a usage error."""
    if not value:
        return None
    chosen: list[NodeType] = []
    for raw in value.split(","):
        name = raw.strip().lower()
        if not name:
            continue
        match = next((t for t in NODE_TYPES if t == name), None)
        if match is None:
            raise typer.BadParameter(
                f"unknown node type {name!r}; use any of {', '.join(NODE_TYPES)}",
                param_hint="--type",
            )
        chosen.append(match)
    return chosen or None


def _print_table(result: DiscoveryResult) -> None:
    table = Table(box=None, pad_edge=False, show_edge=False)
    # Names and locations are ids (`remora tool run --node FILE::QUALNAME`): never wrapped.
    table.add_column("type", no_wrap=True)
    table.add_column("full_name", no_wrap=True)
    table.add_column("location", no_wrap=True)
    for node in result.nodes:
        table.add_row(
            node.node_type, node.full_name, f"{node.file_path}:{node.start_line}-{node.end_line}"
        )
    print_table(table)


def register(app: typer.Typer) -> None:
    @app.command("discover")
    @shared_options
    def discover_command(
        opts: SharedOptions,
        paths: Annotated[
            list[Path] | None,
            typer.Argument(
                help="Files and directories to scan (default: the current directory).",
                show_default=False,
                metavar="PATHS",
            ),
        ] = None,
        node_type: Annotated[
            str | None,
            typer.Option(
                "--type",
                "-t",
                help="Only these node types, comma-separated: file,class,function,method.",
            ),
        ] = None,
        output_format: FormatOpt = OutputFormat.table,
        with_text: Annotated[
            bool, typer.Option("--with-text", help="Include each node's source text in the JSON.")
        ] = False,
        workers: Annotated[
            int | None,
            typer.Option(
                "--workers",
                min=1,
                help="Parse processes (default: discovery.workers, else the CPU count).",
            ),
        ] = None,
        changed: ChangedOpt = False,
        base: BaseOpt = None,
        staged: StagedOpt = False,
    ) -> None:
        """List the files, classes, functions and methods under PATHS (--changed: git's)."""
        targets = list(paths) if paths else [Path.cwd()]
        types = parse_types(node_type)
        loaded = opts.load(targets)
        config = loaded.config.discovery
        if workers is not None:
            config = config.model_copy(update={"workers": workers})
        events = loaded.config.events
        output = events.output
        if output != "-" and not Path(output).is_absolute():
            output = str(loaded.project_root / output)
        emitter = build_emitter(events.enabled, output, events.max_payload_chars)
        try:
            if wants_changed(changed, base, staged):
                found = discover_changed(
                    targets,
                    project_root=loaded.project_root,
                    config=config,
                    base=base,
                    staged=staged,
                    node_types=types,
                    emitter=emitter,
                )
                print_picked(found, err_console, each=False)
                result = found.result
            else:
                result = discover(
                    targets,
                    project_root=loaded.project_root,
                    config=config,
                    node_types=types,
                    emitter=emitter,
                )
        finally:
            emitter.close()
        for warning in result.warnings:
            err_console.print(f"warning: {warning}", markup=False)
        if output_format is OutputFormat.json:
            print_json([node.to_dict(with_text=with_text) for node in result.nodes])
            return
        _print_table(result)
        skipped = f", {result.skipped} skipped" if result.skipped else ""
        err_console.print(
            f"{len(result.nodes)} nodes in {result.files} files{skipped}", markup=False
        )
