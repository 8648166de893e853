"""The offline summary checks on labelled changes: the summary a diff proposes, the join with
the labels, and the table of refusals per verdict."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.labels import Label, diff_sha256, save_labels
from review_lib.summary_checks import checked_changes, proposed_summary, table

SOURCE = "def bump_major(version):\n    return str(Version.parse(version).bump_major())\n"


def _diff(summary: str) -> str:
    return (
        "diff --git a/pkg/m.py b/pkg/m.py\n--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,2 +1,3 @@\n"
        f' def bump_major(version):\n+    """{summary}"""\n'
        "     return str(Version.parse(version).bump_major())\n"
    )


def test_the_proposed_summary_is_the_added_docstrings_first_line() -> None:
    assert proposed_summary(_diff("Bump the major version.")) == "Bump the major version."
    multi = '+++ b/m.py\n+    """Parse a version.\n+\n+    Args:\n'
    assert proposed_summary(multi) == "Parse a version."
    # Sections added to a docstring that was there: no new summary.
    assert proposed_summary("+++ b/m.py\n+    Args:\n+        x: The x.\n") == ""


def test_labelled_summaries_are_checked_and_counted(tmp_path: Path) -> None:
    export = tmp_path / "out" / "proj"
    (export / "changes").mkdir(parents=True)
    (export / "project-before" / "pkg").mkdir(parents=True)
    (export / "project-before" / "pkg" / "m.py").write_text(SOURCE)
    summaries = {
        "a": ("Bump the major version of the given version.", "reject", "noise"),
        "b": ("Return the version with its major part raised by one.", "accept", "ok"),
    }
    index, labels = [], {}
    for change, (summary, verdict, category) in summaries.items():
        diff = _diff(summary)
        (export / "changes" / f"{change}.diff").write_text(diff)
        sha = diff_sha256(diff)
        index.append(
            {
                "id": change,
                "operation": "docstring",
                "node": "bump_major",
                "node_type": "function",
                "file": "pkg/m.py",
                "diff_sha256": sha,
            }
        )
        label = Label(
            "docstring", "pkg/m.py", "bump_major", sha, verdict, category, "", "m", "c", "r"
        )
        labels[label.key] = label
    (export / "index.json").write_text(json.dumps(index))
    save_labels("proj", labels, tmp_path / "labels")
    changes = checked_changes(tmp_path / "out", "proj", tmp_path / "labels")
    refused = {c.summary: c.refusal for c in changes}
    assert refused["Bump the major version of the given version."].startswith(
        "it restates the name 'bump_major'"
    )
    assert refused["Return the version with its major part raised by one."] == ""
    assert table(changes) == {
        "rows": {
            "accept/ok": {"changes": 1, "refused": 0, "restating": 0},
            "reject/noise": {"changes": 1, "refused": 1, "restating": 1},
        },
        "refused_but_accepted": [],
    }


def test_a_definition_under_an_except_clause_is_found() -> None:
    from review_lib.summary_checks import start_line

    # more-itertools' fallback helpers, defined when ``math.sumprod`` is missing.
    text = (
        "try:\n    from math import sumprod\nexcept ImportError:\n\n"
        "    def split(x):\n        return x, x\n"
    )
    assert start_line(text, "split") == 5
