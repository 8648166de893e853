"""`remora lsp` over stdio with a real LSP client (pytest-lsp), as an editor drives it."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import (
    DOCUMENTED,
    LINT_NEW,
    REMORA,
    SHOP,
    TOTAL_ID,
    TOTAL_NEW,
    Editor,
    make_project,
    remora,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient
from queued_change import queue_change

from remora.results import ResultsDB
from remora.workspace import WorkspaceStore

pytestmark = pytest.mark.integration


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[REMORA, "lsp"]))
async def client(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.fixture
def editor(client: LanguageClient) -> Editor:
    return Editor(client)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "shop"
    return root, make_project(root)


async def _code_actions(
    editor: Editor, uri: str, at: types.Position
) -> list[types.Command | types.CodeAction] | None:
    return await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            types.Range(at, at),
            types.CodeActionContext(diagnostics=[]),
        )
    )


def _remora(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.source == "remora"]


async def _opened(editor: Editor, root: Path) -> tuple[str, list[types.Diagnostic]]:
    await editor.start(root)
    uri = editor.open(root / "pkg" / "shop.py")
    found = await editor.wait_for(uri, lambda d: len(_remora(d)) == 3)
    return uri, _remora(found)


async def test_open_shows_each_hunk_of_each_pending_change_on_its_lines(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    _uri, found = await _opened(editor, root)
    by_hunk = {(d.data["change_id"], d.data["hunk"]): d for d in found}
    assert set(by_hunk) == {(ids["docstring"], 1), (ids["docstring"], 2), (ids["lint"], 1)}
    docstring = by_hunk[(ids["docstring"], 1)]
    assert docstring.severity == types.DiagnosticSeverity.Information
    assert docstring.message == ("docstring: documented total() and rounded its sum [hunk 1 of 2]")
    # hunk 1 inserts after `def total(prices):`; hunk 2 replaces `return result`.
    assert docstring.range.start.line == 6  # inserted before `result = 0`
    assert by_hunk[(ids["docstring"], 2)].range.start.line == 15
    assert by_hunk[(ids["docstring"], 2)].range.end == types.Position(15, len("    return result"))
    lint = by_hunk[(ids["lint"], 1)]
    assert lint.range.start.line == 2 and lint.message == "lint: removed the unused import os"


async def test_code_actions_then_accept_one_hunk_goes_through_apply_edit_and_the_save(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    actions = await _code_actions(editor, uri, types.Position(15, 4))
    titles = [a.title for a in actions or [] if isinstance(a, types.CodeAction)]
    assert titles == [
        "Remora: accept the docstring change to total",
        "Remora: accept hunk 2 of 2 of the docstring change to total",
        "Remora: reject the docstring change to total…",
        "Remora: show the diff of the docstring change to total",
        "Remora: run lint on total now",
        "Remora: run docstring on total now",
        "Remora: run test on total now",
        "Remora: run sample_data on total now",
    ]
    hunk_action = next(a for a in actions or [] if "hunk 2" in a.title)
    assert isinstance(hunk_action, types.CodeAction) and hunk_action.command is not None
    result = await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            hunk_action.command.command, arguments=hunk_action.command.arguments
        )
    )
    assert result == {
        "applied": True,
        "change_id": ids["docstring"],
        "hunks": [2],
        "also_removed": {},
        "unchecked": {},
    }
    assert (root / "pkg" / "shop.py").read_text() == SHOP  # the buffer changed, not the file
    editor.save(uri)
    assert (root / "pkg" / "shop.py").read_bytes() == SHOP.replace(
        "    return result\n", "    return round(result, 2)\n"
    ).encode()
    with ResultsDB(root) as db:
        record = db.get(ids["docstring"])
    assert record is not None
    assert record.review_state == "accepted" and record.accepted_hunks == [2]
    assert not WorkspaceStore(root).exists(ids["docstring"])
    # the lint change read the file before the save: its line was not touched, so it is
    # placed against the saved file (merged into it) and still applies
    found = await editor.wait_for(
        uri, lambda d: [x.data["conflict"] for x in _remora(d)] == [False]
    )
    assert found[0].severity == types.DiagnosticSeverity.Information
    merged = await editor.command("remora.accept", change_id=ids["lint"])
    assert merged["applied"] is True and merged["change_id"] == ids["lint"]
    editor.save(uri)
    assert (root / "pkg" / "shop.py").read_bytes() == LINT_NEW.replace(
        "    return result\n", "    return round(result, 2)\n"
    ).encode()
    assert not WorkspaceStore(root).exists(ids["lint"])


async def test_accept_the_whole_change_follows_unsaved_edits_elsewhere(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    editor.type_text(uri, 0, "# unsaved note\n")  # above the node: positions move by one
    moved = await editor.wait_for(
        uri,
        lambda d: any(x.data["hunk"] == 2 and x.range.start.line == 16 for x in _remora(d)),
    )
    assert len(_remora(moved)) == 3
    result = await editor.command("remora.accept", change_id=ids["docstring"])
    assert result["applied"] is True and result["hunks"] is None
    assert editor.documents[uri].source == "# unsaved note\n" + TOTAL_NEW
    editor.save(uri)
    assert (root / "pkg" / "shop.py").read_bytes() == ("# unsaved note\n" + TOTAL_NEW).encode()


async def test_unsaved_edits_over_the_node_make_a_conflict_and_nothing_is_applied(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    editor.type_text(uri, 7, "        price = abs(price)\n")  # inside total()
    found = await editor.wait_for(uri, lambda d: sum(x.data["conflict"] for x in _remora(d)) == 2)
    conflicts = [d for d in _remora(found) if d.data["conflict"]]
    assert {d.data["change_id"] for d in conflicts} == {ids["docstring"]}
    assert "the text of total in the buffer differs from what the agent saw" in conflicts[0].message
    before = editor.documents[uri].source
    result = await editor.command("remora.accept", change_id=ids["docstring"])
    assert result["applied"] is False
    assert (
        result["conflicts"]
        == ["the text of total in the buffer differs from what the agent saw"] * 2
    )
    assert editor.applied == [] and editor.documents[uri].source == before
    assert (root / "pkg" / "shop.py").read_text() == SHOP
    assert any("conflict" in m.message for m in editor.client.messages)
    assert WorkspaceStore(root).exists(ids["docstring"])


async def test_reject_with_a_reason_from_the_message_request_and_from_an_argument(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    editor.answer_reject = "Reject: the change is wrong"
    result = await editor.command("remora.reject", change_id=ids["docstring"])
    assert result == {
        "rejected": True,
        "change_id": ids["docstring"],
        "reason": "the change is wrong",
    }
    assert editor.asked and "Reject the docstring change to total?" in editor.asked[0].message
    result = await editor.command("remora.reject", change_id=ids["lint"], reason="keep os")
    assert result["reason"] == "keep os"
    with ResultsDB(root) as db:
        states = {i: (db.get(i).review_state, db.get(i).reject_reason) for i in ids.values()}
    assert states == {
        ids["docstring"]: ("rejected", "the change is wrong"),
        ids["lint"]: ("rejected", "keep os"),
    }
    await editor.wait_for(uri, lambda d: _remora(d) == [])
    assert (root / "pkg" / "shop.py").read_text() == SHOP


async def test_cancelling_the_reject_question_rejects_nothing(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    await _opened(editor, root)
    editor.answer_reject = None
    result = await editor.command("remora.reject", change_id=ids["lint"])
    assert result == {"rejected": False, "change_id": ids["lint"]}
    assert WorkspaceStore(root).exists(ids["lint"])


async def test_an_accept_by_the_cli_in_another_process_updates_the_diagnostics(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    accepted = remora(root, "review", "accept", ids["lint"])
    assert accepted.returncode == 0, accepted.stderr
    assert (root / "pkg" / "shop.py").read_text() == LINT_NEW
    # The docstring change read the file before the CLI wrote it, on other lines: it is
    # placed on the file as it is now (one line up), not a conflict.
    found = await editor.wait_for(
        uri, lambda d: {x.data["change_id"] for x in _remora(d)} == {ids["docstring"]}
    )
    assert not any(d.data["conflict"] for d in _remora(found))
    result = await editor.command("remora.accept", change_id=ids["docstring"])
    assert result["applied"] is True
    assert '"""The sum of ``prices``."""' in editor.documents[uri].source


async def test_hover_shows_the_diff_and_what_the_agent_did(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    hover = await editor.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(15, 6))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    assert f"**remora docstring** on `total` (pending, `{ids['docstring']}`)" in text
    assert "```diff\n" in text and "+    return round(result, 2)" in text
    assert "- model: scripted:test" in text and "- turns: 3" in text
    assert "- tools called: read_docstring, write_docstring (failed)" in text
    assert "- tests run: 2 passed, 1 failed" in text
    nothing = await editor.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
    )
    assert nothing is None


async def test_show_diff_opens_the_unified_diff(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    await editor.start(root, "visual-studio-code@v1.65.2")
    result = await editor.command("remora.showDiff", change_id=ids["lint"])
    diff = WorkspaceStore(root).open(ids["lint"])
    with diff as ws:
        expected = ws.diff()
    assert result["diff"] == expected and "-import os" in expected
    assert Path(result["uri"].removeprefix("file://")).read_text() == expected  # noqa: ASYNC240 - reading the file the server wrote
    assert [d.uri for d in editor.client.shown_documents] == [result["uri"]]


async def test_bad_input_gets_clear_errors_and_the_server_keeps_serving(
    editor: Editor, project: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, ids = project
    uri, _found = await _opened(editor, root)
    with pytest.raises(JsonRpcInvalidParams, match="line 400 is past the end of the document"):
        await editor.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(400, 0))
        )
    with pytest.raises(JsonRpcInvalidParams, match="character 99 is past the end of line 0"):
        await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(uri),
                types.Range(types.Position(0, 99), types.Position(0, 99)),
                types.CodeActionContext(diagnostics=[]),
            )
        )
    with pytest.raises(JsonRpcInvalidParams, match="no pending change 'lint-nope'"):
        await editor.command("remora.accept", change_id="lint-nope")
    with pytest.raises(JsonRpcInvalidParams, match="has 2 hunk"):
        await editor.command("remora.accept", change_id=ids["docstring"], hunk=7)
    with pytest.raises(JsonRpcInvalidParams, match="one object argument"):
        await editor.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="remora.reject", arguments=[1, 2])
        )
    readme = editor.open(root / "README.md", "markdown")
    actions = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(readme),
            types.Range(types.Position(0, 0), types.Position(0, 0)),
            types.CodeActionContext(diagnostics=[]),
        )
    )
    assert list(actions or []) == []
    with pytest.raises(JsonRpcInvalidParams, match=r"README\.md is not a Python file"):
        await editor.command("remora.runAgent", uri=readme, node_id="x", operation="lint")
    # still serving, diagnostics intact
    hover = await editor.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(15, 6))
    )
    assert hover is not None


async def test_a_project_without_remora_state_has_no_diagnostics_and_says_why(
    editor: Editor, tmp_path: Path
) -> None:
    root = tmp_path / "bare"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "bare"\nversion = "0.1"\n')
    (root / "pkg" / "m.py").write_text(DOCUMENTED)
    await editor.start(root)
    uri = editor.open(root / "pkg" / "m.py")
    await editor.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert editor.diagnostics(uri) == []
    with pytest.raises(
        JsonRpcInvalidParams, match=r"no changes to review in .*bare \(no .remora/\)"
    ):
        await editor.command("remora.accept", change_id="lint-x")
    assert not (root / ".remora").exists()


def _scripted(root: Path, extra: str) -> None:
    """The scripted provider with no turns: the lint agent's host steps apply ruff's fixes.
    ``extra``: more of remora.yaml (the run on save, an operation's options)."""
    (root / "turns.yaml").write_text("[]\n")
    (root / "remora.yaml").write_text(
        "model:\n  provider: scripted\n  id: scripted\n  path: turns.yaml\n"
        "sandbox:\n  max_concurrent_agents: 1\n" + extra
    )


async def test_run_lint_on_the_file_node_now_records_a_change_shown_at_once(
    editor: Editor, tmp_path: Path
) -> None:
    root = tmp_path / "fresh"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "fresh"\nversion = "0.1"\n')
    (root / "pkg" / "shop.py").write_text(SHOP)
    _scripted(root, "")
    await editor.start(root)
    uri = editor.open(root / "pkg" / "shop.py")
    actions = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            types.Range(types.Position(2, 0), types.Position(2, 0)),
            types.CodeActionContext(diagnostics=[]),
        )
    )
    run = next(a for a in actions or [] if a.title == "Remora: run lint on pkg/shop.py now")
    assert isinstance(run, types.CodeAction) and run.command is not None
    result = await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(run.command.command, arguments=run.command.arguments)
    )
    assert result["cancelled"] is False and result["counts"]["changed"] == 1
    found = await editor.wait_for(uri, lambda d: len(_remora(d)) == 1)
    assert found[0].data["operation"] == "lint" and found[0].range.start.line == 2
    # work-done progress: begin ... end
    kinds = [type(v).__name__ for values in editor.client.progress_reports.values() for v in values]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"


