"""Whether a project keeps ruff's import order is asked of ruff again when its other files
change, and only then (real ruff, counted): ``remora watch`` and ``remora lsp`` outlive a
project sorting its imports."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from remora.code.lint import import_order
from remora.code.lint.import_order import keeps_import_order

SORTED = "import os\nimport sys\n\nprint(os, sys)\n"
UNSORTED = "import sys\nimport os\n\nprint(os, sys)\n"  # the same size: only the stat's time tells


def _write(path: Path, text: str, *, age_s: float) -> None:
    """Write ``text`` dated ``age_s`` ago (0: now, changed within the last seconds)."""
    path.write_text(text)
    if age_s:
        then = time.time() - age_s
        os.utime(path, (then, then))


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The files ruff really judged, one entry a run."""
    seen: list[tuple[str, ...]] = []
    real = import_order._others_sorted

    async def counted(root: Path, others: tuple[str, ...], timeout_s: float) -> bool:
        seen.append(others)
        return await real(root, others, timeout_s)

    monkeypatch.setattr(import_order, "_others_sorted", counted)
    return seen


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    for name, text in {"a.py": UNSORTED, "b.py": UNSORTED, "c.py": SORTED}.items():
        _write(tmp_path / "pkg" / name, text, age_s=3600)
    return tmp_path


async def test_sorting_the_other_files_later_changes_the_answer(
    project: Path, runs: list[tuple[str, ...]]
) -> None:
    assert not await keeps_import_order(project, "pkg/a.py", 60)
    _write(project / "pkg" / "b.py", SORTED, age_s=1800)
    assert await keeps_import_order(project, "pkg/a.py", 60)
    _write(project / "pkg" / "d.py", UNSORTED, age_s=1800)  # a new file, unsorted
    assert not await keeps_import_order(project, "pkg/a.py", 60)
    two, three = ("pkg/b.py", "pkg/c.py"), ("pkg/b.py", "pkg/c.py", "pkg/d.py")
    assert runs == [two, two, three]


async def test_unchanged_files_are_not_judged_again_and_fresh_ones_are_not_kept(
    project: Path, runs: list[tuple[str, ...]]
) -> None:
    for _ in range(3):
        assert not await keeps_import_order(project, "pkg/a.py", 60)
    assert len(runs) == 1
    _write(project / "pkg" / "b.py", SORTED, age_s=0)  # may share the old stat's time tick
    for _ in range(2):
        assert await keeps_import_order(project, "pkg/a.py", 60)
    assert len(runs) == 3


async def test_a_ruff_that_times_out_is_an_error_and_leaves_no_answer_behind(
    project: Path, runs: list[tuple[str, ...]]
) -> None:
    for name in ("b.py", "c.py"):
        _write(project / "pkg" / name, SORTED, age_s=1800)
    with pytest.raises(TimeoutError, match="import order of 2 other file"):
        await keeps_import_order(project, "pkg/a.py", 0)  # ruff cannot finish in no time
    # asked of ruff again, not answered "not sorted" from the timeout
    assert await keeps_import_order(project, "pkg/a.py", 60)
    assert len(runs) == 2
