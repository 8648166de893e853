"""A provider added by an installed distribution, through its entry point, runs an analysis.

``tests/fixtures/provider_plugin`` holds the distribution as pip leaves it in
site-packages (the package and its ``.dist-info`` with ``entry_points.txt``); on
``sys.path`` it is found by ``importlib.metadata``, as an installed one is. Remora's
own code names no such provider: only the entry point does.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from coordinator_support import make_project

import remora
from remora.errors import ConfigValueError

PLUGIN_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "provider_plugin"
NOTE_NODES = ["one", "two", "Box.open", "three"]


@pytest.fixture
def note_plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(PLUGIN_DIR))
    yield
    sys.modules.pop("remora_note_provider", None)


def analyze_with(root: Path, provider: str) -> remora.Analysis:
    return remora.analyze(
        root / "pkg",
        operations="note",
        model={"provider": provider, "id": "tiny"},
        project=root,
        node_types="function,method",
        config={"agents_dir": str(root / "agents"), "sandbox": {"max_concurrent_agents": 1}},
    )


def test_the_plugins_provider_answers_every_run(tmp_path: Path, note_plugin: None) -> None:
    root = make_project(tmp_path)
    analysis = analyze_with(root, "note")
    assert analysis.counts() == {"success": 4, "failed": 0, "skipped": 0, "changed": 4}
    assert sorted(o.node.full_name for o in analysis.outcomes) == sorted(NOTE_NODES)
    assert all(o.result.summary == "noted by the plugin" for o in analysis.outcomes)
    for change in analysis.changes:
        assert change.changed_files == [f"notes/{change.node}.txt"]
        assert "+plain: from the tiny plugin\n" in change.diff


def test_without_the_distribution_the_name_is_unknown(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    with pytest.raises(ConfigValueError, match=r"'model\.provider'.*unknown provider 'note'"):
        analyze_with(root, "note")
