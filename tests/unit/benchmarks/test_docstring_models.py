"""benchmarks/docstring_models.py: the two models' docstrings, paired by project and commit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from docstring_models import table


def _label(verdict: str, category: str, model: str, commit: str = "abc1234") -> dict[str, str]:
    return {
        "operation": "docstring",
        "file": "m.py",
        "node": "f",
        "diff_sha256": "0" * 64,
        "verdict": verdict,
        "category": category,
        "reason": "r",
        "model": model,
        "remora_commit": commit,
        "reviewer": "x",
    }


SMALL = "default (embedded qwen2.5-coder-0.5b)"
LARGE = "qwen2.5-coder-1.5b"


def test_only_a_project_and_commit_labelled_for_both_models_is_a_pair(tmp_path: Path) -> None:
    rows = {
        "alpha": [
            _label("accept", "ok", SMALL),
            _label("reject", "wrong", SMALL),
            _label("accept", "ok", LARGE),
            _label("edit", "misleading", LARGE),
            _label("accept", "ok", LARGE),
            # Another commit's 1.5B labels: no 0.5B there, no pair.
            _label("reject", "wrong", LARGE, commit="def5678"),
            {**_label("accept", "ok", SMALL), "operation": "test"},  # not a docstring
        ],
        "beta": [_label("accept", "ok", SMALL), _label("reject", "noise", LARGE)],
    }
    for name, labels in rows.items():
        (tmp_path / f"{name}.json").write_text(json.dumps({"project": name, "labels": labels}))
    result = table(tmp_path)
    assert list(result["pairs"]) == ["alpha@abc1234", "beta@abc1234"]
    pooled = result["pooled"]
    assert pooled["0.5B"]["changes"] == 3 and pooled["0.5B"]["accept"] == 2
    assert pooled["0.5B"]["false"] == round(1 / 3, 3)
    assert pooled["1.5B"]["changes"] == 4 and pooled["1.5B"]["merged_as_is"] == 0.5
    assert result["higher_merged_share"] == {"1.5B": 1, "0.5B": 1}
