"""A second pass that asks the model whether a summary is true of the code: the prompts,
the reading of the answers and the confusion tables (everything but the model).

Each labelled docstring change (``summary_checks.checked_changes``) is asked in three
framings, all closed questions a code model answers in one token or one sentence:

- ``chat``: a chat question, the code in a fence and the summary quoted, "Answer Yes
  or No"; the answer is the first token of the reply, Yes against No by probability.
- ``comment``: a plain completion of code, no chat template: the summary as a comment
  over the definition and, after it, a question and
  ``# The summary above is correct:``; " Yes"
  against " No" by probability.
- ``restate``: a chat asking what the function returns (a class: what it represents),
  one sentence, greedy; the summary is held true when it shares a content word with
  the restatement beyond the node's own name.

The node's code is read from ``project-before/`` (its docstrings were removed before
the run, so it is what the model was shown), at most :data:`MAX_CODE_LINES` lines.
"""

from __future__ import annotations

import ast
import math
import re
import textwrap
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from review_lib.summary_checks import CheckedChange, start_line

MAX_CODE_LINES = 40
FRAMINGS = ("chat", "comment", "restate")
# The rows of a confusion table: the reviewer's verdict, a reject split by its category.
ROWS = ("accept", "edit", "reject-wrong", "reject-misleading", "reject-noise", "reject-other")

SYSTEM = "You are a careful Python code reviewer."
_YES = ("yes", "true", "correct")
_NO = ("no", "false", "incorrect")
_STOP = frozenset(
    str.split(
        """a an the of to in on for from with and or is are be by it its this that as at
        if when given value values object return returns returned function method class
        instance self new which whether true false none"""
    )
)


@dataclass(frozen=True, slots=True)
class Question:
    """One labelled summary to verify, with the node's code (no docstring)."""

    change: CheckedChange
    code: str


def node_code(root: Path, file: str, node_type: str, full_name: str) -> str:
    """The node's source from ``root/file``, dedented, at most MAX_CODE_LINES lines."""
    text = (root / file).read_text("utf-8")
    lines = text.splitlines()
    if node_type == "file":
        return "\n".join(lines[:MAX_CODE_LINES])
    first = start_line(text, full_name)
    node = next(
        (
            n
            for n in ast.walk(ast.parse(text))
            if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and (n.decorator_list[0].lineno if n.decorator_list else n.lineno) == first
        ),
        None,
    )
    if node is None or node.end_lineno is None:
        return ""
    code = textwrap.dedent("\n".join(lines[first - 1 : node.end_lineno]))
    return "\n".join(code.splitlines()[:MAX_CODE_LINES])


def questions(changes: Iterable[CheckedChange], out: Path) -> list[Question]:
    """Each change with its node's code from ``out/<project>/project-before``."""
    return [
        Question(c, node_code(out / c.project / "project-before", c.file, c.node_type, c.node))
        for c in changes
    ]


def _kind(node_type: str) -> str:
    return {"class": "class", "file": "module"}.get(node_type, "function")


def chat_prompt(code: str, summary: str, node_type: str) -> str:
    """The ``chat`` framing, in Qwen's ChatML, the assistant's reply left open."""
    kind = _kind(node_type)
    user = (
        f"```python\n{code}\n```\n\n"
        f'Proposed one-line docstring for this {kind}: "{summary}"\n\n'
        f"Is every statement of this docstring true of the code above? Answer Yes or No."
    )
    return (
        f"<|im_start|>system\n{SYSTEM}<|im_end|>\n"
        f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    )


def comment_prompt(code: str, summary: str) -> str:
    """The ``comment`` framing: plain code whose next token is the verdict."""
    return (
        f"# Summary: {summary}\n{code}\n\n"
        "# Question: is the summary above correct for this code? Answer Yes or No.\n"
        "# The summary above is correct:"
    )


