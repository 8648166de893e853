"""The model-free parts of the docstring judge experiment: the cases recovered from diffs,
the statements a docstring makes, the reading of the answers and the threshold table."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.corpus import PROJECTS
from review_lib.judge import (
    Case,
    agreement,
    false_prompt,
    halves,
    kept_table,
    load_cases,
    none_false_probability,
    proposed_docstring,
    statements,
    tuned_threshold,
)
from review_lib.labels import change_key, load_labels

DIFF = '''diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,3 +1,8 @@
 class Box:
     def size(self, scale):
+        """Return the width times ``scale``.
+
+        Args:
+            scale: The factor.
+        """
         return self.width * scale
'''


def _case(verdict: str, category: str, docstring: str = "Return x.", *others: str) -> Case:
    return Case("p", "m.py", "Box.size", "method", "h", docstring, verdict, category, "m", others)


def test_the_proposed_docstring_is_read_from_the_added_lines_as_python() -> None:
    assert (
        proposed_docstring(DIFF)
        == "Return the width times ``scale``.\n\nArgs:\n    scale: The factor."
    )
    assert proposed_docstring(DIFF.replace('"""', "")) == ""


def test_statements_are_the_summary_and_each_section_entry() -> None:
    said = statements(proposed_docstring(DIFF))
    assert said == ["Return the width times ``scale``.", "Parameter `scale`: The factor."]


def test_the_false_prompt_numbers_the_statements_from_one() -> None:
    prompt = false_prompt("def f(): pass", ["A.", "B."], "function")
    assert "1. A.\n2. B." in prompt and prompt.endswith("<|im_start|>assistant\n")


def test_none_false_is_zero_against_the_statement_numbers_only() -> None:
    top = [
        {"token": "0", "logprob": math.log(0.3)},
        {"token": "1", "logprob": math.log(0.1)},
        {"token": "7", "logprob": math.log(0.5)},  # no 7th statement: not counted
    ]
    assert none_false_probability(top, 2) == pytest.approx(0.75)
    assert none_false_probability([{"token": "No", "logprob": 0.0}], 2) is None


def test_agreement_is_the_share_of_content_words_another_summary_shares() -> None:
    assert agreement(_case("accept", "ok", "Return the width scaled.")) is None
    case = _case("accept", "ok", "Return the width scaled.", "Compute width times factor.")
    assert agreement(case) == pytest.approx(0.5)


def test_the_kept_table_counts_accepts_and_wrong_ones_above_the_threshold() -> None:
    scored = [
        (_case("accept", "ok"), 0.9),
        (_case("accept", "ok"), 0.4),
        (_case("reject", "wrong"), 0.8),
        (_case("edit", "wrong"), 0.2),
    ]
    row = kept_table(scored, 0.5)
    assert (row["kept"], row["accept_share_kept"], row["wrong_kept"]) == (2, 0.5, 1)
    assert row["accepted_kept_share"] == 0.5
    assert kept_table(scored, None)["kept"] == 4
    assert tuned_threshold(scored) == 0.9  # keeps half the accepted, only accepted kept


def test_the_halves_split_the_development_projects_only() -> None:
    tune, report = halves()
    assert not tune & report
    assert tune | report == {n for n, p in PROJECTS.items() if p.part == "dev"}


def test_every_committed_case_is_a_development_label_with_its_verdict() -> None:
    cases = load_cases()
    assert len(cases) > 100
    for case in cases:
        assert PROJECTS[case.project].part == "dev"
        label = load_labels(case.project)[
            change_key("docstring", case.file, case.node, case.diff_sha256)
        ]
        assert (label.verdict, label.category) == (case.verdict, case.category)
