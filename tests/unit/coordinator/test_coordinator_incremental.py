"""Incremental analyze: unchanged node × operation pairs keep their result and are not run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from coordinator_support import make_config, make_project, nodes_of, note_model, provider_factory

from remora.agents import AgentRegistry
from remora.coordinator import AnalyzeReport, Coordinator
from remora.providers.base import Provider
from remora.providers.scripted import FunctionProvider
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore


async def analyze(
    root: Path, *, force: bool = False, style: str = "fancy", model: dict[str, Any] | None = None
) -> tuple[AnalyzeReport, int]:
    """One analyze of the note operation; the report and how many model requests it made."""
    created: list[Provider] = []
    config = make_config(
        root, operations={"note": {"options": {"style": style}}}, model=model or {}
    )
    async with Coordinator(
        config,
        root,
        registry=AgentRegistry(root / "agents"),
        provider_factory=provider_factory(note_model(), created),
    ) as coordinator:
        report = await coordinator.analyze(nodes_of(root), ["note"], force=force)
    requests = sum(len(p.requests) for p in created if isinstance(p, FunctionProvider))
    return report, requests


def kept(report: AnalyzeReport) -> set[str]:
    return {o.node.full_name for o in report.outcomes if o.reused}


async def test_a_second_run_of_an_unchanged_project_runs_nothing(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    first, asked = await analyze(root)
    assert asked == 8 and kept(first) == set()
    second, asked_again = await analyze(root)
    assert asked_again == 0
    assert kept(second) == {"one", "two", "Box.open", "three"}
    before = {o.node.full_name: o for o in first.outcomes}
    for outcome in second.outcomes:
        if outcome.reused:
            # The earlier result and its pending change stand, as they were.
            assert outcome.result_id == before[outcome.node.full_name].result_id
            assert outcome.review == "pending"
            assert outcome.result.workspace_id == before[outcome.node.full_name].result.workspace_id
    assert second.to_dict()["reused"] == 4
    with ResultsDB(root) as db:
        assert len(db.pending()) == 4


async def test_editing_a_node_reruns_only_that_node(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    await analyze(root)
    alpha = root / "pkg" / "alpha.py"
    alpha.write_text(alpha.read_text().replace("return 2", "return 22"))
    second, asked = await analyze(root)
    assert asked == 2
    assert kept(second) == {"one", "Box.open", "three"}


async def test_force_options_and_agent_edits_run_again(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    await analyze(root)
    assert (await analyze(root, force=True))[1] == 8
    assert (await analyze(root, style="plain"))[1] == 8
    script = root / "agents" / "note" / "tools" / "write_note.pym"
    script.write_text(script.read_text() + "\n")
    assert (await analyze(root, style="plain"))[1] == 8
    assert (await analyze(root, style="plain"))[1] == 0


async def test_engine_scheduling_settings_keep_results_and_model_settings_do_not(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    await analyze(root)
    scheduling = {"n_parallel": 3, "prompt_cache_mib": 32, "threads": 1, "timeout": 5}
    assert (await analyze(root, model=scheduling))[1] == 0
    assert (await analyze(root, model={**scheduling, "n_ctx_per_slot": 2048}))[1] == 8


async def test_an_accepted_or_rejected_change_makes_the_node_new_again(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    first, _ = await analyze(root)
    by_name = {o.node.full_name: o for o in first.outcomes}
    store = WorkspaceStore(root)
    with ResultsDB(root) as db:
        rejected = by_name["one"].result.workspace_id
        assert rejected is not None
        store.reject(rejected)
        db.set_review_state(rejected, "rejected")
    second, asked = await analyze(root)
    assert asked == 2 and "one" not in kept(second)


async def test_a_pending_change_whose_workspace_is_gone_runs_again(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    first, _ = await analyze(root)
    gone = next(o for o in first.outcomes if o.node.full_name == "three").result.workspace_id
    assert gone is not None
    WorkspaceStore(root).discard(gone)
    second, asked = await analyze(root)
    assert asked == 2 and kept(second) == {"one", "two", "Box.open"}


async def test_a_change_in_conflict_with_the_file_as_it_is_now_runs_again(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    first, _ = await analyze(root)
    clash = next(o for o in first.outcomes if o.node.full_name == "two").result.workspace_id
    assert clash is not None
    with ResultsDB(root) as db:
        db.set_review_state(clash, "conflict")  # as settle_conflicts records it after an accept
    second, asked = await analyze(root)
    assert asked == 2 and "two" not in kept(second)
