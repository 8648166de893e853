"""The language server: documents, projects and the client's capabilities in one place.

Features (features.py) and commands (commands.py) are registered on it by
:func:`create_server`. Everything runs on pygls's asyncio loop; the queue is
re-read when the project's ``.remora/`` changes (any process: analyze, watch,
review, the web page, this server), polled a few times a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from remora.errors import RemoraError
from remora.lsp.editing import EditCapabilities, OpenText
from remora.lsp.open_projects import Project, ProjectSet
from remora.lsp.protocol import RemoraProtocol
from remora.lsp.view import DocumentView
from remora.version import __version__

__all__ = ["NotPython", "RemoraLanguageServer"]

logger = logging.getLogger(__name__)
POLL_SECONDS = 0.25
_ERROR = types.MessageType.Error
_LEVELS = {
    types.MessageType.Error: logging.ERROR,
    types.MessageType.Warning: logging.WARNING,
    types.MessageType.Info: logging.INFO,
    types.MessageType.Log: logging.DEBUG,
    types.MessageType.Debug: logging.DEBUG,
}


class NotPython(ValueError):
    """A document Remora has nothing for (not a Python file, or not a file)."""


class RemoraLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "remora",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=RemoraProtocol,
        )
        self.projects = ProjectSet()
        self.run_lock = asyncio.Lock()
        self._poller: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._told: set[str] = set()
        # Files whose diagnostics are published from the disk while not open (lsp --changed).
        self.on_disk: set[str] = set()

    # -- documents and projects ------------------------------------------------

    @property
    def encoding(self) -> str:
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return encoding.value if isinstance(encoding, types.PositionEncodingKind) else encoding

    def set_folders(self, params: types.InitializeParams) -> None:
        folders = [f.uri for f in params.workspace_folders or ()]
        if not folders and params.root_uri:
            folders = [params.root_uri]
        elif not folders and params.root_path:
            folders = [Path(params.root_path).as_uri()]
        paths = [to_fs_path(uri) for uri in folders]
        self.projects.folders = [Path(p).resolve() for p in paths if p]

    def locate(self, uri: str) -> tuple[Project, str, Path]:
        """The project, relative path and path of a Python document; NotPython otherwise."""
        fs_path = to_fs_path(uri) if uri.startswith("file:") else None
        if fs_path is None:
            raise NotPython(f"{uri} is not a file on disk: Remora reviews the project's files")
        path = Path(fs_path)
        if path.suffix != ".py":
            raise NotPython(f"{path.name} is not a Python file: Remora's agents work on .py files")
        project = self.projects.for_path(path)
        rel = project.rel(path)
        if rel is None:
            raise NotPython(f"{path} is outside the project {project.root}")
        return project, rel, path

    def view(self, uri: str, *, from_disk: bool = False) -> tuple[Project, DocumentView] | None:
        """The open document's view; None for a document Remora has nothing for, or one the
        client never opened (its text is the buffer's, which the server does not have) unless
        ``from_disk``: then the file as saved stands for it."""
        document = self.workspace.text_documents.get(uri)
        if document is None and not from_disk:
            return None
        try:
            project, rel, path = self.locate(uri)
        except NotPython:
            return None
        if document is not None:
            text = document.source
        else:
            try:
                text = path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):  # gone or not text since: nothing to show
                return None
        return project, DocumentView.build(project.queue, rel, text, self.encoding)

    def open_text(self, project: Project) -> OpenText:
        """rel path -> (buffer text, version) for the project's open documents."""
        opened: dict[str, tuple[str, int]] = {}
        for uri, document in self.workspace.text_documents.items():
            try:
                owner, rel, _path = self.locate(uri)
            except NotPython:
                continue
            if owner is project and document.version is not None:
                opened[rel] = (document.source, document.version)
        return opened.get

    def publish(self, uri: str) -> None:
        document = self.workspace.text_documents.get(uri)
        try:
            found = self.view(uri, from_disk=uri in self.on_disk)
        except RemoraError as exc:  # a damaged remora.db (results/health.py): said once
            found = None
            self.tell_once(f"remora: {exc.message} (hint: {exc.hint})", types.MessageType.Error)
        diagnostics = found[1].diagnostics() if found is not None else []
        version = document.version if document is not None else None
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def republish(self, project: Project | None = None) -> None:
        for uri in dict.fromkeys([*self.workspace.text_documents, *sorted(self.on_disk)]):
            found = self.view(uri, from_disk=uri in self.on_disk)
            if found is not None and (project is None or found[0] is project):
                self.publish(uri)

    def reload(self, project: Project) -> None:
        """Read the queue again (after a decision here) and update every open document."""
        project.stamp = project.state_stamp()
        project.queue.refresh()
        self.republish(project)

    # -- the queue changing under us ----------------------------------------------

    def start_polling(self) -> None:
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def warm(self) -> None:
        """Read the workspace folders' open changes ahead of the first didOpen, one at a time."""
        for project in self.projects.all():
            for workspace_id in list(project.queue.records):
                project.queue.get(workspace_id)
                await asyncio.sleep(0)  # a didOpen waiting to be handled goes first

    async def _poll(self) -> None:
        try:
            await self.warm()
        except Exception:  # a workspace being written: it is read again when a file needs it
            logger.exception("reading the review queue ahead")
        while True:
            await asyncio.sleep(POLL_SECONDS)
            for project in list(self.projects.projects.values()):
                stamp = project.state_stamp()
                if stamp == project.stamp:
                    continue
                try:
                    self.reload(project)
                except Exception:  # a half-written database: the next poll tries again
                    logger.exception("re-reading the review queue of %s", project.root)

    async def stop_polling(self) -> None:
        """Stop the poller and any background work (a --changed run) before the exit."""
        poller, self._poller = self._poller, None
        tasks = [poller] if poller is not None else []
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def in_background(self, work: Coroutine[object, object, None], what: str) -> None:
        """Run ``work`` on the loop; a failure that escapes it is logged and told, not lost."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)

        def done(task: asyncio.Task[None]) -> None:
            self._background.discard(task)
            if not task.cancelled() and task.exception() is not None:
                logger.error("%s failed", what, exc_info=task.exception())
                self.tell(f"remora: {what} failed; the server's log has why", _ERROR)

        task.add_done_callback(done)

    # -- client capabilities and progress (runs.ProgressClient) ---------------------

    @property
    def edit_capabilities(self) -> EditCapabilities:
        return EditCapabilities.of(self.client_capabilities)

    def supports_show_document(self) -> bool:
        window = self.client_capabilities.window
        return bool(window and window.show_document and window.show_document.support)

    def supports_progress(self) -> bool:
        window = self.client_capabilities.window
        return bool(window and window.work_done_progress)

    async def create_progress(self, token: str) -> None:
        await self.work_done_progress.create_async(token)

    def send_progress(self, token: str, value: Any) -> None:
        if isinstance(value, types.WorkDoneProgressBegin):
            self.work_done_progress.begin(token, value)
        elif isinstance(value, types.WorkDoneProgressEnd):
            self.work_done_progress.end(token, value)
            self.work_done_progress.tokens.pop(token, None)
        else:
            self.work_done_progress.report(token, value)

    def cancel_future(self, token: str) -> Future[Any] | None:
        return self.work_done_progress.tokens.get(token)

    def tell_once(self, message: str, kind: types.MessageType) -> None:
        """``tell``, unless this message was told already (a publish runs on every edit)."""
        if message not in self._told:
            self._told.add(message)
            self.tell(message, kind)

    def tell(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        """A line of the client's log of this server (window/logMessage) and of its own log."""
        logger.log(_LEVELS[kind], "%s", message)
        self.window_log_message(types.LogMessageParams(type=kind, message=message))
