"""A change rejected with a reason: told to the next run, never queued again unchanged."""

from __future__ import annotations

from pathlib import Path

from coordinator_support import make_config, make_project, node_name_of, nodes_of
from coordinator_support import provider_factory as factory_for

from remora.agents import AgentRegistry
from remora.conversation import ModelRequest, ModelTurn
from remora.coordinator import AnalyzeReport, Coordinator
from remora.coordinator.rejections import rerun_plan
from remora.providers.scripted import tool_turn
from remora.results import ResultsDB
from remora.results.review_queue import reject
from remora.workspace import WorkspaceStore

REASON = "say what it returns"


def note_model(seen: list[str], improved: bool) -> object:
    """Writes a note (a better one when told a reason and ``improved``), then submits."""

    async def turn(request: ModelRequest) -> ModelTurn:
        first = next(m.text for m in request.messages if m.role == "user")
        seen.append(first)
        name = node_name_of(request)
        if not any(m.role == "assistant" for m in request.messages):
            told = "[Review]" in first
            text = f"{name} returns a number" if told and improved else f"about {name}"
            return tool_turn(("write_note", {"text": text}))
        return tool_turn(("submit_result", {"summary": f"noted {name}"}))

    return turn


async def analyze(
    root: Path, model: object, *, retry: bool = False, names: tuple[str, ...] = ("one",)
) -> AnalyzeReport:
    nodes = [n for n in nodes_of(root) if n.full_name in names]
    async with Coordinator(
        make_config(root),
        root,
        registry=AgentRegistry(root / "agents"),
        provider_factory=factory_for(model),  # type: ignore[arg-type]
    ) as coordinator:
        if not retry:
            return await coordinator.analyze(nodes, ["note"])
        assert coordinator.db is not None
        plan = rerun_plan(coordinator.db, nodes, None)
        return await coordinator.analyze(plan.nodes, plan.operations, only=plan.pairs)


async def rejected_first_run(root: Path) -> str:
    report = await analyze(root, note_model([], improved=False), names=("one", "two"))
    workspace_id = next(o.result.workspace_id for o in report.outcomes if o.node.full_name == "one")
    assert workspace_id is not None
    with ResultsDB(root) as db:
        reject(WorkspaceStore(root), db, workspace_id, REASON)
    return workspace_id


async def test_the_retry_runs_only_the_rejected_node_and_tells_it_the_reason(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    await rejected_first_run(root)
    seen: list[str] = []
    report = await analyze(root, note_model(seen, improved=True), retry=True, names=("one", "two"))
    assert [(o.node.full_name, o.operation) for o in report.outcomes] == [("one", "note")]
    assert f"Reason: {REASON}" in seen[0] and "+fancy: about one" in seen[0]
    outcome = report.outcomes[0]
    assert outcome.result.status == "success" and outcome.review == "pending"
    assert outcome.result.details["transcript"] == {
        "model": "scripted:note-model",
        "tools": [
            {"name": "write_note", "ok": True, "arguments": "text='one returns a number'"},
            {"name": "submit_result", "ok": True, "arguments": "summary='noted one'"},
        ],
    }
    with ResultsDB(root) as db:
        assert db.open_rejections() == []  # answered by the new run
        assert db.get(outcome.result_id or "") is not None
        plan = rerun_plan(db, nodes_of(root), None)
    assert plan.pairs == set()


async def test_the_same_change_again_is_not_queued(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    await rejected_first_run(root)
    report = await analyze(root, note_model([], improved=False), retry=True)
    outcome = report.outcomes[0]
    assert outcome.result.status == "skipped" and outcome.review == "none"
    assert "proposed the change rejected before (say what it returns)" in outcome.result.summary
    # only node two's change from the first run is still waiting
    assert not [i for i in WorkspaceStore(root).ids() if outcome.node.node_id in i]
    assert len(WorkspaceStore(root).ids()) == 1
    with ResultsDB(root) as db:
        record = db.get(outcome.result_id or "")
    assert record is not None and record.review_state == "none"
    assert record.details["repeat_of_rejected"]


async def test_a_plain_run_is_told_the_reason_too_and_a_reject_without_one_is_not_retried(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    await rejected_first_run(root)
    seen: list[str] = []
    await analyze(root, note_model(seen, improved=True))
    assert "[Review]" in seen[0]
    report = await analyze(root, note_model([], improved=False), names=("two",))
    with ResultsDB(root) as db:
        reject(WorkspaceStore(root), db, report.outcomes[0].result.workspace_id or "", None)
        assert {r.node_name for r in db.open_rejections()} == set()
