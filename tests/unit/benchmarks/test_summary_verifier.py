"""The model-free parts of the summary verifier experiment: the node's code, the prompts,
the reading of Yes/No log-probabilities and restatements, the confusion table and the bar."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.summary_checks import CheckedChange
from review_lib.verifier import (
    chat_prompt,
    comment_prompt,
    confusion,
    meets_bar,
    node_code,
    restate_agrees,
    row,
    yes_probability,
)

SOURCE = (
    "import functools\n\n\nclass Box:\n    @functools.cache\n    def size(self, scale):\n"
    "        return self.width * scale\n\n    def other(self):\n        pass\n"
)


def _change(verdict: str, category: str, summary: str = "Return the size.") -> CheckedChange:
    return CheckedChange("p", "Box.size", summary, verdict, category, "m", "", "m.py", "method")


def test_the_node_code_is_the_definition_dedented_with_its_decorators(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    code = node_code(tmp_path, "m.py", "method", "Box.size")
    assert code == "@functools.cache\ndef size(self, scale):\n    return self.width * scale"
    assert node_code(tmp_path, "m.py", "class", "Box").startswith("class Box:\n    @functools")


def test_the_prompts_hold_the_code_and_the_summary_and_end_on_the_question() -> None:
    chat = chat_prompt("def f(): pass", "Do nothing.", "function")
    assert "def f(): pass" in chat and '"Do nothing."' in chat
    assert chat.endswith("Answer Yes or No.<|im_end|>\n<|im_start|>assistant\n")
    comment = comment_prompt("def f(): pass", "Do nothing.")
    assert comment.startswith("# Summary: Do nothing.\ndef f(): pass")
    assert comment.endswith("# The summary above is correct:")


def test_yes_probability_adds_up_the_spellings_of_yes_and_no() -> None:
    top = [
        {"token": " Yes", "logprob": math.log(0.5)},
        {"token": "yes", "logprob": math.log(0.1)},
        {"token": " No", "logprob": math.log(0.2)},
        {"token": " it", "logprob": math.log(0.2)},
    ]
    assert yes_probability(top) == pytest.approx(0.75)
    assert yes_probability([{"token": " it", "logprob": 0.0}]) is None


def test_a_restatement_agrees_when_it_shares_a_word_beyond_the_name() -> None:
    said = "It returns the date an ISO 8601 string gives."
    assert restate_agrees("Parse an ISO date string.", said, "parse_date")
    assert not restate_agrees("Parse a key.", "It parses a key and returns it.", "parse_key")


def test_the_confusion_table_splits_rejects_by_category_and_checks_the_bar() -> None:
    assert row(_change("reject", "style")) == "reject-other"
    answers = [
        (_change("accept", "ok"), True),
        (_change("accept", "ok"), True),
        (_change("reject", "wrong"), False),
        (_change("reject", "wrong"), True),
        (_change("edit", "misleading"), None),
    ]
    table = confusion(answers)
    assert table == {
        "accept": {"yes": 2, "no": 0, "none": 0},
        "edit": {"yes": 0, "no": 0, "none": 1},
        "reject-wrong": {"yes": 1, "no": 1, "none": 0},
    }
    assert meets_bar(table) == {"wrong_refused": 0.5, "accepted_kept": 1.0, "meets": True}
    answers[1] = (_change("accept", "ok"), False)
    assert meets_bar(confusion(answers))["meets"] is False
