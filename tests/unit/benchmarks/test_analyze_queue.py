"""benchmarks/analyze.py --queue-out: the queue as text that two commits' runs compare."""

from __future__ import annotations

import sys
from pathlib import Path

import remora

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from analyze import queue_text  # noqa: E402  (a script folder, not a package)

SHOP = '"""Shop helpers."""\n\nimport os\nimport sys\n\n\ndef total(prices):\n    return 1\n'


def analysed(tmp_path: Path) -> Path:
    """A project whose lint run left one change (the unused imports, ruff's safe fix)."""
    root = tmp_path / "shop"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "0.1"\n')
    (root / "pkg" / "shop.py").write_text(SHOP)
    (root / "turns.yaml").write_text("[]\n")
    remora.analyze(
        root / "pkg",
        operations="lint",
        model={"provider": "scripted", "id": "scripted", "path": str(root / "turns.yaml")},
        project=root,
        config={"sandbox": {"max_concurrent_agents": 1}},
    )
    return root


def test_the_queue_text_has_each_change_by_node_with_its_diff_and_no_id(tmp_path: Path) -> None:
    root = analysed(tmp_path)
    text = queue_text(root)
    (change,) = remora.review.list_changes(root)
    assert text.startswith(f"=== lint pkg/shop.py [success] {change.summary}\n")
    assert "-import os\n" in text and "-import sys\n" in text
    assert change.id not in text  # ids are new in every run: two runs compare equal
