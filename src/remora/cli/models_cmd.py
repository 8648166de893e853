"""``remora models``: the catalogue of models Remora fetches by name (what is cached,
which is the default), providers, configured models and their availability, local
model files; ``models pull`` fetches a model, ``models serve`` shares one over HTTP."""

from __future__ import annotations

import asyncio
import importlib.util
import signal
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from remora.cli.fetch_progress import console_progress
from remora.cli.options import FormatOpt, OutputFormat, SharedOptions, shared_options
from remora.cli.output import console, err_console, print_json
from remora.config import ModelConfig, RemoraConfig
from remora.coordinator.concurrency import agents_at_once
from remora.coordinator.server_states import read_server_states
from remora.errors import ModelUnavailableError
from remora.profiles import resolve_profile
from remora.providers.factory import PROVIDER_CLASSES, check_availability
from remora.providers.model_files import PULL_FORCE_HINT, cache_entry
from remora.providers.model_store import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    cache_dir,
    fetch_model,
    list_local_models,
    lookup,
    resolve_model_path,
    unknown_model,
)

__all__ = ["describe_models", "register"]

# The module each provider needs, so the listing can say what is installed
# without importing heavy SDKs.
_PROVIDER_SDK = {
    "embedded": "xllamacpp",
    "openai": "aiohttp",  # its own HTTP client (providers/openai_http.py)
    "llm": "llm",
    "gemini": "google.genai",
    "scripted": None,
}


def _sdk_installed(module: str | None) -> bool:
    if module is None:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def _configured_models(config: RemoraConfig) -> list[tuple[str, ModelConfig]]:
    """The default model and each operation's distinct one (an override, or its own
    embedded model)."""
    models = [("default", config.model)]
    for name in config.operations:
        if (model := config.model_for(name)) != config.model:
            models.append((f"operation {name}", model))
    return models


