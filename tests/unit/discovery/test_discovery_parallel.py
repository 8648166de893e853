"""Parsing in worker processes gives exactly what parsing in-process gives."""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from remora.config import DiscoveryConfig
from remora.discovery import discover, pool
from remora.discovery.pool import _batches
from remora.discovery.walk import SourceFile


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Small files, so lower the size at which processes are worth starting.
    monkeypatch.setattr(pool, "PARALLEL_MIN_BYTES", 0)
    for i in range(24):
        body = "".join(f"    def m{j}(self):\n        return {j}\n" for j in range(i % 5 + 1))
        (tmp_path / f"pkg{i % 3}").mkdir(exist_ok=True)
        (tmp_path / f"pkg{i % 3}" / f"mod{i}.py").write_text(
            f"class C{i}:\n{body}\n\nasync def f{i}():\n    pass\n"
        )
    (tmp_path / "pkg0" / "broken.py").write_text("def x(:\n")
    (tmp_path / "pkg1" / "blob.py").write_bytes(b"\0\0")
    return tmp_path


@pytest.fixture
def start_methods(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    used: list[str] = []
    real = multiprocessing.get_context

    def spy(method: str | None = None) -> multiprocessing.context.BaseContext:
        used.append(str(method))
        return real(method)

    monkeypatch.setattr(multiprocessing, "get_context", spy)
    return used


def run(root: Path, workers: int) -> tuple[list[dict[str, object]], list[str], int, int]:
    result = discover([root], project_root=root, config=DiscoveryConfig(workers=workers))
    return (
        [n.to_dict() for n in result.nodes],
        [str(w) for w in result.warnings],
        result.files,
        result.workers,
    )


def test_parallel_equals_sequential(
    project: Path, start_methods: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Other suites in this process may leave threads behind; this test is about
    # the single-threaded case, so it says so instead of depending on test order.
    monkeypatch.setattr(pool.threading, "active_count", lambda: 1)
    nodes1, warnings1, files1, workers1 = run(project, 1)
    nodes2, warnings2, files2, workers2 = run(project, 2)
    assert workers1 == 1 and workers2 == 2
    assert nodes2 == nodes1 and warnings2 == warnings1 and files2 == files1 == 25
    assert len(warnings1) == 2
    assert start_methods == ["fork"]


@pytest.fixture
def busy_thread() -> Iterator[None]:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join()


def test_parallel_with_other_threads_running_uses_forkserver(
    project: Path, busy_thread: None, start_methods: list[str]
) -> None:
    assert threading.active_count() > 1
    nodes2, warnings2, _, workers2 = run(project, 2)
    assert start_methods == ["forkserver"]
    nodes1, warnings1, _, _ = run(project, 1)
    assert workers2 == 2 and nodes2 == nodes1 and warnings2 == warnings1


def test_small_inputs_stay_in_process(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    result = discover([tmp_path], project_root=tmp_path, config=DiscoveryConfig(workers=4))
    assert result.workers == 1


def test_batches_balance_sizes() -> None:
    files = [
        SourceFile(f"/x/{i}.py", f"{i}.py", size)
        for i, size in enumerate([100, 90, 10, 10, 10, 10, 50, 40])
    ]
    batches = _batches(files, 3)
    assert sorted(f.rel_path for b in batches for f in b) == sorted(f.rel_path for f in files)
    loads = [sum(f.size for f in b) for b in batches]
    assert max(loads) - min(loads) <= 20
