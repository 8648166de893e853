"""A batch's memory (coordinator/heap.py): glibc's malloc_trim once every N finished runs, and
the garbage collector's thresholds while the runs go on."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
from coordinator_support import make_config, make_project, nodes_of, note_model, provider_factory

from remora.agents import AgentRegistry
from remora.conversation import ModelRequest, ModelTurn
from remora.coordinator import Coordinator, heap
from remora.coordinator.heap import HeapTrimmer


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_malloc_trim_is_found_and_callable_on_linux() -> None:
    assert heap.malloc_trim is not None
    assert heap.malloc_trim(0) in (0, 1)  # 1: memory was released


def test_the_heap_is_trimmed_once_every_n_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(heap, "malloc_trim", lambda pad: calls.append(pad) or 0)
    trimmer = HeapTrimmer(every=3)
    for _ in range(7):
        trimmer.ran()
    assert calls == [0, 0] and trimmer.trims == 2


def test_without_malloc_trim_nothing_is_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "malloc_trim", None)
    trimmer = HeapTrimmer(every=1)
    trimmer.ran()
    assert trimmer.trims == 0


def test_fewer_collections_inside_and_the_thresholds_as_they_were_after() -> None:
    before = gc.get_threshold()
    with heap.fewer_collections():
        assert gc.get_threshold() == heap.BATCH_GC_THRESHOLDS != before
    assert gc.get_threshold() == before
    with pytest.raises(KeyError), heap.fewer_collections():
        raise KeyError("a batch that fails")
    assert gc.get_threshold() == before


async def test_a_batchs_runs_run_with_fewer_collections(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    seen: list[tuple[int, int, int]] = []
    model = note_model()

    async def turn(request: ModelRequest) -> ModelTurn:
        seen.append(gc.get_threshold())
        return await model(request)

    before = gc.get_threshold()
    async with Coordinator(
        make_config(root),
        root,
        registry=AgentRegistry(root / "agents"),
        provider_factory=provider_factory(turn),
    ) as coordinator:
        report = await coordinator.analyze(nodes_of(root), ["note"])
    assert report.counts()["success"] == 4
    assert set(seen) == {heap.BATCH_GC_THRESHOLDS}
    assert gc.get_threshold() == before
