"""Red team, the library's arguments (issue 54): checked strictly at the edge, each wrong
one a ``UsageError`` naming it, before anything runs or is written. Shown by hand:
``python -c 'import remora; remora.analyze("P", auto_accept="no")'``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from red_team_support import CHANGE_ID, PRICING, make_project

from remora import analyze, review
from remora.errors import UsageError

SCRIPTED = {"provider": "scripted"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "shop")


def test_auto_accept_no_is_refused_and_the_project_is_untouched(project: Path) -> None:
    with pytest.raises(UsageError, match="auto_accept: expected True or False, got str 'no'"):
        analyze(project, operations="lint", auto_accept="no", model=SCRIPTED)  # type: ignore[arg-type]
    assert (project / "pricing.py").read_text() == PRICING


def test_one_string_is_one_node_type_and_one_change_id(project: Path) -> None:
    (project / "turns.json").write_text("[]")  # no model turn: lint's host steps only
    analysis = analyze(
        project / "pricing.py",
        operations="lint",
        node_types="function",
        model={**SCRIPTED, "path": str(project / "turns.json")},
    )
    assert {outcome.node.node_type for outcome in analysis.outcomes} == {"function"}
    [shown] = [item.id for item in review.list_changes(project)]
    [outcome] = review.accept(shown, project=project)  # not the ids l, i, n, t, ...
    assert outcome.accepted and outcome.workspace_id == shown
    assert (project / "pricing.py").read_text() != PRICING


def test_one_string_is_one_id_to_reject(project: Path) -> None:
    assert review.reject(CHANGE_ID, project=project) == [CHANGE_ID]
    assert (project / "pricing.py").read_text() == PRICING


WRONG: dict[str, tuple[str, Callable[[Path], Any]]] = {
    "analyze(123)": ("paths", lambda p: analyze(123)),  # type: ignore[arg-type]
    "analyze(None)": ("paths", lambda p: analyze(None)),  # type: ignore[arg-type]
    "analyze(b'x')": ("paths", lambda p: analyze(b"x")),  # type: ignore[arg-type]
    "analyze([p, 1])": ("paths[1]", lambda p: analyze([p, 1])),  # type: ignore[list-item]
    "operations=5": ("operations", lambda p: analyze(p, operations=5)),  # type: ignore[arg-type]
    "operations=[None]": ("operations[0]", lambda p: analyze(p, operations=[None])),  # type: ignore[list-item]
    "model=5": ("model", lambda p: analyze(p, model=5)),  # type: ignore[arg-type]
    "project=3": ("project", lambda p: analyze(p, project=3)),  # type: ignore[arg-type]
    "config='notadict'": ("config", lambda p: analyze(p, config="notadict")),  # type: ignore[arg-type]
    "config={1: 2}": ("config", lambda p: analyze(p, config={1: 2})),  # type: ignore[dict-item]
    "node_types=7": ("node_types", lambda p: analyze(p, node_types=7)),  # type: ignore[arg-type]
    "force='yes'": ("force", lambda p: analyze(p, force="yes")),  # type: ignore[arg-type]
    "force=1": ("force", lambda p: analyze(p, force=1)),  # type: ignore[arg-type]
    "auto_accept=None": ("auto_accept", lambda p: analyze(p, auto_accept=None)),  # type: ignore[arg-type]
    "list_changes(3)": ("project", lambda p: review.list_changes(3)),  # type: ignore[arg-type]
    "list_changes(include_empty='no')": (
        "include_empty",
        lambda p: review.list_changes(p, include_empty="no"),  # type: ignore[arg-type]
    ),
    "show(None)": ("workspace_id", lambda p: review.show(None, project=p)),  # type: ignore[arg-type]
    "show(5)": ("workspace_id", lambda p: review.show(5, project=p)),  # type: ignore[arg-type]
    "show(project=[])": ("project", lambda p: review.show(CHANGE_ID, project=[])),  # type: ignore[arg-type]
    "accept(5)": ("workspace_ids", lambda p: review.accept(5, project=p)),  # type: ignore[arg-type]
    "accept([None])": ("workspace_ids[0]", lambda p: review.accept([None], project=p)),  # type: ignore[list-item]
    "accept(every='yes')": ("every", lambda p: review.accept(every="yes", project=p)),  # type: ignore[arg-type]
    "accept(hunks='1')": ("hunks", lambda p: review.accept(CHANGE_ID, project=p, hunks="1")),  # type: ignore[arg-type]
    "accept(hunks=[True])": (
        "hunks",
        lambda p: review.accept(CHANGE_ID, project=p, hunks=[True]),
    ),
    "reject(every=1)": ("every", lambda p: review.reject(every=1, project=p)),  # type: ignore[arg-type]
    "reject(reason=3)": ("reason", lambda p: review.reject(CHANGE_ID, project=p, reason=3)),  # type: ignore[arg-type]
    "reject({})": ("workspace_ids", lambda p: review.reject({}, project=p)),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("call", list(WRONG))
def test_a_wrong_type_is_a_usage_error_naming_the_argument(project: Path, call: str) -> None:
    argument, run = WRONG[call]
    with pytest.raises(UsageError) as info:
        run(project)
    assert info.value.message.startswith(f"{argument}: expected "), info.value.message
    assert (project / "pricing.py").read_text() == PRICING
    assert [item.id for item in review.list_changes(project)] == [CHANGE_ID]
