"""``remora config``: the resolved configuration and where each value came from."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer
import yaml

from remora.cli.options import SharedOptions, shared_options
from remora.cli.output import console, print_json
from remora.config import LoadedConfig


def _leaves(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict) and data:
        out: list[tuple[str, Any]] = []
        for key, value in data.items():
            out.extend(_leaves(value, f"{prefix}{key}."))
        return out
    return [(prefix.rstrip("."), data)]


def describe(loaded: LoadedConfig) -> dict[str, Any]:
    values = loaded.config.model_dump(mode="json")
    return {
        "file": str(loaded.file) if loaded.file else None,
        "project_root": str(loaded.project_root),
        "values": values,
        "sources": {key: loaded.source_of(key) for key, _ in _leaves(values)},
    }


class ConfigFormat(StrEnum):
    yaml = "yaml"
    json = "json"


ConfigFormatOpt = Annotated[
    ConfigFormat,
    typer.Option(
        "--format", "-f", help="yaml (annotated with sources) or json.", case_sensitive=False
    ),
]


def register(app: typer.Typer) -> None:
    @app.command("config")
    @shared_options
    def config_command(
        opts: SharedOptions,
        output_format: ConfigFormatOpt = ConfigFormat.yaml,
    ) -> None:
        """Print the resolved configuration and where each value came from."""
        loaded = opts.load()
        described = describe(loaded)
        if output_format is ConfigFormat.json:
            print_json(described)
            return
        console.print(f"# config file: {described['file'] or '(none)'}")
        console.print(f"# project root: {described['project_root']}")
        text = yaml.safe_dump(described["values"], sort_keys=False)
        width = max(len(line) for line in text.splitlines())
        sources = described["sources"]
        path: list[tuple[int, str]] = []
        for line in text.splitlines():
            indent = len(line) - len(line.lstrip())
            key = line.strip().split(":", 1)[0]
            while path and path[-1][0] >= indent:
                path.pop()
            if line.strip().startswith("- "):
                console.print(line)
                continue
            path.append((indent, key))
            dotted = ".".join(k for _, k in path)
            origin = sources.get(dotted)
            suffix = f"  # {origin}" if origin is not None and not line.endswith(":") else ""
            console.print(f"{line.ljust(width)}{suffix}" if suffix else line, markup=False)