def restate_prompt(code: str, node_type: str) -> str:
    """The ``restate`` framing: what the node returns (a class: represents), one sentence."""
    kind = _kind(node_type)
    ask = (
        "In one sentence, what does this class represent?"
        if kind == "class"
        else f"In one sentence, what does this {kind} return or do?"
    )
    return (
        f"<|im_start|>system\n{SYSTEM}<|im_end|>\n"
        f"<|im_start|>user\n```python\n{code}\n```\n\n{ask}<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def yes_probability(top: list[dict[str, Any]]) -> float | None:
    """P(yes) / (P(yes) + P(no)) from one position's top log-probabilities; None when
    neither a yes nor a no token is among them."""
    yes = no = 0.0
    for item in top:
        word = str(item.get("token", "")).strip().strip(".,:").lower()
        p = math.exp(float(item["logprob"]))
        yes += p if word in _YES else 0.0
        no += p if word in _NO else 0.0
    return None if yes + no == 0 else yes / (yes + no)


def content_words(text: str, name: str = "") -> set[str]:
    """Lower-case words of ``text`` minus stop words and the words of ``name``, each cut
    to its first five letters (a crude stem: parse/parses/parsed)."""
    named = {w[:5] for w in re.findall(r"[a-z]+", name.replace("_", " ").lower())}
    words = {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP and len(w) > 2}
    return words - named


def restate_agrees(summary: str, restated: str, name: str) -> bool:
    """The summary shares a content word (beyond the name's) with the restatement."""
    short = name.rsplit(".", 1)[-1]
    return bool(content_words(summary, short) & content_words(restated, short))


def row(change: CheckedChange) -> str:
    """The confusion table's row of a change: its verdict, a reject split by category."""
    if change.verdict != "reject":
        return change.verdict
    key = f"reject-{change.category}"
    return key if key in ROWS else "reject-other"


def confusion(answers: Iterable[tuple[CheckedChange, bool | None]]) -> dict[str, dict[str, int]]:
    """Per row: how many the verifier held true (yes), refused (no), could not read (none)."""
    counts: Counter[tuple[str, str]] = Counter()
    for change, said in answers:
        counts[(row(change), {True: "yes", False: "no", None: "none"}[said])] += 1
    return {
        r: {k: counts[(r, k)] for k in ("yes", "no", "none")}
        for r in ROWS
        if any(counts[(r, k)] for k in ("yes", "no", "none"))
    }


def meets_bar(table: dict[str, dict[str, int]]) -> dict[str, float | bool]:
    """The bar a verifier must pass: refuse at least half of the wrong ones (reject-wrong)
    while keeping at least 85% of the accepted ones."""
    wrong = table.get("reject-wrong", {"yes": 0, "no": 0, "none": 0})
    accepted = table.get("accept", {"yes": 0, "no": 0, "none": 0})
    refused_wrong = wrong["no"] / max(1, sum(wrong.values()))
    kept_accepted = accepted["yes"] / max(1, sum(accepted.values()))
    return {
        "wrong_refused": round(refused_wrong, 3),
        "accepted_kept": round(kept_accepted, 3),
        "meets": refused_wrong >= 0.5 and kept_accepted >= 0.85,
    }


__all__ = [
    "FRAMINGS",
    "MAX_CODE_LINES",
    "ROWS",
    "Question",
    "chat_prompt",
    "comment_prompt",
    "confusion",
    "content_words",
    "meets_bar",
    "node_code",
    "questions",
    "restate_agrees",
    "restate_prompt",
    "row",
    "yes_probability",
]


def rank_statistic(high: list[float], low: list[float]) -> float | None:
    """The chance that a value of ``high`` is above one of ``low`` (ties count half; 0.5 is
    chance): how well a score separates accepted summaries from rejected ones. None when
    either side is empty."""
    if not high or not low:
        return None
    wins = sum((h > x) + 0.5 * (h == x) for h in high for x in low)
    return round(wins / (len(high) * len(low)), 3)
