"""The model-free parts of the self-consistency experiment: the prompts it asks in, the
agreement of sampled drafts with the labelled one, and the rank statistic."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from review_lib.summary_checks import CheckedChange
from review_lib.verifier import rank_statistic
from summary_agreement import _prompts, agreement


def test_agreement_counts_content_words_shared_plural_or_not() -> None:
    reference = "Return the keys of the table."
    assert agreement(reference, ["Returns a key of this table."]) == 1.0
    assert agreement(reference, ["Open a socket."]) == 0.0
    # The mean over samples: one whole match, one half (key, table / key, table, row, sort).
    assert (
        agreement(reference, ["Return the keys of the table.", "Sort the rows by key and table."])
        == 0.75
    )
    assert agreement(reference, []) == 0.0


def test_rank_is_the_chance_a_high_value_beats_a_low_one() -> None:
    assert rank_statistic([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert rank_statistic([0.5], [0.5]) == 0.5
    assert rank_statistic([], [0.5]) is None


def test_the_node_is_asked_as_the_operation_asks_it(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def area(width, height):\n    return width * height\n")
    change = CheckedChange(
        "p", "area", "Return the area.", "accept", "ok", "m", "", "m.py", "function"
    )
    prompts = _prompts(tmp_path, change)
    assert list(prompts) == ["fim", "chat"]
    assert prompts["fim"].startswith("<|fim_prefix|>def clamp(")  # the fixed style examples
    assert (
        'def area(width, height):\n    """<|fim_suffix|>"""\n    return width * height'
        in prompts["fim"]
    )
    assert prompts["chat"].endswith(
        '<|im_start|>assistant\n```python\ndef area(width, height):\n    """'
    )
