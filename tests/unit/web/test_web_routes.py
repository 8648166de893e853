"""The pages and actions through starlette's TestClient, against a real project on disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from queued_change import queue_new_file
from starlette.testclient import TestClient
from three_hunks import NEW, OLD

from remora.results import ResultsDB
from remora.web import Credentials, pages
from remora.workspace import WorkspaceStore


def test_queue_lists_open_changes_with_counts_and_filters(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="row-lint-n1"' in page.text and 'id="row-docstring-n2"' in page.text
    assert re.search(r'id="count-open">2<', page.text)
    assert "+1" in page.text and "−2" in page.text  # the lint change: +2 −2 over 3 hunks
    only_lint = client.get("/?operation=lint")
    assert "row-lint-n1" in only_lint.text and "row-docstring-n2" not in only_lint.text
    by_file = client.get("/?file=n.py")
    assert "row-docstring-n2" in by_file.text and "row-lint-n1" not in by_file.text
    assert "Nothing here" in client.get("/?state=rejected").text


def test_a_long_queue_is_shown_a_page_at_a_time_keeping_the_filters(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "PAGE_ROWS", 1)
    first = client.get("/?state=open")
    assert "row-docstring-n2" in first.text and "row-lint-n1" not in first.text
    assert "1–1 of 2 shown" in first.text and "page 1 of 2" in first.text
    assert 'href="/?state=open&amp;page=2"' in first.text and 'rel="prev"' not in first.text
    second = client.get("/?state=open&page=2")
    assert "row-lint-n1" in second.text and "row-docstring-n2" not in second.text
    assert 'href="/?state=open&amp;page=1"' in second.text and 'rel="next"' not in second.text
    assert "row-lint-n1" in client.get("/?page=99").text  # past the end: the last page
    assert "row-docstring-n2" in client.get("/?page=x").text  # not a number: the first


def test_change_page_shows_numbered_highlighted_hunks_and_the_agent(client: TestClient) -> None:
    page = client.get("/change/lint-n1")
    assert page.status_code == 200
    boxes = re.findall(r'name="hunk" value="(\d+)"', page.text)
    assert boxes == ["1", "2", "3"]
    assert "@@ -1,5 +1,5 @@" in page.text
    assert '<span class="mi">100</span>' in page.text  # pygments: a number literal
    assert "scripted:test" in page.text and "run_linter" in page.text
    split = client.get("/change/lint-n1?view=split")
    assert 'class="code split"' in split.text and 'class="code unified"' not in split.text


def test_change_page_links_the_other_changes_that_create_its_new_file(
    client: TestClient, project: Path
) -> None:
    for node in ("t1", "t2"):
        queue_new_file(project, "tests/test_m.py", f"def test_{node}():\n    pass\n", node)
    page = client.get("/change/test-t1").text
    assert "Created by 1 other pending change(s) too" in page, page
    assert '<a href="/change/test-t2">test-t2</a>' in page
    assert "other pending change" not in client.get("/change/lint-n1").text


def test_accept_selected_hunks_writes_exactly_them(client: TestClient, project: Path) -> None:
    credentials: Credentials = client.app.state.site.credentials  # type: ignore[attr-defined]
    response = client.post(
        "/change/lint-n1/accept",
        data={"csrf_token": credentials.csrf_token, "mode": "selected", "hunk": ["1", "3"]},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/?done=accepted&id=lint-n1&hunks=1%2C3"
    expected = OLD.replace("x1 = 1\n", "x1 = 100\n").replace("x28 = 28\n", "x28 = 28\ny = 0\n")
    assert (project / "m.py").read_text() == expected
    with ResultsDB(project) as db:
        record = db.get("lint-n1")
    assert record is not None and record.review_state == "accepted"
    assert record.accepted_hunks == [1, 3]
    assert (
        "hunks 1,3; the other hunks were discarded" in client.get(response.headers["location"]).text
    )


def test_reject_with_a_reason_stores_it_and_shows_the_decided_change(
    client: TestClient, project: Path
) -> None:
    credentials: Credentials = client.app.state.site.credentials  # type: ignore[attr-defined]
    response = client.post(
        "/change/docstring-n2/reject",
        data={"csrf_token": credentials.csrf_token, "reason": "no module docstrings here"},
    )
    assert response.status_code == 200 and "the reason is stored with the node" in response.text
    assert (project / "n.py").read_text() == "import os\nN = 1\n"
    with ResultsDB(project) as db:
        record = db.list(states=["rejected"])[0]
    assert record.reject_reason == "no module docstrings here"
    rejected = client.get("/?state=rejected").text
    assert "no module docstrings here" in rejected
    decided = client.get(f"/change/{record.result_id}")
    assert decided.status_code == 200 and "+&#34;&#34;&#34;N.&#34;&#34;&#34;" in decided.text


def test_a_conflict_writes_nothing_and_says_which_file(client: TestClient, project: Path) -> None:
    credentials: Credentials = client.app.state.site.credentials  # type: ignore[attr-defined]
    edited = OLD.replace("x1 = 1\n", "x1 = -1\n")  # a line the change replaces too
    (project / "m.py").write_text(edited)
    page = client.get("/change/lint-n1").text
    assert "Conflict with the file as it is now" in page and "line 2 changed" in page
    response = client.post(
        "/change/lint-n1/accept", data={"csrf_token": credentials.csrf_token, "mode": "all"}
    )
    assert response.status_code == 409
    assert "Conflict: nothing was written" in response.text and "m.py" in response.text
    assert "line 2 changed in the project since the agent read it" in response.text
    assert (project / "m.py").read_text() == edited
    assert WorkspaceStore(project).exists("lint-n1")


def test_an_edit_on_other_lines_is_kept_by_the_accept(client: TestClient, project: Path) -> None:
    credentials: Credentials = client.app.state.site.credentials  # type: ignore[attr-defined]
    (project / "m.py").write_text("# edited by the user\n" + OLD)
    response = client.post(
        "/change/lint-n1/accept",
        data={"csrf_token": credentials.csrf_token, "mode": "all"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert (project / "m.py").read_text() == "# edited by the user\n" + NEW


def test_bad_hunk_choices_are_clear_errors(client: TestClient, project: Path) -> None:
    credentials: Credentials = client.app.state.site.credentials  # type: ignore[attr-defined]
    none = client.post(
        "/change/lint-n1/accept", data={"csrf_token": credentials.csrf_token, "mode": "selected"}
    )
    assert none.status_code == 400 and "No hunk selected" in none.text
    unknown = client.post(
        "/change/lint-n1/accept",
        data={"csrf_token": credentials.csrf_token, "mode": "selected", "hunk": "9"},
    )
    assert unknown.status_code == 400 and "no hunk 9" in unknown.text
    assert (project / "m.py").read_text() == OLD
    assert NEW != OLD


def test_an_unknown_change_is_404(client: TestClient) -> None:
    response = client.get("/change/lint-nope")
    assert response.status_code == 404 and "No change" in response.text


def test_runs_page_and_json_give_progress_and_counts(client: TestClient, project: Path) -> None:
    with ResultsDB(project) as db:
        running = db.start_run("analyze", {"operations": ["lint"], "nodes": 4, "tasks": 4})
        db.record_result(
            running, {"node_id": "a", "file_path": "m.py"}, "lint", {"status": "failed"}
        )
    runs = {run["run_id"]: run for run in client.get("/api/runs").json()["runs"]}
    assert runs[running]["running"] and runs[running]["done"] == 1
    assert runs[running]["tasks"] == 4 and runs[running]["failed"] == 1
    finished = next(r for r in runs.values() if not r["running"])
    assert finished["tasks"] == 4 and finished["statuses"] == {"success": 2}
    assert finished["reviews"] == {"pending": 2}
    page = client.get("/runs").text
    assert f'id="run-{running}"' in page and 'data-running="yes"' in page
    assert 'id="retry-rejected" disabled' in page  # nothing rejected with a reason yet
