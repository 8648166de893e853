"""A project with pending changes, and an editor-like LSP client for `remora lsp` tests.

The changes are made as runs make them: written into workspaces of the real
store and recorded in the real results database (as tests/unit/web does).
The client keeps each opened document's text, applies `workspace/applyEdit`
to it with pygls's own TextDocument (as an editor changes its buffer) and
"saves" by writing that text to the file and sending didSave.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Union

from lsprotocol import types
from pygls.workspace import TextDocument
from pytest_lsp import LanguageClient, client_capabilities

from remora.discovery import make_node_id
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

REMORA = str(Path(sys.executable).with_name("remora"))

SHOP = '''\
"""Shop helpers."""

import os


def total(prices):
    result = 0
    for price in prices:
        result += price
    # keep the running sum
    # in one variable
    # so the hunks
    # stay apart
    # from each other
    # in the diff
    return result
'''
DOCUMENTED = SHOP.replace(
    "def total(prices):\n", 'def total(prices):\n    """The sum of ``prices``."""\n'
)
# Two hunks in total(): the docstring (1) and the rounding (2).
TOTAL_NEW = DOCUMENTED.replace("    return result\n", "    return round(result, 2)\n")
# The lint change of the file node: the unused import goes.
LINT_NEW = SHOP.replace("import os\n\n\n", "\n\n")
TOTAL_ID = make_node_id("pkg/shop.py", "total", "function")
FILE_ID = make_node_id("pkg/shop.py", "pkg/shop.py", "file")


def make_project(root: Path) -> dict[str, str]:
    """pkg/shop.py with two pending changes; returns {operation: change id}."""
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shop.py").write_text(SHOP)
    (root / "README.md").write_text("# Shop\n")
    store = WorkspaceStore(root)
    ids: dict[str, str] = {}
    plan = (
        ("docstring", TOTAL_ID, "total", TOTAL_NEW, "documented total() and rounded its sum"),
        ("lint", FILE_ID, "pkg/shop.py", LINT_NEW, "removed the unused import os"),
    )
    for operation, node_id, _name, new, _summary in plan:
        with store.create(operation, node_id) as ws:
            ws.read("pkg/shop.py")  # records the base the agent read
            ws.write("pkg/shop.py", new.encode())
            ids[operation] = ws.id
    with ResultsDB(root) as db:
        run_id = db.start_run("analyze", {"operations": ["docstring", "lint"], "nodes": 2})
        for operation, node_id, name, _new, summary in plan:
            db.record_result(
                run_id,
                {"node_id": node_id, "full_name": name, "file_path": "pkg/shop.py"},
                operation,
                {
                    "status": "success",
                    "workspace_id": ids[operation],
                    "changed_files": ["pkg/shop.py"],
                    "summary": summary,
                    "turns": 3,
                    "details": {
                        "transcript": {
                            "model": "scripted:test",
                            "tools": [
                                {"name": "read_docstring", "ok": True},
                                {"name": "write_docstring", "ok": False},
                            ],
                        },
                        "passed": 2,
                        "failed": 1,
                    },
                },
            )
        db.finish_run(run_id)
    return ids


def remora(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}
    return subprocess.run(
        [REMORA, *args], cwd=root, capture_output=True, text=True, timeout=120, env=env
    )


class Editor:
    """What an editor keeps of the documents it has open, driven through a pytest-lsp client."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.documents: dict[str, TextDocument] = {}
        self.applied: list[types.ApplyWorkspaceEditParams] = []
        self.answer_reject: str | None = None  # the action title a showMessageRequest gets
        self.asked: list[types.ShowMessageRequestParams] = []
        # pygls marks the handler function itself, so each is a plain function here.

        def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
            return self._apply_edit(params)

        def message_request(
            params: types.ShowMessageRequestParams,
        ) -> types.MessageActionItem | None:
            return self._message_request(params)

        # lsprotocol 2025.0.0 reads any code action that has a command as a Command;
        # an editor tells them apart by whether "command" is a string.
        def code_action_or_command(
            data: dict[str, Any], _type: object
        ) -> types.Command | types.CodeAction:
            converter = client.protocol._converter
            if isinstance(data.get("command"), str):
                return converter.structure(data, types.Command)
            return converter.structure(data, types.CodeAction)

        client.protocol._converter.register_structure_hook(
            Union[types.Command, types.CodeAction],  # noqa: UP007 (the key lsprotocol uses)
            code_action_or_command,
        )
        client.feature(types.WORKSPACE_APPLY_EDIT)(apply_edit)
        client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)(message_request)

    async def start(self, root: Path, capabilities: str = "neovim@v0.7.0") -> None:
        params = types.InitializeParams(
            capabilities=client_capabilities(capabilities),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            root_uri=root.as_uri(),
        )
        await self.client.initialize_session(params)

    def open(self, path: Path, language: str = "python") -> str:
        uri = path.as_uri()
        text = path.read_text()
        self.documents[uri] = TextDocument(uri, text, version=1)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, language, 1, text))
        )
        return uri

    def type_text(self, uri: str, line: int, text: str) -> None:
        """Insert ``text`` at the start of ``line``, unsaved, as typing would."""
        document = self.documents[uri]
        at = types.Range(types.Position(line, 0), types.Position(line, 0))
        change = types.TextDocumentContentChangePartial(range=at, text=text)
        document.apply_change(change)
        document.version = (document.version or 0) + 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=document.version, uri=uri), [change]
            )
        )

    def save(self, uri: str) -> None:
        document = self.documents[uri]
        Path(document.path).write_text(document.source)
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))
        )

    def _apply_edit(self, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        self.applied.append(params)
        for uri, edits in (params.edit.changes or {}).items():
            document = self.documents.get(uri)
            if document is None:
                return types.ApplyWorkspaceEditResult(False, "document not open")
            # Edits refer to the text before any of them: apply from the end.
            for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[
                ::-1
            ]:
                change = types.TextDocumentContentChangePartial(
                    range=edit.range, text=edit.new_text
                )
                document.apply_change(change)
            document.version = (document.version or 0) + 1
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=document.version, uri=uri),
                    [types.TextDocumentContentChangeWholeDocument(document.source)],
                )
            )
        return types.ApplyWorkspaceEditResult(applied=True)

    def _message_request(
        self, params: types.ShowMessageRequestParams
    ) -> types.MessageActionItem | None:
        self.asked.append(params)
        if self.answer_reject is None:
            return None
        return types.MessageActionItem(self.answer_reject)

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        return list(self.client.diagnostics.get(uri, []))

    async def wait_for(self, uri: str, predicate: Any, within: float = 10.0) -> list[Any]:
        """Wait until the diagnostics of ``uri`` satisfy ``predicate``; they are returned."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            found = self.diagnostics(uri)
            if predicate(found):
                return found
            if loop.time() > deadline:
                told = [m.message for m in self.client.messages]
                logged = [m.message for m in self.client.log_messages]
                raise AssertionError(
                    f"diagnostics of {uri} never matched; last: {found}; "
                    f"the server told: {told}; it logged: {logged}"
                )
            await asyncio.sleep(0.05)

    def progress_of(self, kind: type) -> bool:
        """Whether any work-done progress value of ``kind`` arrived."""
        reports = self.client.progress_reports.values()
        return any(isinstance(value, kind) for values in reports for value in values)

    async def until(self, predicate: Any, within: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            if predicate():
                return
            if loop.time() > deadline:
                raise AssertionError(f"{predicate} never held within {within} s")
            await asyncio.sleep(0.05)

    async def command(self, name: str, **arguments: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=[arguments])
        )
