"""Sharding analyze over host processes (coordinator/shards.py): whole files, balance, the
split of -j and of each server's max_in_flight, and the refusal of models not served."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from coordinator_support import make_config, make_project, nodes_of

from remora.agents import AgentRegistry
from remora.config import ModelConfig
from remora.config.loading import LoadedConfig
from remora.coordinator import TaskOutcome, plan_operations, plan_tasks
from remora.coordinator.report import outcome_from_dict
from remora.coordinator.server_states import merge_server_states
from remora.coordinator.shard_child import Channel, ChannelProgress, shared_limits
from remora.coordinator.shard_parent import forward_lines
from remora.coordinator.shards import (
    AUTO_MAX_PROCESSES,
    LINES_PER_RUN,
    MIN_RUNS_PER_PROCESS,
    FilePool,
    ShardPlan,
    hold_back,
    host_processes,
    jobs_per_process,
    partition,
    plan_shards,
)
from remora.coordinator.tasks import OperationPlan, Task
from remora.discovery.node import CSTNode, make_node_id
from remora.errors import UsageError
from remora.providers.shared_slots import SlotPools, join_slots
from remora.runner import AgentResult, ResultError

SERVER = ModelConfig(provider="openai", id="served", base_url="http://127.0.0.1:9/v1")
EMBEDDED = ModelConfig()


def _node(path: str, name: str, start: int) -> CSTNode:
    text = f"def {name}(): pass\n"
    return CSTNode(
        make_node_id(path, name, "function"), "function", name, name, path,
        start, start + len(text), start, start, text,
    )  # fmt: skip


def _files(sizes: dict[str, int]) -> list[CSTNode]:
    return [_node(path, f"f{i}", i) for path, count in sizes.items() for i in range(count)]


def test_partition_keeps_whole_files_that_fit_and_every_node_in_order() -> None:
    nodes = _files({"a.py": 5, "b.py": 1, "c.py": 3, "d.py": 4, "e.py": 2})
    shards = partition(nodes, 3)
    assert sorted(p for s in shards for p in s.files) == ["a.py", "b.py", "c.py", "d.py", "e.py"]
    for shard in shards:
        assert {n.file_path for n in shard.nodes} == set(shard.files)
        assert list(shard.nodes) == [n for n in nodes if n.file_path in shard.files]
    assert sum(len(s.nodes) for s in shards) == len(nodes)
    assert [s.index for s in shards] == [0, 1, 2]


def test_partition_balances_by_weight_not_by_order() -> None:
    # In discovery order, two halves would be 60 + 4 against 4 + 4.
    nodes = _files({"big1.py": 1, "big2.py": 1, "s1.py": 1, "s2.py": 1, "s3.py": 1, "s4.py": 1})
    weights = {"big1.py": 30, "big2.py": 30, "s1.py": 2, "s2.py": 2, "s3.py": 2, "s4.py": 2}
    loads = sorted(s.weight for s in partition(nodes, 2, weights))
    assert loads == [34, 34]


@pytest.mark.parametrize("count", [2, 3, 4, 7])
def test_partition_is_within_a_third_of_the_best(count: int) -> None:
    sizes = {f"m{i}.py": (i * 37) % 23 + 1 for i in range(40)}
    shards = partition(_files(sizes), count)
    best = max(max(sizes.values()), -(-sum(sizes.values()) // count))
    assert max(s.weight for s in shards) <= best * 4 / 3
    assert sum(s.weight for s in shards) == sum(sizes.values())


def test_partition_leaves_out_empty_shards() -> None:
    shards = partition(_files({"a.py": 1, "b.py": 1}), 5)
    assert sorted(s.files for s in shards) == [("a.py",), ("b.py",)]


def test_a_file_heavier_than_a_process_share_is_cut_and_the_lightest_shard_comes_first() -> None:
    nodes = _files({"core.py": 12, "a.py": 3, "b.py": 3, "c.py": 2})  # core.py: 12 of 20
    shards = partition(nodes, 4)  # a share is 5: core.py (12) in four runs of 3 nodes
    cut = [[n.name for n in s.nodes if n.file_path == "core.py"] for s in shards]
    assert sorted(name for names in cut for name in names) == sorted(f"f{i}" for i in range(12))
    assert sorted(map(len, cut)) == [3, 3, 3, 3]
    assert sum(len(s.nodes) for s in shards) == len(nodes)
    for shard in shards:
        assert list(shard.nodes) == [n for n in nodes if n in shard.nodes]  # discovery order
    weights = [s.weight for s in shards]
    assert weights == sorted(weights) and max(weights) - min(weights) <= 3
    assert [s.index for s in shards] == [0, 1, 2, 3]


def test_the_lightest_files_are_held_back_for_whoever_runs_dry_heaviest_first() -> None:
    sizes = {"a.py": 9, "b.py": 1, "c.py": 6, "d.py": 2, "e.py": 3, "f.py": 1}
    nodes = _files(sizes)
    weights = {path: float(count) for path, count in sizes.items()}
    planned, pool = hold_back(nodes, 2, weights, share=0.3)
    # 30% of 22 is 6.6: the lightest files while they fit (1 + 1 + 2 + 3 would be 7).
    assert pool == ("d.py", "f.py", "b.py")
    assert [n.file_path for n in planned] == [
        n.file_path for n in nodes if n.file_path in ("a.py", "c.py", "e.py")
    ]
    assert hold_back(nodes, 5, weights)[1] == ("b.py",)  # five files stay to be partitioned
    assert hold_back(nodes, 2, weights, share=0.0) == (nodes, ())


def test_the_pool_hands_each_file_out_once_with_its_tasks() -> None:
    nodes = _files({"a.py": 2, "b.py": 1, "c.py": 3})
    note = OperationPlan("note", None)
    tasks = [Task(n, "note", note) for n in nodes]
    plan = ShardPlan({}, tasks, [], 4, pool=("c.py", "b.py"), pool_nodes=tuple(nodes[2:]))
    pool, held = FilePool(plan), [tasks[0]]
    assert pool.hand_out(held) == ["c.py"] and pool.nodes(["c.py"]) == nodes[3:]
    assert held == [tasks[0], *tasks[3:]]
    assert pool.hand_out(held) == ["b.py"] and held[-1] is tasks[2]
    assert pool.hand_out(held) == [] and len(held) == 5


def test_agents_are_shared_out_rounding_up() -> None:
    assert jobs_per_process(64, 3) == 22 and jobs_per_process(4, 4) == 1


def test_one_process_is_today_whatever_the_model() -> None:
    assert host_processes(1, [("lint", EMBEDDED)], files=50, runs=5000, jobs=4) == 1


def test_a_number_is_capped_by_files_and_agents_at_once() -> None:
    models = [("lint", SERVER), ("docstring", SERVER)]
    assert host_processes(4, models, files=50, runs=10, jobs=64) == 4
    assert host_processes(4, models, files=3, runs=10, jobs=64) == 3
    assert host_processes(4, models, files=50, runs=10, jobs=2) == 2


@pytest.mark.parametrize("model", [EMBEDDED, ModelConfig(provider="llm", id="gpt-4o-mini")])
def test_a_model_not_served_is_refused_by_name(model: ModelConfig) -> None:
    with pytest.raises(UsageError) as caught:
        host_processes(4, [("lint", SERVER), ("docstring", model)], files=9, runs=9, jobs=9)
    message = caught.value.message
    assert "--processes 4" in message and repr(model.id) in message and "'docstring'" in message
    assert "--processes 1" in caught.value.hint
    if model.provider == "embedded":
        assert "remora models serve" in caught.value.hint


def test_auto_shards_only_server_models_and_only_large_runs() -> None:
    served = [("lint", SERVER)]
    runs = MIN_RUNS_PER_PROCESS * 100
    assert host_processes("auto", [("lint", EMBEDDED)], files=99, runs=runs, jobs=99) == 1
    assert host_processes("auto", [*served, ("x", EMBEDDED)], files=99, runs=runs, jobs=99) == 1
    assert host_processes("auto", served, files=99, runs=runs, jobs=99, cpus=2) == 2
    assert host_processes("auto", served, files=99, runs=runs, jobs=99, cpus=64) == (
        AUTO_MAX_PROCESSES
    )
    small = 2 * MIN_RUNS_PER_PROCESS - 1
    assert host_processes("auto", served, files=99, runs=small, jobs=99, cpus=8) == 1


def _loaded(root: Path, **sections: object) -> LoadedConfig:
    model = {"provider": "openai", "id": "served", "base_url": "http://127.0.0.1:9/v1"}
    config = make_config(root, model={**model, "max_in_flight": 5}, **sections)
    return LoadedConfig(config, project_root=root)


def test_plan_shards_splits_the_batch_as_one_process_would_run_it(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    loaded = _loaded(root, sandbox={"host_processes": 2})
    registry = AgentRegistry(loaded.config.agents_dir, project_root=root)
    nodes = nodes_of(root)
    plan = plan_shards(loaded, plan_operations(["note"], loaded.config, registry), nodes)
    assert plan is not None
    expected = plan_tasks(nodes, plan_operations(["note"], loaded.config, registry))
    assert [(t.node.node_id, t.operation) for t in plan.tasks] == [
        (t.node.node_id, t.operation) for t in expected
    ]
    # The runnable tasks (functions, methods) of each file, weighed by its lines (6 and 7):
    # the lighter first (the parent runs it).
    assert [(s.files, s.weight) for s in plan.shards] == [
        (("pkg/alpha.py",), 2 * (1 + 6 / LINES_PER_RUN)),
        (("pkg/beta.py",), 2 * (1 + 7 / LINES_PER_RUN)),
    ]
    assert plan.total_jobs == 8 and plan.jobs == 4  # -j by default: 1.5 × max_in_flight, split
    assert plan.pool == ()  # two files for two processes: none held back
    assert sorted(n.node_id for s in plan.shards for n in s.nodes) == sorted(
        n.node_id for n in nodes
    )
    only = {(t.node.node_id, t.operation) for t in expected if t.node.file_path == "pkg/alpha.py"}
    assert (
        plan_shards(loaded, plan_operations(["note"], loaded.config, registry), nodes, only) is None
    )  # one file left


def test_plan_shards_refuses_a_local_model_and_skips_one_process(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    loaded = LoadedConfig(make_config(root, sandbox={"host_processes": 2}), project_root=root)
    registry = AgentRegistry(loaded.config.agents_dir, project_root=root)
    with pytest.raises(UsageError, match="scripted model 'note-model'"):
        plan_shards(loaded, plan_operations(["note"], loaded.config, registry), nodes_of(root))
    one = _loaded(root)
    assert plan_shards(one, plan_operations(["note"], one.config, registry), nodes_of(root)) is None


def test_each_process_takes_each_servers_slots_from_one_pool(tmp_path: Path) -> None:
    model = SERVER.model_copy(
        update={"max_in_flight": 5, "base_url": ["http://a/v1", "http://b/v1"]}
    )
    pools = SlotPools.for_models([model], 2, tmp_path)
    servers = [
        shared_limits(join_slots(pools.spec, i))(model, None).router.servers  # type: ignore[attr-defined]
        for i in range(2)
    ]
    assert [[s.ceiling for s in each] for each in servers] == [[5, 5], [5, 5]]
    first, second = (each[1].slots for each in servers)  # server b as each process sees it
    assert [first.take() for _ in range(3)] + [second.take() for _ in range(3)] == [True] * 5 + [
        False
    ]
    pools.close()


def test_server_states_merge_sums_and_keeps_the_worst_state() -> None:
    def row(url: str, state: str, served: int, limit: int) -> dict[str, object]:
        return {"model": "m", "url": url, "state": state, "in_flight": 1, "served": served,
                "failed": 0, "throttled": 0, "limit": limit, "max_in_flight": 8,
                "back_in_s": 0.0, "last_error": ""}  # fmt: skip

    merged = merge_server_states(
        [
            [row("http://a", "in rotation", 10, 8), row("http://b", "in rotation", 4, 8)],
            [row("http://a", "cooling down", 7, 4)],
        ]
    )
    assert [(r["url"], r["state"], r["served"], r["limit"], r["in_flight"]) for r in merged] == [
        ("http://a", "cooling down", 17, 12, 2),
        ("http://b", "in rotation", 4, 8, 1),
    ]


def test_server_states_merge_shows_shared_slots_once() -> None:
    def row(in_flight: int, limit: int) -> dict[str, object]:
        return {"model": "m", "url": "http://a", "state": "in rotation", "in_flight": in_flight,
                "served": 1, "failed": 0, "throttled": 0, "limit": limit, "max_in_flight": 8,
                "back_in_s": 0.0, "last_error": "", "shared": True}  # fmt: skip

    (merged,) = merge_server_states([[row(3, 8)], [row(5, 8)], [row(0, 4)]])
    assert (merged["in_flight"], merged["limit"], merged["max_in_flight"]) == (8, 8, 8)


def test_an_outcome_sent_by_a_shard_reads_back_the_same() -> None:
    node = _node("a.py", "f", 1)
    result = AgentResult(
        "failed",
        workspace_id="lint-x",
        changed_files=["a.py"],
        summary="s",
        details={"transcript": {"tools": [{"name": "t"}]}},
        error=ResultError("AGENT_003", "turns"),
        turns=3,
        duration_s=1.25,
        degraded=True,
    )
    outcome = TaskOutcome(node, "lint", result, "r1", "pending", ("a.py",), reused=True)
    assert outcome_from_dict(outcome.to_dict(), node) == outcome


@pytest.mark.parametrize("details", [True, False])
def test_a_shard_sends_details_only_when_asked(details: bool) -> None:
    # Through a real pipe, as the parent reads it: `remora analyze` in a table wants none.
    node = _node("a.py", "f", 1)
    result = AgentResult("success", summary="s", details={"tools": [{"name": "t", "ok": True}]})
    outcome = TaskOutcome(node, "lint", result, "r1")
    read_fd, write_fd = os.pipe()
    channel = Channel(write_fd)
    ChannelProgress(channel, details).task_done(outcome)
    channel.close()
    with os.fdopen(read_fd, "rb") as pipe:
        (line,) = pipe.read().splitlines()
    message = json.loads(line)
    assert message["t"] == "done"
    sent = outcome_from_dict(message["outcome"], node)
    assert sent == (outcome if details else outcome.without_details())
    assert sent.result.details == (result.details if details else {})
    assert sent.result.summary == "s" and sent.result_id == "r1"


async def test_a_shards_stderr_reaches_the_user_line_by_line() -> None:
    stream = asyncio.StreamReader()
    for piece in (b"warning: one\nerr", b"or: two\n", b"\xff tail without newline"):
        stream.feed_data(piece)
    stream.feed_eof()
    lines: list[str] = []
    await forward_lines(stream, lines.append)
    assert lines == ["warning: one", "error: two", "\ufffd tail without newline"]
