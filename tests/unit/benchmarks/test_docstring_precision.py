"""The offline measure of the docstring precision rules: what each rule alone keeps out of
the queue, and what is still proposed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.labels import Label, diff_sha256, save_labels
from review_lib.precision import outcomes, precision_table

from remora.code.docstring import left_alone

SOURCE = """\
class Pump:
    def _prime(self):
        return self.level

    def drain(self):
        raise NotImplementedError

    def flow(self, seconds):
        return self.rate * seconds
"""
# name, the line its def is on, the summary, the verdict, the category
CHANGES = [
    ("Pump._prime", 2, "Fill the pump with water.", "reject", "wrong"),
    ("Pump.drain", 5, "Empty the tank onto the floor.", "reject", "wrong"),
    ("Pump.flow", 8, "Return how much passes in the given seconds at its rate.", "accept", "ok"),
]


def _export(tmp_path: Path) -> Path:
    export = tmp_path / "out" / "proj"
    (export / "changes").mkdir(parents=True)
    (export / "project-before").mkdir()
    (export / "project-before" / "pump.py").write_text(SOURCE)
    lines = SOURCE.splitlines()
    index, labels = [], {}
    for number, (node, line, summary, verdict, category) in enumerate(CHANGES):
        diff = (
            f"--- a/pump.py\n+++ b/pump.py\n@@ -{line},1 +{line},2 @@\n {lines[line - 1]}\n"
            f'+        """{summary}"""\n'
        )
        (export / "changes" / f"c{number}.diff").write_text(diff)
        sha = diff_sha256(diff)
        index.append(
            {
                "id": f"c{number}",
                "operation": "docstring",
                "node": node,
                "node_type": "method",
                "file": "pump.py",
                "diff_sha256": sha,
            }
        )
        label = Label("docstring", "pump.py", node, sha, verdict, category, "", "m", "c", "r")
        labels[label.key] = label
    (export / "index.json").write_text(json.dumps(index))
    save_labels("proj", labels, tmp_path / "labels")
    return tmp_path / "out"


def test_each_rule_is_credited_with_what_only_it_keeps_out(tmp_path: Path) -> None:
    before = (left_alone.not_public, left_alone.is_stub)
    changes, decided = outcomes([(_export(tmp_path), "proj")], tmp_path / "labels")
    report = precision_table(changes, decided)
    # The rules turned off for a setting are turned on again afterwards.
    assert (left_alone.not_public, left_alone.is_stub) == before
    assert report["all"]["proposed"] == 1 and report["all"]["merged_as_is"] == 1.0
    assert report["none"]["proposed"] == 3 and report["none"]["wrong"] == 2
    assert report["only not public"]["rejects_removed"] == 1
    assert report["only stub"]["wrong_removed"] == 1
    assert report["only stub"]["accepts_lost"] == []
    # Two public methods proposed (flow, drain); only flow is still written.
    assert report["all"]["public_still_written"] == "1/2"
