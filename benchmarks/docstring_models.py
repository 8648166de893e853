"""The 0.5B's and the 1.5B's docstrings side by side, from the committed review labels.

Every docstring label of ``review_labels/`` is counted by project, Remora commit and the
model that wrote it (``review_lib.labels.DOCSTRING_MODELS``); a project and commit
labelled for both models is a pair. Printed as JSON: each pair's changes, merged as is
and false (category "wrong") per model, the pairs pooled, and on how many pairs each
model's merged-as-is share is the higher. No model runs.

Usage (from benchmarks/):
  ../.venv/bin/python docstring_models.py [--labels DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from review_lib.labels import DOCSTRING_MODELS, LABELS_DIR

_MODELS = ("0.5B", "1.5B")


def pairs(labels_dir: Path) -> dict[str, Counter[str]]:
    """Per ``project@commit/model``: changes, accept, edit, reject and wrong."""
    counted: dict[str, Counter[str]] = defaultdict(Counter)
    for path in sorted(labels_dir.glob("*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))["labels"]
        for row in rows:
            model = DOCSTRING_MODELS.get(row["model"])
            if row["operation"] != "docstring" or model is None:
                continue
            tally = counted[f"{path.stem}@{row['remora_commit']}/{model}"]
            tally["changes"] += 1
            tally[row["verdict"]] += 1
            tally["wrong"] += row["category"] == "wrong"
    return counted


def table(labels_dir: Path) -> dict[str, object]:
    counted = pairs(labels_dir)
    keys = sorted({key.rsplit("/", 1)[0] for key in counted})
    paired = [k for k in keys if all(f"{k}/{m}" in counted for m in _MODELS)]
    pooled = {m: sum((counted[f"{k}/{m}"] for k in paired), Counter()) for m in _MODELS}
    ahead: Counter[str] = Counter()
    for key in paired:
        share = {
            m: counted[f"{key}/{m}"]["accept"] / counted[f"{key}/{m}"]["changes"] for m in _MODELS
        }
        ahead[max(share, key=share.__getitem__) if share["0.5B"] != share["1.5B"] else "level"] += 1
    return {
        "pairs": {k: {m: dict(counted[f"{k}/{m}"]) for m in _MODELS} for k in paired},
        "pooled": {
            m: {
                **dict(pooled[m]),
                "merged_as_is": round(pooled[m]["accept"] / max(pooled[m]["changes"], 1), 3),
                "false": round(pooled[m]["wrong"] / max(pooled[m]["changes"], 1), 3),
            }
            for m in _MODELS
        },
        "higher_merged_share": dict(ahead),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=LABELS_DIR)
    args = parser.parse_args(argv)
    json.dump(table(args.labels), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
