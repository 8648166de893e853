"""Watch: which nodes re-run after a save, syntax errors mid-edit, ignore rules."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from coordinator_support import make_config, make_project, nodes_of, note_model, provider_factory
from watchfiles import Change

from remora.agents import AgentRegistry
from remora.coordinator import (
    AnalyzeReport,
    ChangeBatch,
    Coordinator,
    NodeIndex,
    WatchFilter,
    examine_changes,
    watch_loop,
)


def test_only_new_or_changed_nodes_re_run(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    config = make_config(root)
    index = NodeIndex(nodes_of(root))
    path = root / "pkg" / "alpha.py"
    path.write_text(
        "def one():\n    return 1\n\n\ndef two():\n    return 22\n\n\ndef four():\n    return 4\n"
    )
    batch = examine_changes(
        {(Change.modified, str(path))}, index, WatchFilter(root, config), config
    )
    # The file node's text changed too; one() did not.
    assert sorted(n.full_name for n in batch.nodes) == ["four", "pkg/alpha.py", "two"]
    again = examine_changes(
        {(Change.modified, str(path))}, index, WatchFilter(root, config), config
    )
    assert again.nodes == [] and again.files == ["pkg/alpha.py"]


def test_a_syntax_error_mid_edit_is_skipped_and_the_last_good_state_kept(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    config = make_config(root)
    index = NodeIndex(nodes_of(root))
    watch_filter = WatchFilter(root, config)
    path = root / "pkg" / "alpha.py"
    path.write_text("def one():\n    return 1\n\n\ndef two(:\n    return 2\n")
    broken = examine_changes({(Change.modified, str(path))}, index, watch_filter, config)
    assert broken.nodes == []
    assert len(broken.skipped) == 1
    assert broken.skipped[0].file == "pkg/alpha.py" and broken.skipped[0].line == 5
    assert "syntax error" in str(broken.skipped[0])
    path.write_text("def one():\n    return 1\n\n\ndef two(x):\n    return 2\n")
    fixed = examine_changes({(Change.modified, str(path))}, index, watch_filter, config)
    assert sorted(n.full_name for n in fixed.nodes) == ["pkg/alpha.py", "two"]


def test_deleted_files_are_forgotten_and_ignored_paths_filtered(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / ".gitignore").write_text("generated/\n")
    config = make_config(root, watch={"ignore": ["scratch_*.py"]})
    index = NodeIndex(nodes_of(root))
    watch_filter = WatchFilter(root, config)
    assert watch_filter(Change.modified, str(root / "pkg" / "alpha.py"))
    for ignored in (
        "generated/x.py",
        "pkg/scratch_1.py",
        ".remora/w.py",
        "README.md",
        ".venv/lib/site.py",
        "pkg/__pycache__/a.py",
    ):
        assert not watch_filter(Change.added, str(root / ignored)), ignored
    (root / "pkg" / "beta.py").unlink()
    batch = examine_changes(
        {(Change.deleted, str(root / "pkg" / "beta.py"))}, index, watch_filter, config
    )
    assert batch.removed == ["pkg/beta.py"] and batch.nodes == []
    assert index.files == ["pkg/alpha.py"]


async def _save(
    path: Path, text: str, batches: asyncio.Queue[tuple[ChangeBatch, AnalyzeReport | None]]
) -> tuple[ChangeBatch, AnalyzeReport | None]:
    """Save until the watcher reports it (it has no ready signal: the first save may
    come before it watches)."""
    for _ in range(20):
        path.write_text(text)  # noqa: ASYNC240 - a test writing its own file
        try:
            return await asyncio.wait_for(batches.get(), 2)
        except TimeoutError:
            continue
    raise AssertionError("the watcher never reported the save")


async def test_the_watch_loop_analyses_saved_changes_and_goes_on(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    config = make_config(root, watch={"debounce_ms": 50})
    index = NodeIndex(nodes_of(root))
    batches: asyncio.Queue[tuple[ChangeBatch, AnalyzeReport | None]] = asyncio.Queue()
    stop = asyncio.Event()

    def on_batch(batch: ChangeBatch, report: AnalyzeReport | None) -> None:
        batches.put_nowait((batch, report))

    async with Coordinator(
        config,
        root,
        registry=AgentRegistry(root / "agents"),
        provider_factory=provider_factory(note_model()),
        command="watch",
    ) as coordinator:
        loop = asyncio.create_task(
            watch_loop(coordinator, [root], ["note"], index, on_batch=on_batch, stop_event=stop)
        )
        try:
            broken, report = await _save(
                root / "pkg" / "alpha.py", "def one():\n    return 1\n\n\ndef two(:\n", batches
            )
            assert report is None and broken.skipped[0].file == "pkg/alpha.py"
            batch, report = await _save(
                root / "pkg" / "alpha.py",
                "def one():\n    return 1\n\n\ndef two():\n    return 22\n",
                batches,
            )
        finally:
            stop.set()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(loop, 10)
    assert report is not None
    assert [(o.node.full_name, o.result.status) for o in report.outcomes] == [
        ("pkg/alpha.py", "skipped"),
        ("two", "success"),
    ]
    assert batch.skipped == []
