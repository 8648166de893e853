"""`remora lsp --changed` over stdio with a real LSP client, on real git repositories.

The server runs the enabled operations on the nodes the branch changed once the
editor is connected, and publishes their changes; a git error is told to the
client (window/showMessage and the log), and the server keeps serving.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from lsp_support import LINT_NEW, REMORA, Editor
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from remora.results import ResultsDB

pytestmark = pytest.mark.integration

# A fixed identity and no user or system configuration: the server sees git's defaults too.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("REMORA_")}, **GIT_ENV}
# Lint only, with the scripted model and no turns: the lint agent's host steps apply
# ruff's fixes, so an unused import becomes a change without a model.
CONFIG = (
    "model:\n  provider: scripted\n  id: scripted\n  path: turns.yaml\n"
    "sandbox:\n  max_concurrent_agents: 1\n"
    "operations:\n  test: {enabled: false}\n  sample_data: {enabled: false}\n"
)
OTHER = "import sys\n\n\ndef helper():\n    return 1\n"  # lint would fix it, were it run


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, env=ENV, check=True
    )
    return done.stdout


@asynccontextmanager
async def _server(*args: str) -> AsyncIterator[Editor]:
    config = ClientServerConfig(server_command=[REMORA, "lsp", *args], server_env=ENV)
    client: LanguageClient = await config.start()  # type: ignore[assignment]
    try:
        yield Editor(client)
    finally:  # as pytest-lsp's fixture does, also after a failed test: stop() waits for the exit
        await client.shutdown_session()
        await client.stop()


def _branch(root: Path) -> None:
    """main: pkg/shop.py and pkg/other.py; branch feature: an unused import added to shop.py."""
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / ".gitignore").write_text(".remora/\n")
    (root / "turns.yaml").write_text("[]\n")
    (root / "remora.yaml").write_text(CONFIG)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shop.py").write_text(LINT_NEW)
    (root / "pkg" / "other.py").write_text(OTHER)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "first")
    _git(root, "checkout", "-q", "-b", "feature")
    (root / "pkg" / "shop.py").write_text(LINT_NEW.replace('"""\n', '"""\nimport json\n', 1))
    _git(root, "commit", "-q", "-am", "an unused import")


def _remora(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.source == "remora"]


def _said(editor: Editor, kind: types.MessageType) -> list[str]:
    return [m.message for m in editor.client.messages if m.type == kind]


async def test_changed_runs_the_branchs_nodes_and_publishes_their_changes(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    _branch(root)
    shop = (root / "pkg" / "shop.py").as_uri()
    async with _server("--changed") as editor:
        await editor.start(root)
        # The changed file is not open: its diagnostics come from the file as saved.
        found = await editor.wait_for(shop, lambda d: len(_remora(d)) == 1, within=120)
        assert found[0].data["operation"] == "lint" and found[0].range.start.line == 1
        await editor.until(
            lambda: any("to review" in m for m in _said(editor, types.MessageType.Info))
        )
        assert _said(editor, types.MessageType.Info) == [
            "remora --changed: 1 nodes in 1 files (the work tree against main (merge base) "
            f"({_git(root, 'rev-parse', '--short=10', 'main').strip()})): 1 succeeded, "
            "0 failed; 1 change(s) to review"
        ]
        logged = [m.message for m in editor.client.log_messages]
        assert any(
            m.startswith("changed: 1 nodes in 1 Python files, the work tree") for m in logged
        )
        assert "  file pkg/shop.py (pkg/shop.py:1-16)" in logged
        assert editor.progress_of(types.WorkDoneProgressEnd)
        # Only the changed node ran: pkg/other.py (unchanged, lint would fix it) did not.
        with ResultsDB(root) as db:
            results = [(r.operation, r.node_name, r.review_state) for r in db.list()]
        assert results == [("lint", "pkg/shop.py", "pending")]
        # Opened, the same change is there, with its code actions; closed, it stays shown.
        uri = editor.open(root / "pkg" / "shop.py")
        assert uri == shop
        actions = await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri),
                types.Range(types.Position(1, 0), types.Position(1, 0)),
                types.CodeActionContext(diagnostics=[]),
            )
        )
        titles = [a.title for a in actions or []]
        assert "Remora: accept the lint change to pkg/shop.py" in titles
        editor.client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
        )
        await editor.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        assert len(_remora(editor.diagnostics(uri))) == 1


async def test_staged_runs_only_the_nodes_of_the_index(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    _branch(root)
    _git(root, "checkout", "-q", "main")
    (root / "pkg" / "other.py").write_text(OTHER + "\n\ndef staged():\n    return 2\n")
    _git(root, "add", "pkg/other.py")
    (root / "pkg" / "shop.py").write_text(LINT_NEW + "\n\ndef unstaged():\n    return 3\n")
    async with _server("--staged") as editor:
        await editor.start(root)
        await editor.until(
            lambda: any("to review" in m for m in _said(editor, types.MessageType.Info)), within=120
        )
        with ResultsDB(root) as db:
            results = [(r.operation, r.node_name) for r in db.list()]
        assert results == [("lint", "staged")]
        assert any("the index against HEAD" in m for m in _said(editor, types.MessageType.Info))


def _not_a_repository(root: Path) -> tuple[Path, tuple[str, ...]]:
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    return root, ("--changed",)


def _shallow_clone(root: Path) -> tuple[Path, tuple[str, ...]]:
    _branch(root)
    _git(root, "checkout", "-q", "main")  # the remote's HEAD: its default branch
    _git(root.parent, "clone", "-q", "--depth=1", "-b", "feature", root.as_uri(), "only")
    return root.parent / "only", ("--base", "origin/main")


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (_not_a_repository, "is not inside a git repository (hint: run it inside a git work tree"),
        (_shallow_clone, "'origin/main' is not a commit"),
    ],
)
async def test_a_git_error_is_told_and_logged_and_the_server_keeps_serving(
    tmp_path: Path, make: Callable[[Path], tuple[Path, tuple[str, ...]]], expected: str
) -> None:
    given = tmp_path / "shop"
    given.mkdir()
    root, args = make(given)
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg" / "shop.py").write_text(LINT_NEW)
    async with _server(*args) as editor:
        await editor.start(root)
        await editor.until(lambda: _said(editor, types.MessageType.Error))
        [told] = _said(editor, types.MessageType.Error)
        assert told.startswith(f"remora --changed ({root}): ") and expected in told
        logged = [m for m in editor.client.log_messages if m.type == types.MessageType.Error]
        assert [m.message for m in logged] == [told]
        if root.name == "only":
            assert "git fetch origin main" in told and "--unshallow" in told
        uri = editor.open(root / "pkg" / "shop.py")  # still serving: a document is shown
        await editor.wait_for(uri, lambda d: uri in editor.client.diagnostics)
        assert _remora(editor.diagnostics(uri)) == []
    assert not (root / ".remora" / "remora.db").exists()
