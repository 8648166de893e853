"""The offline section checks on labelled changes: the docstring a diff proposes, recomposed
by today's rules, and the table of edit labels about sections and accepted changes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.labels import Label, diff_sha256, save_labels
from review_lib.section_checks import proposed_docstring, section_changes, section_table

SOURCE = (
    "def pour(jug, litres):\n"
    "    if litres < 0:\n"
    '        raise ValueError("negative")\n'
    "    return jug.take(litres)\n"
)


def _diff(docstring: str) -> str:
    body = "".join(f"+    {line}\n" if line else "+\n" for line in docstring.split("\n"))
    return (
        "diff --git a/pkg/m.py b/pkg/m.py\n--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,4 +1,9 @@\n"
        f" def pour(jug, litres):\n{body}     if litres < 0:\n"
    )


def test_the_proposed_docstring_is_the_added_literal_cleaned() -> None:
    text = '"""Pour from the jug.\n\nArgs:\n    jug (Jug):\n"""'
    assert proposed_docstring(_diff(text)) == "Pour from the jug.\n\nArgs:\n    jug (Jug):"
    assert proposed_docstring("+++ b/m.py\n+x = 1\n") == ""


def test_edit_labels_about_sections_and_accepts_are_counted(tmp_path: Path) -> None:
    export = tmp_path / "out" / "proj"
    (export / "changes").mkdir(parents=True)
    (export / "project-before" / "pkg").mkdir(parents=True)
    (export / "project-before" / "pkg" / "m.py").write_text(SOURCE)
    kept = (
        '"""Pour litres out of the jug into a cup.\n\n'
        'Raises:\n    ValueError: If ``litres < 0``.\n"""'
    )
    proposals = {
        # The Args entries say nothing: today's rules leave the section out.
        "a": (
            '"""Pour litres out of the jug into a cup.\n\nArgs:\n    jug (Jug):\n'
            '    litres (float):\n"""',
            "edit",
            "the Args entries only repeat the signature",
        ),
        "b": (kept, "accept", "ok"),
    }
    index, labels = [], {}
    for change, (docstring, verdict, reason) in proposals.items():
        diff = _diff(docstring)
        (export / "changes" / f"{change}.diff").write_text(diff)
        sha = diff_sha256(diff)
        row = {"id": change, "operation": "docstring", "node": "pour", "node_type": "function"}
        index.append({**row, "file": "pkg/m.py", "diff_sha256": sha})
        label = Label("docstring", "pkg/m.py", "pour", sha, verdict, "noise", reason, "m", "c", "r")
        labels[label.key] = label
    (export / "index.json").write_text(json.dumps(index))
    save_labels("proj", labels, tmp_path / "labels")
    # The same export twice: each label is counted once.
    both = [(tmp_path / "out", "proj"), (tmp_path / "out", "proj")]
    changes = section_changes(both, tmp_path / "labels")
    assert len(changes) == 2
    report = section_table(changes)
    assert report["edit_about_sections"]["changes"] == 1
    assert report["edit_about_sections"]["without_the_part"] == 1
    # Today's rules write no Raises entry from the raise's condition as code: the accepted
    # draft loses it (and is quoted as changed), the edited one keeps its summary alone.
    accepted = report["accepted"]
    assert (accepted["changes"], accepted["changed"], accepted["of_which_no_docstring"]) == (
        1,
        1,
        0,
    )
    assert [q["node"] for q in accepted["quoted"]] == ["pour"]
    today = {c.verdict: c.today for c in changes}
    assert today["edit"] == today["accept"] == "Pour litres out of the jug into a cup."
