"""``remora tool run PATH.pym``: run one tool script in the sandbox, print its envelope.

Tool authors use it to try their scripts against a project: the script runs
against a workspace (a fresh one unless ``--workspace`` names one), so the
project itself is never written. Exit code 0 for an ``ok`` envelope, 1 for an
error envelope.
"""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from remora.cli.options import SharedOptions, shared_options
from remora.cli.output import err_console, print_json
from remora.errors import DiscoveryPathError, UsageError

if TYPE_CHECKING:
    from remora.config import RemoraConfig
    from remora.discovery import CSTNode
    from remora.sandbox import PymScript
    from remora.workspace import Workspace

__all__ = ["parse_args", "register", "resolve_node", "tool_app"]

tool_app = typer.Typer(
    name="tool", help="Run .pym tool scripts in the sandbox.", no_args_is_help=True
)


def parse_args(text: str) -> dict[str, Any]:
    """``--args`` as a JSON object, or a USAGE error saying what is wrong."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"--args is not valid JSON: {exc.msg} at column {exc.colno}",
            'pass a JSON object, e.g. --args \'{"path": "src/a.py"}\'',
        ) from None
    if not isinstance(value, dict):
        raise UsageError(
            f"--args must be a JSON object, got {type(value).__name__}",
            'pass a JSON object, e.g. --args \'{"path": "src/a.py"}\'',
        )
    return value


def resolve_node(spec: str, project_root: Path, config: RemoraConfig) -> CSTNode:
    """``FILE::QUALNAME`` (or ``FILE`` for the file node) through discovery."""
    from remora.discovery import discover

    file_part, _, qualname = spec.partition("::")
    # realpath, not resolve(): a symlink loop must become the message below, not a RuntimeError
    target = Path(os.path.realpath(project_root / file_part))
    if not target.is_relative_to(project_root.resolve()):
        raise DiscoveryPathError(
            f"--node: {file_part!r} leads outside the project {project_root}",
            "give a file inside the project",
        )
    if not target.is_file():
        raise DiscoveryPathError(
            f"--node: no file {file_part!r} under {project_root}",
            "give FILE relative to the project root",
        )
    nodes = discover([target], project_root=project_root, config=config.discovery).nodes
    rel = target.relative_to(project_root.resolve()).as_posix()
    in_file = [n for n in nodes if n.file_path == rel]
    for node in in_file:
        if (qualname and node.full_name == qualname) or (not qualname and node.node_type == "file"):
            return node
    known = ", ".join(sorted(n.full_name for n in in_file if n.node_type != "file")[:20])
    raise DiscoveryPathError(
        f"--node: no {qualname or 'file node'!r} in {rel}",
        f"names in that file: {known or 'none'}",
    )


def _running_as_remora() -> bool:
    """True in the `remora` console process, False when embedded (tests, other tools)."""
    main_file = str(getattr(sys.modules.get("__main__"), "__file__", "") or "")
    return Path(main_file).name == "remora" or main_file.endswith(
        ("remora/__main__.py", "remora/cli/__main__.py")
    )


def _workspace_id(script: PymScript) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", script.name)[:60] or "script"
    return f"{stem}-{uuid.uuid4().hex[:10]}"


async def _run(
    script: PymScript,
    args: dict[str, Any],
    ws: Workspace,
    node: CSTNode | None,
    config: RemoraConfig,
) -> tuple[dict[str, Any], bool]:
    from remora.code import MODULE_NAME, CodeContext, build_module
    from remora.events import build_emitter
    from remora.sandbox import SandboxRuntime, build_externals

    events = config.events
    emitter = build_emitter(events.enabled, events.output, events.max_payload_chars)
    try:
        externals = build_externals(ws, node, config.sandbox, emitter=emitter)
        modules = {MODULE_NAME: build_module(CodeContext(ws, node, config.sandbox))}
        async with SandboxRuntime(config.sandbox) as runtime:
            # --sandbox-limits already chose config.sandbox.limits: the runtime's default.
            envelope = await runtime.run(script, args, externals, modules=modules)
        return envelope, runtime.faulted
    finally:
        emitter.close()


@tool_app.command("run")
@shared_options
def run_command(
    script_path: Annotated[Path, typer.Argument(metavar="PATH.pym", help="The tool script.")],
    args: Annotated[str, typer.Option("--args", help="Inputs as a JSON object.")] = "{}",
    node: Annotated[
        str | None,
        typer.Option("--node", help="Bind a node: FILE::QUALNAME (or FILE for the file node)."),
    ] = None,
    workspace: Annotated[
        str | None,
        typer.Option("--workspace", help="Run against this workspace (default: a fresh one)."),
    ] = None,
    *,
    opts: SharedOptions,
) -> None:
    """Run one tool script in the sandbox and print its result envelope as JSON."""
    from remora.code import load_tool_script
    from remora.coordinator.main_loop import run_main
    from remora.workspace import WorkspaceStore

    inputs = parse_args(args)
    loaded = opts.load(None)
    config, root = loaded.config, loaded.project_root
    script = load_tool_script(script_path)
    bound = resolve_node(node, root, config) if node else None
    store = WorkspaceStore(root)
    fresh = workspace is None
    ws = store.create("tool", _workspace_id(script)) if workspace is None else store.open(workspace)
    try:
        envelope, faulted = run_main(_run(script, inputs, ws, bound, config))
        changed = ws.changed_files()
    finally:
        ws.close()
    if fresh and not changed:
        store.reject(ws.id)
    elif changed:
        err_console.print(
            f"workspace {ws.id}: {len(changed)} changed file(s); "
            f"pass --workspace {ws.id} to run on top of them",
            markup=False,
        )
    print_json(envelope)
    code = 0 if envelope.get("ok") else 1
    if faulted and _running_as_remora():
        # A time limit or a killed worker leaves Monty's runtime threads able to
        # abort the interpreter's shutdown (exit 134; docs/architecture.md). The runtime
        # waits for them after closing its pool; as the `remora` process we can
        # also skip the shutdown entirely: the answer is printed, end here.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add the ``tool`` group to the root app."""
    app.add_typer(tool_app, name="tool")
