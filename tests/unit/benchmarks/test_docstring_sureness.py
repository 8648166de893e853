"""The sureness benchmark's table: how the rule's thresholds split labelled summaries."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from docstring_sureness import table
from review_lib.summary_checks import CheckedChange


def _change(verdict: str, category: str = "ok") -> CheckedChange:
    return CheckedChange("p", "f", "Do it.", verdict, category, "m", "")


def test_the_table_counts_what_each_threshold_keeps_and_refuses() -> None:
    scored = [
        (_change("accept"), 0.7),
        (_change("accept"), 0.45),
        (_change("reject", "wrong"), 0.55),
        (_change("reject", "noise"), 0.2),
        (_change("edit", "misleading"), 0.35),
    ]
    report = table(scored)
    # Merged pairs above the rest: 0.7 beats all three; 0.45 beats two of them.
    assert report["auc_merged_vs_rest"] == round(5 / 6, 3)
    row = next(r for r in report["thresholds"] if r["min_sureness"] == 0.5)
    assert row["kept"] == 2 and row["kept_share"] == 0.4
    assert row["kept_merged"] == 0.5 and row["kept_rejected"] == 0.5 and row["kept_false"] == 0.5
    assert row["refused_merged"] == 0.33 and row["refused_rejected"] == 0.33


def test_nothing_scored_is_no_figure() -> None:
    report = table([])
    assert report["auc_merged_vs_rest"] is None
    assert all(r["kept"] == 0 and r["kept_share"] is None for r in report["thresholds"])
