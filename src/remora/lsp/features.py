"""Document features: diagnostics on open, edit and save; hover; code actions; run on save."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from watchfiles import Change

from remora.coordinator import WatchFilter, examine_changes, parse_operations
from remora.discovery import CSTNode, load_query_pack, parse_source
from remora.errors import RemoraError
from remora.git import on_a_branch
from remora.lsp.actions import code_actions
from remora.lsp.agent_runs import run_agents
from remora.lsp.branch_changes import ChangedRequest, run_changed
from remora.lsp.hover import hover_markdown
from remora.lsp.open_projects import Project
from remora.lsp.server import NotPython, RemoraLanguageServer
from remora.lsp.textmap import PositionError

__all__ = ["as_lsp_errors", "operations_for", "register_features"]

R = TypeVar("R")


def as_lsp_errors(
    handler: Callable[..., Awaitable[R]],
) -> Callable[..., Awaitable[R]]:
    """Bad input from the client becomes an InvalidParams error that says what was wrong."""

    @functools.wraps(handler)
    async def wrapper(*args: Any) -> R:
        try:
            return await handler(*args)
        except RemoraError as exc:
            hint = f" (hint: {exc.hint})" if exc.hint else ""
            raise JsonRpcInvalidParams(message=f"{exc.message}{hint}") from exc
        except (PositionError, NotPython) as exc:
            raise JsonRpcInvalidParams(message=str(exc)) from exc

    return wrapper


def operations_for(project: Project, node: CSTNode) -> list[str]:
    """The configured operations whose agent works on this kind of node (none on a bad config).

    Disabled ones too: "run X now" is the user asking, as `remora analyze -o X` is.
    """
    try:
        loaded = project.config()
        from remora.agents import AgentRegistry

        registry = AgentRegistry(loaded.config.agents_dir, project_root=project.root)
        names = parse_operations(list(loaded.config.operations), loaded.config, registry)
        return [name for name in names if node.node_type in registry.get(name).node_types]
    except RemoraError:
        return []


def _seed_index(ls: RemoraLanguageServer, project: Project, rel: str, source: bytes) -> None:
    """Remember the file's nodes as saved, so a save re-runs only the nodes it changed."""
    try:
        config = project.config().config
    except RemoraError as exc:
        ls.tell(f"remora: {exc.message} ({exc.hint})", types.MessageType.Warning)
        return
    if not config.lsp.run_on_save or rel in project.index.files:
        return
    discovery = config.discovery
    pack = load_query_pack(discovery.language, discovery.query_pack, discovery.query_dir)
    nodes, _warnings = parse_source(source, rel, pack=pack)
    project.index.apply(rel, nodes)


def _seed_from_disk(ls: RemoraLanguageServer, uri: str) -> None:
    try:
        project, rel, path = ls.locate(uri)
    except (NotPython, RemoraError):  # a damaged remora.db: the publish says so
        return
    if path.is_file():
        _seed_index(ls, project, rel, path.read_bytes())


async def _run_on_save(ls: RemoraLanguageServer, project: Project, path_text: str) -> None:
    loaded = project.config()
    config = loaded.config
    if not config.lsp.run_on_save:
        return
    from remora.agents import AgentRegistry

    registry = AgentRegistry(config.agents_dir, project_root=project.root)
    operations = parse_operations(config.lsp.run_on_save, config, registry)
    batch = examine_changes(
        [(Change.modified, path_text)], project.index, WatchFilter(project.root, config), config
    )
    for skip in batch.skipped:
        ls.tell(f"remora: skipped {skip} (save again once it parses)", types.MessageType.Warning)
    if not batch.nodes:
        return
    if ls.run_lock.locked():
        ls.tell("remora: a run is going; this save's nodes run after it")
    async with ls.run_lock:
        names = ", ".join(sorted({n.full_name for n in batch.nodes}))
        report = await run_agents(
            ls, project, batch.nodes, operations, f"remora {', '.join(operations)}: {names}"
        )
    ls.reload(project)
    if report is not None:
        counts = report.counts()
        ls.tell(f"remora: {names}: {counts['changed']} change(s) to review")


def register_features(server: RemoraLanguageServer, changed: ChangedRequest | None = None) -> None:
    """The document features; with ``changed`` (lsp --changed) the branch's nodes run at start."""

    @server.feature(types.INITIALIZE)
    def initialize(ls: RemoraLanguageServer, params: types.InitializeParams) -> None:
        ls.set_folders(params)

    @server.feature(types.INITIALIZED)
    def initialized(ls: RemoraLanguageServer, params: types.InitializedParams) -> None:
        ls.start_polling()
        if changed is not None:
            ls.in_background(run_changed(ls, changed), "the run of the changed nodes")

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: RemoraLanguageServer, params: None) -> None:
        await ls.stop_polling()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RemoraLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        # The file as saved is read before the diagnostics go out: a client that saves as
        # soon as it sees them (a test does) must not have its save taken for the seed.
        _seed_from_disk(ls, uri)
        ls.publish(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RemoraLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RemoraLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.publish(uri)
        try:
            project, _rel, path = ls.locate(uri)
        except (NotPython, RemoraError):  # a damaged remora.db: publish has said so
            return
        try:
            await _run_on_save(ls, project, str(path))
        except RemoraError as exc:
            ls.tell(f"remora: {exc.message} ({exc.hint})", types.MessageType.Error)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RemoraLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in ls.on_disk:  # a changed file (lsp --changed): shown as saved, open or not
            ls.publish(uri)
            return
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @as_lsp_errors
    async def hover(ls: RemoraLanguageServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.view(params.text_document.uri)
        if found is None:
            return None
        _project, view = found
        view.buffer.check(params.position, "hover")
        marks = view.marks_at(params.position.line, params.position.line)
        if not marks:
            return None
        content = types.MarkupContent(types.MarkupKind.Markdown, hover_markdown(marks))
        return types.Hover(contents=content)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.Refactor]
        ),
    )
    @as_lsp_errors
    async def code_action(
        ls: RemoraLanguageServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        uri = params.text_document.uri
        found = ls.view(uri)
        if found is None:
            return []
        project, view = found
        view.buffer.check(params.range.start, "codeAction range start")
        view.buffer.check(params.range.end, "codeAction range end")
        return code_actions(
            view,
            uri,
            params.range.start.line,
            params.range.end.line,
            functools.partial(operations_for, project),
            commits=on_a_branch(project.root),
        )
