"""A new run of a node never destroys the change waiting for review from an earlier one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from coordinator_support import make_config, make_project, node_name_of, nodes_of, note_model
from coordinator_support import provider_factory as factory_for

from remora.agents import AgentRegistry
from remora.conversation import ModelRequest, ModelTurn
from remora.coordinator import Coordinator
from remora.errors import ModelUnavailableError
from remora.providers.scripted import tool_turn
from remora.results import ResultsDB
from remora.runner import AgentResult
from remora.workspace import WorkspaceStore


def _one(root: Path) -> list:  # type: ignore[type-arg]
    return [n for n in nodes_of(root) if n.full_name == "one"]


async def _run(root: Path, fn: Callable[[ModelRequest], Any]) -> AgentResult:
    """Node ``one``'s note operation, run again whatever was recorded, with model ``fn``."""
    async with Coordinator(
        make_config(root),
        root,
        registry=AgentRegistry(root / "agents"),
        provider_factory=factory_for(fn),
    ) as coordinator:
        # force: these tests are about re-runs of an unchanged node
        report = await coordinator.analyze(_one(root), ["note"], force=True)
    return report.outcomes[0].result


async def _analyze(root: Path, model: object = None) -> str | None:
    fn = note_model(model) if model is not None else note_model()  # type: ignore[arg-type]
    return (await _run(root, fn)).workspace_id


async def test_an_interrupted_rerun_keeps_the_pending_change_a_finished_one_replaces_it(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    first = await _analyze(root)
    assert first is not None
    store = WorkspaceStore(root)
    reached = asyncio.Event()

    async def hold(request: ModelRequest) -> None:
        reached.set()
        await asyncio.Event().wait()  # interrupted (Ctrl-C) before it finishes

    job = asyncio.create_task(_analyze(root, hold))
    await reached.wait()
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    assert store.ids() == [first]
    with ResultsDB(root) as db:
        assert db.get(first) is not None and db.get(first).review_state == "pending"  # type: ignore[union-attr]

    second = await _analyze(root)
    assert second is not None and second != first
    assert store.ids() == [second]
    with ResultsDB(root) as db:
        assert db.get(first).review_state == "superseded"  # type: ignore[union-attr]
        assert db.get(second).review_state == "pending"  # type: ignore[union-attr]


async def test_concurrent_runs_of_one_node_get_distinct_workspaces(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    both_started = asyncio.Barrier(2)

    async def meet(request: ModelRequest) -> None:
        if node_name_of(request) == "one" and request.messages[-1].role != "tool":
            await asyncio.wait_for(both_started.wait(), timeout=10)

    ids = await asyncio.gather(_analyze(root, meet), _analyze(root, meet))
    assert None not in ids and ids[0] != ids[1]


async def test_auto_accept_skips_a_change_it_cannot_take_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import remora.workspace.lock as lock_module
    from remora.workspace.lock import project_lock

    root = make_project(tmp_path)
    monkeypatch.setattr(lock_module, "DEFAULT_WAIT_S", 0.2)
    nodes = [n for n in nodes_of(root) if n.full_name in ("one", "two")]
    held = project_lock(root, 1)
    async with Coordinator(
        make_config(root),
        root,
        registry=AgentRegistry(root / "agents"),
        provider_factory=factory_for(note_model()),
    ) as coordinator:
        with held:  # another process would hold it the same way: flock is per open file
            report = await coordinator.analyze(nodes, ["note"], auto_accept=True)
    assert [o.review for o in report.outcomes] == ["pending", "pending"]
    assert not (root / "notes").exists()


async def test_a_rerun_that_proposes_nothing_retires_the_older_change(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    first = await _analyze(root)
    assert first is not None

    async def nothing(request: ModelRequest) -> ModelTurn:  # the new run writes no note
        return tool_turn(("submit_result", {"summary": "nothing to note"}))

    result = await _run(root, nothing)
    assert result.status != "failed"
    assert result.workspace_id is None
    assert WorkspaceStore(root).ids() == []
    with ResultsDB(root) as db:
        assert db.get(first).review_state == "superseded"  # type: ignore[union-attr]


async def test_a_failed_rerun_keeps_the_older_change(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    first = await _analyze(root)
    assert first is not None

    async def broken(request: ModelRequest) -> ModelTurn:
        raise ModelUnavailableError("the server went away")

    assert (await _run(root, broken)).status == "failed"
    assert WorkspaceStore(root).ids() == [first]
    with ResultsDB(root) as db:
        assert db.get(first).review_state == "pending"  # type: ignore[union-attr]
