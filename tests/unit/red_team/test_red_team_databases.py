"""Red team, ``.remora/remora.db`` (issue 54): a damaged, foreign, unreadable, emptied or
deleted results database is one clear error naming the file and what to do, the same in
the CLI, the library and ``remora serve`` (the LSP: tests/integration/test_red_team_lsp.py);
nothing is silently recreated. Shown by hand: ``head -c 40000 /dev/urandom >
.remora/remora.db; remora review``."""

from __future__ import annotations

from pathlib import Path

import pytest
from red_team_support import CHANGE_ID, DAMAGES, SAYS, make_project
from red_team_support import remora as run_remora
from starlette.testclient import TestClient

from remora import review
from remora.results import ResultsDB
from remora.results.health import DatabaseStateError
from remora.web import Credentials, create_app

TOKEN = "red-team-token-0123456789"


@pytest.fixture(params=list(DAMAGES))
def damaged(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    """A project whose results database was damaged one way; (root, the damage)."""
    root = make_project(tmp_path / "shop")
    DAMAGES[request.param](root / ".remora" / "remora.db")
    return root, request.param


def _says(output: str, root: Path, damage: str) -> None:
    assert str(root / ".remora" / "remora.db") in output, output
    assert SAYS[damage] in output, output
    assert "hint:" in output and ".remora.damaged" in output, output


@pytest.mark.parametrize("command", [["review"], ["review", "show", CHANGE_ID]])
def test_the_cli_says_what_is_wrong(damaged: tuple[Path, str], command: list[str]) -> None:
    root, damage = damaged
    code, output = run_remora(root, *command)
    assert code == 2
    _says(output, root, damage)
    assert output.count("error[") == 1


def test_accept_says_what_is_wrong_and_writes_nothing(damaged: tuple[Path, str]) -> None:
    root, damage = damaged
    before = (root / "pricing.py").read_text()
    code, output = run_remora(root, "review", "accept", CHANGE_ID)
    assert code == 2
    _says(output, root, damage)
    assert (root / "pricing.py").read_text() == before


def test_the_library_raises_one_remora_error(damaged: tuple[Path, str]) -> None:
    root, damage = damaged
    with pytest.raises(DatabaseStateError) as info:
        review.list_changes(root)
    _says(f"{info.value.message} hint: {info.value.hint}", root, damage)
    with pytest.raises(DatabaseStateError):
        review.show(CHANGE_ID, project=root)


def test_serve_shows_one_error_page_not_500s(damaged: tuple[Path, str]) -> None:
    root, damage = damaged
    client = TestClient(
        create_app(root, Credentials(TOKEN, 8765)), base_url="http://127.0.0.1:8765"
    )
    assert client.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    for url in ("/", f"/change/{CHANGE_ID}", "/runs", "/api/runs"):
        answer = client.get(url)
        assert answer.status_code == 503, (url, answer.text[:300])
        assert SAYS[damage] in answer.text and ".remora.damaged" in answer.text


def test_a_new_project_still_gets_a_new_database(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    (root / "a.py").write_text("X = 1\n")
    with ResultsDB(root) as db:
        assert db.list() == []
    assert (root / ".remora" / "remora.db.made").is_file()
    # Moving the state folder aside, as the hint says, starts afresh.
    make_project(tmp_path / "shop")
    DAMAGES["random bytes"](tmp_path / "shop" / ".remora" / "remora.db")
    (tmp_path / "shop" / ".remora").rename(tmp_path / "shop" / ".remora.damaged")
    assert run_remora(tmp_path / "shop", "review")[0] == 0


def test_a_page_damaged_inside_is_found_when_opened(tmp_path: Path) -> None:
    """The integrity check: a page overwritten in the middle, header intact."""
    root = make_project(tmp_path / "shop")
    path = root / ".remora" / "remora.db"
    with ResultsDB(root) as db:  # fold the log into the file, then damage a table page
        db._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = path.stat().st_size
    with path.open("r+b") as fh:
        fh.seek(size - 4096 + 8)
        fh.write(b"\xff" * 200)
    with pytest.raises(DatabaseStateError, match="damaged"):
        ResultsDB(root).close()
