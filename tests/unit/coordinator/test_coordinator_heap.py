"""The heap trimmer (coordinator/heap.py): glibc's malloc_trim, once every N finished runs."""

from __future__ import annotations

import sys

import pytest

from remora.coordinator import heap
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
