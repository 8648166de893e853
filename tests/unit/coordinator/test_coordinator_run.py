"""The coordinator with real parts (sandbox, workspaces, results db); only the model is a double."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from coordinator_support import (
    ConcurrencyGate,
    make_config,
    make_project,
    node_name_of,
    nodes_of,
    note_model,
    provider_factory,
)

from remora.agents import AgentRegistry
from remora.conversation import ModelRequest
from remora.coordinator import Coordinator
from remora.discovery.node import CSTNode
from remora.errors import ModelUnavailableError, RemoraError
from remora.events import RecordingEmitter
from remora.providers.base import Availability, Provider
from remora.providers.scripted import FunctionProvider
from remora.results import ResultsDB
from remora.workspace import WorkspaceStore


def registry(root: Path) -> AgentRegistry:
    return AgentRegistry(root / "agents")


async def test_every_node_gets_one_recorded_result_and_changes_wait_for_review(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    config = make_config(root)
    nodes = nodes_of(root)
    emitter = RecordingEmitter()
    async with Coordinator(
        config,
        root,
        registry=registry(root),
        emitter=emitter,
        provider_factory=provider_factory(note_model()),
    ) as coordinator:
        report = await coordinator.analyze(nodes, ["note"])
    by_name = {o.node.full_name: o for o in report.outcomes}
    assert [o.node.node_id for o in report.outcomes] == [n.node_id for n in nodes]
    assert {n: o.result.status for n, o in by_name.items()} == {
        "pkg/alpha.py": "skipped",
        "one": "success",
        "two": "success",
        "pkg/beta.py": "skipped",
        "Box": "skipped",
        "Box.open": "success",
        "three": "success",
    }
    assert by_name["one"].result.changed_files == ["notes/one.txt"]
    assert by_name["one"].review == "pending"
    assert by_name["pkg/alpha.py"].result.summary == (
        "note runs on function, method nodes, not on a file"
    )
    assert report.exit_code == 0
    store = WorkspaceStore(root)
    assert store.ids() == sorted(
        f"note-{n.node_id}" for n in nodes if n.node_type in ("function", "method")
    )
    with store.open(by_name["Box.open"].result.workspace_id or "") as ws:
        assert ws.read("notes/Box.open.txt") == b"fancy: about Box.open\n"
    assert not (root / "notes").exists()  # nothing touches the project before review
    with ResultsDB(root) as db:
        records = db.list(run_id=report.run_id)
        assert len(records) == len(nodes)
        assert {r.review_state for r in records if r.status == "success"} == {"pending"}
        assert db.runs()[-1].finished is not None
    kinds = emitter.kinds()
    assert kinds[0] == "coordinator_start" and kinds[-1] == "coordinator_end"
    assert kinds.count("run_start") == 4 and kinds.count("run_end") == 4


@pytest.mark.parametrize("limit", [1, 3])
async def test_runs_are_concurrent_up_to_the_limit(tmp_path: Path, limit: int) -> None:
    root = make_project(tmp_path)
    config = make_config(root, sandbox={"max_concurrent_agents": limit})
    gate = ConcurrencyGate(limit)
    async with Coordinator(
        config, root, registry=registry(root), provider_factory=provider_factory(note_model(gate))
    ) as coordinator:
        report = await coordinator.analyze(nodes_of(root), ["note"])
    assert gate.peak == limit
    assert report.counts()["success"] == 4


async def test_runs_beside_the_places_start_while_one_run_talks_to_the_model(
    tmp_path: Path,
) -> None:
    """-j 1: one run has a request out, and the next runs start their host work meanwhile."""
    root = make_project(tmp_path)
    emitter = RecordingEmitter()
    under_way_meanwhile: list[int] = []

    def under_way() -> int:
        kinds = emitter.kinds()
        return kinds.count("run_start") - kinds.count("run_end")

    async def wait_for_others(request: ModelRequest) -> None:
        if node_name_of(request) == "one":
            for _ in range(500):  # bounded: one run at a time fails the test, never hangs it
                if under_way() >= 3:
                    break
                await asyncio.sleep(0.01)
            under_way_meanwhile.append(under_way())

    gate = ConcurrencyGate(1)

    async def hold(request: ModelRequest) -> None:
        await wait_for_others(request)
        await gate(request)

    config = make_config(root, sandbox={"max_concurrent_agents": 1})
    async with Coordinator(
        config,
        root,
        registry=registry(root),
        emitter=emitter,
        provider_factory=provider_factory(note_model(hold)),
    ) as coordinator:
        report = await coordinator.analyze(nodes_of(root), ["note"])
    assert report.counts()["success"] == 4
    (start,) = [e for e in emitter.events if e.kind == "coordinator_start"]
    assert start.data["max_concurrent_agents"] == 1 and start.data["runs_at_once"] == 3
    assert under_way_meanwhile[0] == 3 and gate.peak == 1  # three runs, one talking


async def test_one_provider_per_model_shared_by_all_runs(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    created: list[Provider] = []
    async with Coordinator(
        make_config(root),
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model(), created),
    ) as c:
        await c.analyze(nodes_of(root), ["note"])
        await c.analyze(nodes_of(root), ["note"], force=True)
    assert len(created) == 1
    provider = created[0]
    assert isinstance(provider, FunctionProvider)
    assert len(provider.requests) == 2 * 4 * 2 and provider.closed


async def test_an_operation_model_override_gets_its_own_provider(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "agents" / "other").mkdir()
    for name in ("agent.yaml",):
        text = (root / "agents" / "note" / name).read_text().replace("name: note", "name: other")
        (root / "agents" / "other" / name).write_text(text)
    (root / "agents" / "other" / "tools").symlink_to(root / "agents" / "note" / "tools")
    config = make_config(root, operations={"other": {"model": {"id": "bigger"}}})
    created: list[Provider] = []
    async with Coordinator(
        config,
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model(), created),
    ) as c:
        report = await c.analyze(nodes_of(root), ["note", "other"])
    assert sorted(p.model_name for p in created) == ["bigger", "note-model"]  # type: ignore[attr-defined]
    assert report.counts()["success"] == 8


async def test_a_failing_run_never_stops_the_others(tmp_path: Path) -> None:
    root = make_project(tmp_path)

    def flaky(request: ModelRequest) -> None:
        if node_name_of(request) == "two":
            raise ModelUnavailableError("connection reset by the server")

    async with Coordinator(
        make_config(root),
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model(flaky)),
    ) as c:
        report = await c.analyze(nodes_of(root), ["note"])
    by_name = {o.node.full_name: o.result for o in report.outcomes}
    assert by_name["two"].status == "failed"
    assert by_name["two"].error is not None and by_name["two"].error.code == "AGENT_002"
    assert by_name["two"].workspace_id is None
    assert [by_name[n].status for n in ("one", "Box.open", "three")] == ["success"] * 3
    assert report.exit_code == 1
    assert (
        f"note-{next(o.node.node_id for o in report.outcomes if o.node.name == 'two')}"
        not in WorkspaceStore(root).ids()
    )


async def test_nothing_succeeded_is_exit_2(tmp_path: Path) -> None:
    root = make_project(tmp_path)

    def down(request: ModelRequest) -> None:
        raise ModelUnavailableError("timed out")

    async with Coordinator(
        make_config(root),
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model(down)),
    ) as c:
        report = await c.analyze(nodes_of(root), ["note"])
    assert report.counts() == {"success": 0, "failed": 4, "skipped": 3, "changed": 0}
    assert report.exit_code == 2
    assert WorkspaceStore(root).ids() == []


async def test_a_programming_error_propagates_and_stops_the_rest(tmp_path: Path) -> None:
    root = make_project(tmp_path)

    def bug(request: ModelRequest) -> None:
        if node_name_of(request) == "one":
            raise TypeError("unexpected None")

    config = make_config(root, sandbox={"max_concurrent_agents": 2})
    with pytest.raises(TypeError, match="unexpected None"):
        async with Coordinator(
            config,
            root,
            registry=registry(root),
            provider_factory=provider_factory(note_model(bug)),
        ) as c:
            await c.analyze(nodes_of(root), ["note"])
    # The unfinished runs left no workspace; the run is closed in the results db.
    assert WorkspaceStore(root).ids() == []
    with ResultsDB(root) as db:
        assert db.runs()[-1].finished is not None


class _Down(FunctionProvider):
    async def check(self) -> Availability:
        return Availability(
            ok=False,
            model=self.model_name,
            provider="scripted",
            reason="connection refused",
            hint="start the server",
        )


async def test_an_unavailable_model_stops_before_any_agent_starts(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    created: list[_Down] = []

    def factory(model: object, profile: object) -> _Down:
        provider = _Down(note_model(), model_name="note-model")
        created.append(provider)
        return provider

    with pytest.raises(RemoraError) as caught:
        async with Coordinator(
            make_config(root), root, registry=registry(root), provider_factory=factory
        ) as c:
            await c.analyze(nodes_of(root), ["note"])
    assert caught.value.code == "AGENT_002"
    assert "note-model" in caught.value.message and "connection refused" in caught.value.message
    assert caught.value.hint == "start the server"
    assert created[0].requests == []
    with ResultsDB(root) as db:
        assert db.list() == []


async def test_a_broken_agent_fails_its_operation_and_the_others_run(tmp_path: Path) -> None:
    root = make_project(tmp_path, broken_agent=True)
    async with Coordinator(
        make_config(root),
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model()),
    ) as c:
        report = await c.analyze(nodes_of(root), ["note", "broken"])
    broken = [o for o in report.outcomes if o.operation == "broken"]
    assert len(broken) == 7
    assert {o.result.status for o in broken} == {"failed"}
    assert {o.result.error.code for o in broken if o.result.error} == {"AGENT_001"}
    assert "script not found" in broken[0].result.summary
    assert report.counts()["success"] == 4 and report.exit_code == 1


async def test_operation_options_fill_tool_inputs_the_model_never_sees(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    created: list[Provider] = []
    async with Coordinator(
        make_config(root),
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model(), created),
    ) as c:
        report = await c.analyze(nodes_of(root), ["note"])
        store = c.store
    provider = created[0]
    assert isinstance(provider, FunctionProvider)
    specs = {t.name: t for t in provider.requests[0].tools}
    assert set(specs["write_note"].parameters["properties"]) == {"text"}
    one = next(o for o in report.outcomes if o.node.name == "one")
    with store.open(one.result.workspace_id or "") as ws:
        assert ws.read("notes/one.txt") == b"fancy: about one\n"


async def test_cancelling_discards_unfinished_workspaces_and_keeps_the_db_consistent(
    tmp_path: Path,
) -> None:
    root = make_project(tmp_path)
    release = asyncio.Event()
    reached = asyncio.Event()

    async def hold(request: ModelRequest) -> None:
        if node_name_of(request) in ("Box.open", "three"):
            reached.set()
            await release.wait()  # never set: these runs are interrupted

    config = make_config(root, sandbox={"max_concurrent_agents": 1})
    async with Coordinator(
        config, root, registry=registry(root), provider_factory=provider_factory(note_model(hold))
    ) as c:
        job = asyncio.create_task(c.analyze(nodes_of(root), ["note"]))
        await reached.wait()
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
    store = WorkspaceStore(root)
    with ResultsDB(root) as db:
        records = db.list()
        finished = {r.node_name for r in records}
        # Runs beside the one place finish in any order (or not yet); the held ones never do.
        assert not finished & {"Box.open", "three"}
        assert db.runs()[-1].finished is not None
        assert sorted(store.ids()) == sorted(r.workspace_id for r in records if r.workspace_id)


async def test_auto_accept_writes_changes_and_reports_conflicts(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "agents" / "note" / "tools" / "write_note.pym").write_text(
        (root / "agents" / "note" / "tools" / "write_note.pym")
        .read_text()
        .replace('path = "notes/" + str(meta["full_name"]) + ".txt"', 'path = "notes/all.txt"')
    )
    config = make_config(root, sandbox={"max_concurrent_agents": 1})
    async with Coordinator(
        config, root, registry=registry(root), provider_factory=provider_factory(note_model())
    ) as c:
        report = await c.analyze(nodes_of(root), ["note"], auto_accept=True)
    reviews = [o.review for o in report.outcomes if o.result.status == "success"]
    assert reviews == ["accepted", "conflict", "conflict", "conflict"]
    assert (root / "notes" / "all.txt").read_text() == "fancy: about one\n"
    conflicted = next(o for o in report.outcomes if o.review == "conflict")
    assert conflicted.conflicts == ("notes/all.txt",)
    with ResultsDB(root) as db:
        states = sorted(r.review_state for r in db.list() if r.status == "success")
    assert states == ["accepted", "conflict", "conflict", "conflict"]


def note_coordinator(root: Path, emitter: RecordingEmitter | None = None) -> Coordinator:
    return Coordinator(
        make_config(root),
        root,
        registry=registry(root),
        emitter=emitter,
        provider_factory=provider_factory(note_model()),
    )


async def test_outcomes_not_kept_are_still_counted_and_recorded(tmp_path: Path) -> None:
    # A shard sends each outcome to its parent as it ends: it keeps none, counts them all.
    root = make_project(tmp_path)
    nodes = nodes_of(root)
    emitter = RecordingEmitter()
    async with note_coordinator(root, emitter) as coordinator:
        coordinator.keep_outcomes = False
        report = await coordinator.analyze(nodes, ["note"])
    assert report.outcomes == []
    counts = report.counts()
    assert counts["success"] + counts["skipped"] == len(nodes) and counts["changed"] > 0, counts
    (end,) = [e for e in emitter.events if e.kind == "coordinator_end"]
    assert end.data["counts"] == counts
    with ResultsDB(root) as db:
        assert len(db.list(run_id=report.run_id)) == len(nodes)


async def test_outcomes_kept_without_details_are_recorded_with_them(tmp_path: Path) -> None:
    # A table shows no details: `remora analyze` keeps each outcome without them, the results
    # database (what `review` and `--format json` of a later read show) keeps them whole.
    root = make_project(tmp_path)
    nodes = nodes_of(root)
    async with note_coordinator(root) as coordinator:
        coordinator.keep_details = False
        report = await coordinator.analyze(nodes, ["note"])
    succeeded = [o for o in report.outcomes if o.result.status == "success"]
    assert len(report.outcomes) == len(nodes) and succeeded
    assert all(o.result.details == {} for o in report.outcomes)
    assert all(o.result.summary.startswith("noted ") for o in succeeded)
    with ResultsDB(root) as db:
        recorded = {r.result_id: r for r in db.list(run_id=report.run_id)}
    for outcome in succeeded:
        assert outcome.result_id is not None
        transcript = recorded[outcome.result_id].details["transcript"]
        tools = [t["name"] for t in transcript["tools"]]
        assert tools == ["write_note", "submit_result"]


async def test_nodes_from_more_join_the_batch_as_its_queue_runs_dry(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    nodes = nodes_of(root)
    first = [n for n in nodes if n.file_path == "pkg/alpha.py"]
    rest = [n for n in nodes if n.file_path != "pkg/alpha.py"]
    handed: list[list[str]] = [[n.full_name for n in rest], []]
    asked = 0

    async def more() -> list[CSTNode]:
        nonlocal asked
        asked += 1
        names = handed.pop(0) if handed else []
        return [n for n in rest if n.full_name in names]

    async with Coordinator(
        make_config(root, sandbox={"max_concurrent_agents": 3}),
        root,
        registry=registry(root),
        provider_factory=provider_factory(note_model()),
    ) as coordinator:
        coordinator.more = more
        report = await coordinator.analyze(first, ["note"])
    # Every node once; the three idle workers asked in turn, not at once: once for the
    # nodes, once to hear there are no more.
    assert sorted(o.node.node_id for o in report.outcomes) == sorted(n.node_id for n in nodes)
    assert asked == 2
    statuses = {o.node.full_name: o.result.status for o in report.outcomes}
    assert statuses["three"] == statuses["Box.open"] == "success"
    assert statuses["pkg/beta.py"] == "skipped"
    with ResultsDB(root) as db:
        assert len(db.list(run_id=report.run_id)) == len(nodes)