async def test_run_on_save_re_analyses_the_changed_nodes(editor: Editor, tmp_path: Path) -> None:
    root = tmp_path / "saving"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "saving"\nversion = "0.1"\n')
    (root / "pkg" / "shop.py").write_text(LINT_NEW)  # nothing for lint to fix yet
    _scripted(root, "lsp:\n  run_on_save: [lint]\n")
    await editor.start(root)
    uri = editor.open(root / "pkg" / "shop.py")
    await editor.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    editor.type_text(uri, 1, "import json\n")  # an unused import, saved
    editor.save(uri)
    found = await editor.wait_for(uri, lambda d: len(_remora(d)) == 1, within=60)
    assert found[0].message.startswith("lint: ")
    with ResultsDB(root) as db:
        results = db.list()
    # only the node the save changed ran: the file node (total() is unchanged)
    assert [(r.operation, r.node_name, r.review_state) for r in results] == [
        ("lint", "pkg/shop.py", "pending")
    ]
    assert any(
        isinstance(v, types.WorkDoneProgressEnd)
        for values in editor.client.progress_reports.values()
        for v in values
    )


async def test_cancelling_the_progress_stops_the_run_and_records_nothing(
    editor: Editor, tmp_path: Path
) -> None:
    root = tmp_path / "slow"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "slow"\nversion = "0.1"\n')
    (root / "pkg" / "shop.py").write_text(SHOP)
    # Nothing drafted: the words are the model's, and its first turn takes 60 s, so the
    # run is still going when the user cancels.
    _scripted(root, "operations:\n  docstring:\n    options:\n      draft: false\n")
    (root / "turns.yaml").write_text(
        '- delay_s: 60\n  calls: [{name: submit_result, arguments: {summary: "late"}}]\n'
    )
    await editor.start(root)
    uri = editor.open(root / "pkg" / "shop.py")
    running = asyncio.ensure_future(
        editor.command("remora.runAgent", uri=uri, node_id=TOTAL_ID, operation="docstring")
    )
    await editor.until(lambda: editor.progress_of(types.WorkDoneProgressReport))
    [token] = list(editor.client.progress_reports)
    editor.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token))
    async with asyncio.timeout(30):
        result = await running
    assert result == {"cancelled": True}
    end = editor.client.progress_reports[token][-1]
    assert isinstance(end, types.WorkDoneProgressEnd)
    assert end.message == "cancelled: unfinished runs were discarded"
    with ResultsDB(root) as db:
        assert [r.operation for r in db.list()] == []
    assert WorkspaceStore(root).ids() == []