async def _server_states(
    model: ModelConfig, profile_name: str | None, last: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Each server of an openai model: checked now, with the last run's figures beside it
    (``.remora/servers.json``, written while a command runs)."""
    from remora.providers.openai_compat import OpenAIProvider

    provider = OpenAIProvider.from_config(model, resolve_profile(profile_name, model.id))
    in_run = {(row.get("model"), row.get("url")): row for row in (last or {}).get("servers", [])}
    rows = []
    try:
        for server in provider.router.servers:
            availability = await provider.check_server(server)
            run = in_run.get((model.id, server.url), {})
            rows.append(
                {
                    "url": server.url,
                    "state": "in rotation" if availability.ok else "out of rotation",
                    "reason": availability.reason,
                    "max_in_flight": model.max_in_flight,
                    "last_run": {
                        key: run[key]
                        for key in ("state", "in_flight", "served", "failed", "throttled", "limit")
                        if key in run
                    }
                    | ({"running": bool(last.get("running"))} if run and last else {}),
                }
            )
    finally:
        await provider.aclose()
    return rows


def describe_models(config: RemoraConfig, project_root: Path | None = None) -> dict[str, Any]:
    """Everything ``remora models`` shows, as plain data."""
    configured = []
    directory = cache_dir()
    last = read_server_states(project_root) if project_root is not None else None
    for where, model in _configured_models(config):
        profile_name = config.runner.model_profile or model.profile
        availability = asyncio.run(check_availability(model, profile_name))
        servers: list[dict[str, Any]] = []
        if model.provider == "openai" and _sdk_installed(_PROVIDER_SDK["openai"]):
            servers = asyncio.run(_server_states(model, profile_name, last))
        configured.append(
            {
                "use": where,
                "provider": model.provider,
                "id": model.id,
                "path": str(model.path) if model.path else None,
                "base_url": model.base_url,
                "profile": resolve_profile(profile_name, model.id).name,
                "available": availability.ok,
                "reason": availability.reason,
                "hint": availability.hint,
                # -j when not given: 1.5 × what this model's servers take (see agents_at_once).
                "agents_at_once": agents_at_once(config, [model]),
                "servers": servers,
            }
        )
    return {
        "providers": [
            {
                "name": name,
                "sdk": _PROVIDER_SDK.get(name),
                "installed": _sdk_installed(_PROVIDER_SDK.get(name)),
            }
            for name in PROVIDER_CLASSES
        ],
        "configured": configured,
        "cache_dir": str(cache_dir()),
        "local_files": [
            {"name": m.name, "path": str(m.path), "size_mb": round(m.size_bytes / 1e6, 1)}
            for m in list_local_models()
        ],
        "catalogue": [
            {
                "name": k.name,
                "default": k.name == DEFAULT_MODEL,
                "title": k.title,
                "size_mb": round(k.size_bytes / 1e6, 1),
                "license": k.license,
                "source": k.source,
                "origin": k.origin,
                "sha256": k.sha256,
                "aliases": list(k.aliases),
                "cached": entry.verified,
                # Why a file in the cache is not used (damaged, cut, a link); None when fine.
                "problem": entry.problem,
            }
            for k in KNOWN_MODELS.values()
            for entry in [cache_entry(k, directory)]
        ],
    }


def _catalogue_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(
        title="Model catalogue (remora models pull NAME)",
        title_justify="left",
        caption="* the default model (model.id / --model picks another)",
        caption_justify="left",
    )
    table.add_column("name", no_wrap=True)
    table.add_column("size MB", justify="right")
    table.add_column("licence")
    table.add_column("cached")
    table.add_column("source", overflow="fold")
    for row in rows:
        table.add_row(
            row["name"] + (" *" if row["default"] else ""),
            f"{row['size_mb']:.0f}",
            row["license"],
            "[green]yes[/]" if row["cached"] else "[red]damaged[/]" if row["problem"] else "no",
            row["source"],
        )
    return table


def _print_tables(data: dict[str, Any]) -> None:
    console.print(_catalogue_table(data["catalogue"]))
    for row in data["catalogue"]:
        if row["problem"]:
            console.print(f"{row['name']}: {row['problem']}", markup=False)
            console.print(f"  hint: {PULL_FORCE_HINT}", markup=False)
    table = Table(title="Configured models", title_justify="left")
    for column in ("use", "provider", "model", "profile", "available"):
        table.add_column(column)
    notes: list[str] = []
    for row in data["configured"]:
        label = row["path"] or row["id"]
        table.add_row(
            row["use"],
            row["provider"],
            label,
            row["profile"],
            "[green]yes[/]" if row["available"] else "[red]no[/]",
        )
        if row["reason"]:
            notes.append(f"{row['use']}: {row['reason']}")
        if row["hint"]:
            notes.append(f"  hint: {row['hint']}")
    console.print(table)
    for note in notes:
        console.print(note, markup=False)
    servers = _servers_table(data["configured"])
    if servers is not None:
        console.print(servers)
    providers = Table(title="Providers", title_justify="left")
    providers.add_column("provider")
    providers.add_column("needs")
    providers.add_column("installed")
    for row in data["providers"]:
        providers.add_row(row["name"], row["sdk"] or "-", "yes" if row["installed"] else "no")
    console.print(providers)
    files = Table(title=f"Local model files ({data['cache_dir']})", title_justify="left")
    files.add_column("name")
    files.add_column("size MB", justify="right")
    files.add_column("path", overflow="fold")
    for row in data["local_files"]:
        files.add_row(row["name"], f"{row['size_mb']:.1f}", row["path"])
    if not data["local_files"]:
        files.add_row("(none)", "", "run `remora models pull` to fetch the default model")
    console.print(files)


def _servers_table(configured: list[dict[str, Any]]) -> Table | None:
    rows = [(row, server) for row in configured for server in row["servers"]]
    if not rows:
        return None
    table = Table(
        title="Model servers (requests go to the one with the fewest in flight)",
        title_justify="left",
        caption="last run: from .remora/servers.json, rewritten every second while a command runs",
        caption_justify="left",
    )
    for column in ("use", "server", "now", "max in flight", "-j default", "last run"):
        table.add_column(column, overflow="fold")
    for row, server in rows:
        run = server["last_run"]
        figures = (
            f"{run['state']}{' (running)' if run.get('running') else ''}: "
            f"{run['in_flight']} in flight, {run['served']} served, {run['failed']} failed, "
            f"{run['throttled']} busy answers, limit {run['limit']}"
            if run
            else "-"
        )
        now = server["state"] + (f" ({server['reason']})" if server["reason"] else "")
        table.add_row(
            row["use"],
            server["url"],
            now,
            str(server["max_in_flight"]),
            str(row["agents_at_once"]),
            figures,
        )
    return table


def _serve(model_path: Path, name: str, port: int, model: ModelConfig) -> None:
    from remora.providers.llama_server import LocalServer

    try:
        server = LocalServer(
            model_path,
            model_name=name,
            port=port,
            n_parallel=model.n_parallel,
            n_ctx_per_slot=model.n_ctx_per_slot,
            threads=model.threads,
        )
    except ModelUnavailableError as exc:
        raise ModelUnavailableError(
            exc.message,
            f"is port {port} already in use? choose another with --port",
        ) from exc
    console.print(
        f"serving {name} at [bold]{server.base_url}[/] ({model.n_parallel} slots); Ctrl-C to stop"
    )
    console.print(
        "use it from remora.yaml:\n"
        f"  model:\n    provider: openai\n    id: {name}\n"
        f"    base_url: {server.base_url}",
        markup=False,
    )
    # llama.cpp installs its own SIGTERM handler that keeps the process alive;
    # make SIGTERM stop the server like Ctrl-C does.
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        err_console.print("stopping the server")
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def register(app: typer.Typer) -> None:
    models_app = typer.Typer(
        help="Model backends and local model files.", invoke_without_command=True
    )
    app.add_typer(models_app, name="models")

    @models_app.callback(invoke_without_command=True)
    @shared_options
    def models_command(
        ctx: typer.Context, opts: SharedOptions, output_format: FormatOpt = OutputFormat.table
    ) -> None:
        """List providers, the configured models (with profile and availability), and
        local model files."""
        if ctx.invoked_subcommand is not None:
            return
        loaded = opts.load()
        data = describe_models(loaded.config, loaded.project_root)
        if output_format is OutputFormat.json:
            print_json(data)
        else:
            _print_tables(data)

    @models_app.command("pull")
    def pull_command(
        name: Annotated[
            str, typer.Argument(help="Catalogue model to fetch (`remora models` lists them).")
        ] = DEFAULT_MODEL,
        force: Annotated[bool, typer.Option("--force", help="Fetch again even if cached.")] = False,
        output_format: FormatOpt = OutputFormat.table,
    ) -> None:
        """Fetch a catalogue model into the local cache (sha256-verified) for offline use."""
        known = lookup(name)
        if known is None:
            raise unknown_model(name)
        with console_progress() as progress:
            path = fetch_model(known.name, force=force, progress=progress)
        if output_format is OutputFormat.json:
            print_json({"name": known.name, "path": str(path), "size_bytes": path.lstat().st_size})
        else:
            console.print(f"{known.name}: {path}")

    @models_app.command("serve")
    @shared_options
    def serve_command(
        opts: SharedOptions,
        port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (0: any free)")] = 8080,
    ) -> None:
        """Serve the embedded model over an OpenAI-compatible HTTP API on 127.0.0.1.

        --model takes a catalogue name (default qwen2.5-coder-0.5b) or a .gguf path;
        --model-path any GGUF file.
        """
        model = opts.load().config.model
        known = lookup(model.id) if model.path is None else None
        if model.provider != "embedded" and model.path is None and known is None:
            model = model.model_copy(update={"id": DEFAULT_MODEL})
            known = lookup(DEFAULT_MODEL)
        with console_progress() as progress:
            path = resolve_model_path(model, progress=progress)
        name = known.name if known is not None else path.stem
        _serve(path, name, port, model)