def _git(root: Path, *args: str) -> str:
    identity = ["-c", "user.email=dev@example.invalid", "-c", "user.name=Dev"]
    done = subprocess.run(
        ["git", *identity, *args], cwd=root, capture_output=True, text=True, check=True
    )
    return done.stdout


async def test_accept_as_a_git_commit_writes_and_commits_exactly_the_changes_files(
    editor: Editor, project: tuple[Path, dict[str, str]]
) -> None:
    root, ids = project
    (root / ".gitignore").write_text(".remora/\n")
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-q", "-m", "start")):
        _git(root, *args)
    uri, _found = await _opened(editor, root)
    actions = await _code_actions(editor, uri, types.Position(15, 4))
    titles = [a.title for a in actions or [] if isinstance(a, types.CodeAction)]
    assert "Remora: accept the docstring change to total as a git commit" in titles
    editor.type_text(uri, 0, "# unsaved\n")  # the file is written on disk: unsaved edits first
    refused = await editor.command("remora.acceptAsCommit", change_id=ids["docstring"])
    assert refused["applied"] is False and "unsaved edits" in refused["conflicts"][0]
    editor.save(uri)
    _git(root, "commit", "-q", "-am", "a note of mine")
    committed = await editor.command("remora.acceptAsCommit", change_id=ids["docstring"])
    assert committed["applied"] is True, committed
    assert (root / "pkg" / "shop.py").read_text() == "# unsaved\n" + TOTAL_NEW
    assert _git(root, "show", "--name-only", "--format=", "HEAD").split() == ["pkg/shop.py"]
    assert "Co-authored-by: Remora" in _git(root, "log", "-1", "--format=%B")
    assert _git(root, "status", "--porcelain") == ""


async def test_accept_in_the_buffer_removes_the_import_the_change_made_unused(
    editor: Editor, tmp_path: Path
) -> None:
    # as `remora review accept` does (tests/integration/test_accept_made_unused.py)
    root = tmp_path / "typed"
    old = "from typing import Optional\n\n\ndef f(x: Optional[int]) -> int:\n    return x or 0\n"
    new = old.replace("Optional[int]", "int | None")
    change_id = queue_change(root, "pkg/typed.py", old, new, "f")
    (root / "pyproject.toml").write_text('[project]\nname = "typed"\nversion = "0.1"\n')
    await editor.start(root)
    uri = editor.open(root / "pkg" / "typed.py")
    await editor.wait_for(uri, lambda d: len(_remora(d)) == 1)
    result = await editor.command("remora.accept", change_id=change_id)
    removed = {"pkg/typed.py": ["from typing import Optional"]}
    assert result["applied"] is True and result["also_removed"] == removed
    # ruff's own fix of a whole first statement takes the blank lines after it too
    assert editor.documents[uri].source == "def f(x: int | None) -> int:\n    return x or 0\n"
    with ResultsDB(root) as db:
        record = db.get(change_id)
    assert record is not None and record.also_removed == removed
