"""A judge for whole docstrings: the labelled cases, the statements a docstring makes, the
judge's prompts and scores, and the threshold table (everything but the model).

A case is one labelled docstring proposal of the development part: its key (as the
labels key it), the docstring Remora proposed (its own text, recovered from the exported
diff), the reviewer's verdict and category. The committed cases
(``benchmarks/docstring_judge_cases.json``) hold no third-party code: the node's code is
read from the project prepared by :func:`review_lib.corpus.prepare` (the pinned sdist,
docstrings stripped), as the run saw it.

Framings, all Qwen ChatML with the node's code first (so one node's questions share the
prompt's opening and llama.cpp reads the code once):

- ``whole``: the docstring quoted, "is every statement true of this code and does it say
  something the name alone does not?" Yes/No; the score is P(Yes).
- ``sentence``: each statement (summary, description, each parameter, returns, each
  raise, read by ``docstring_parser``) asked on its own, "is this statement true of this
  code?"; the score is the lowest P(Yes).
- ``false``: the statements numbered, "which one is false? 0 if none"; the score is the
  probability of 0 against the other numbers.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from remora.code.docstring.pieces import existing_pieces
from review_lib.corpus import CORPUS, PROJECTS
from review_lib.export import read_index
from review_lib.labels import change_key, diff_sha256, load_labels
from review_lib.verifier import SYSTEM, content_words, yes_probability

CASES = Path(__file__).resolve().parents[1] / "docstring_judge_cases.json"
FRAMINGS = ("whole", "sentence", "false")
MAX_STATEMENTS = 9


@dataclass(frozen=True, slots=True)
class Case:
    """One labelled docstring proposal, keyed like its label."""

    project: str
    file: str
    node: str
    node_type: str
    diff_sha256: str
    docstring: str
    verdict: str
    category: str
    model: str
    # Other proposals Remora made for the same node in other runs (labelled or not).
    others: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return json.dumps([self.project, self.file, self.node, self.diff_sha256])


def proposed_docstring(diff: str) -> str:
    """The docstring a change adds, cleaned as ``inspect.cleandoc`` would ('' if none):
    the added lines, dedented, parsed, and the opening string constant taken."""
    added = [
        line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("++")
    ]
    indent = min((len(a) - len(a.lstrip()) for a in added if a.strip()), default=0)
    text = "\n".join(a[indent:] for a in added)
    try:
        body = ast.parse(text).body
    except SyntaxError:
        return ""
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return inspect.cleandoc(first.value.value)
    return ""


def collect(exports: Iterable[Path]) -> list[Case]:
    """The labelled docstring proposals of the development projects found in ``exports``
    (folders holding ``<project>/index.json``); one case per label key."""
    labels = {p.name: load_labels(p.name) for p in CORPUS if p.part == "dev"}
    found: dict[str, Case] = {}
    proposals: dict[tuple[str, str, str], set[str]] = {}
    for out in exports:
        for project, known in labels.items():
            if not (out / project / "index.json").is_file():
                continue
            for entry in read_index(out, project):
                if entry.operation != "docstring":
                    continue
                diff = (out / project / "changes" / f"{entry.id}.diff").read_text("utf-8")
                if diff_sha256(diff) != entry.diff_sha256:
                    continue
                text = proposed_docstring(diff)
                if not text:
                    continue
                proposals.setdefault((project, entry.file, entry.node), set()).add(text)
                label = known.get(
                    change_key("docstring", entry.file, entry.node, entry.diff_sha256)
                )
                if label is None:
                    continue
                case = Case(
                    project,
                    entry.file,
                    entry.node,
                    entry.node_type,
                    entry.diff_sha256,
                    text,
                    label.verdict,
                    label.category,
                    label.model,
                )
                found[case.key] = case
    return [
        Case(
            **{
                **asdict(c),
                "others": tuple(sorted(proposals[(c.project, c.file, c.node)] - {c.docstring})),
            }
        )
        for c in sorted(found.values(), key=lambda c: (c.project, c.file, c.node, c.key))
    ]


def save_cases(cases: Sequence[Case], path: Path = CASES) -> None:
    rows = [{**asdict(c), "others": list(c.others)} for c in cases]
    path.write_text(json.dumps({"cases": rows}, indent=1) + "\n", encoding="utf-8")


def load_cases(path: Path = CASES) -> list[Case]:
    rows = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return [Case(**{**r, "others": tuple(r["others"])}) for r in rows]


def halves() -> tuple[frozenset[str], frozenset[str]]:
    """The development projects split in two, alternately in corpus order: the first half
    chooses framing and threshold, the second is reported."""
    dev = [p.name for p in CORPUS if p.part == "dev"]
    return frozenset(dev[0::2]), frozenset(dev[1::2])


def statements(docstring: str) -> list[str]:
    """What a docstring states, one claim a line: summary, description, each parameter,
    what it returns, each raise (read by ``docstring_parser``)."""
    pieces, _ = existing_pieces(docstring)
    said = [pieces.summary, pieces.description]
    said += [f"Parameter `{name}`: {text}" for name, text in pieces.params.items()]
    said += [f"Returns: {pieces.returns}" if pieces.returns else ""]
    said += [f"Raises {name}: {text}" for name, text in pieces.raises.items()]
    return [" ".join(s.split()) for s in said if s.strip()][:MAX_STATEMENTS]


def _kind(node_type: str) -> str:
    return {"class": "class", "file": "module"}.get(node_type, "function")


def _chat(code: str, question: str) -> str:
    return (
        f"<|im_start|>system\n{SYSTEM}<|im_end|>\n"
        f"<|im_start|>user\n```python\n{code}\n```\n\n{question}<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def whole_prompt(code: str, docstring: str, node_type: str) -> str:
    quoted = "\n".join(f"> {line}" for line in docstring.splitlines())
    return _chat(
        code,
        f"Proposed docstring for this {_kind(node_type)}:\n{quoted}\n\n"
        "Is every statement of this docstring true of the code above, and does it tell a "
        "reader something the name alone does not? Answer Yes or No.",
    )


def sentence_prompt(code: str, statement: str, node_type: str) -> str:
    return _chat(
        code,
        f'A statement from the docstring of this {_kind(node_type)}: "{statement}"\n\n'
        "Is this statement true of the code above? Answer Yes or No.",
    )


def false_prompt(code: str, said: Sequence[str], node_type: str) -> str:
    numbered = "\n".join(f"{i}. {s}" for i, s in enumerate(said, 1))
    return _chat(
        code,
        f"Statements from the docstring of this {_kind(node_type)}:\n{numbered}\n\n"
        "Which numbered statement is false of the code above? Answer with its number, "
        "or 0 if every statement is true.",
    )


def none_false_probability(top: list[dict[str, Any]], count: int) -> float | None:
    """P("0") against the statements' numbers, from one position's top log-probabilities."""
    numbers = {str(i): 0.0 for i in range(count + 1)}
    for item in top:
        word = str(item.get("token", "")).strip().strip(".")
        if word in numbers:
            numbers[word] += math.exp(float(item["logprob"]))
    total = sum(numbers.values())
    return None if total == 0 else numbers["0"] / total


def agreement(case: Case) -> float | None:
    """How much two independent proposals for the node agree: the largest share of the
    summary's content words another proposal's summary shares (None: no other proposal)."""
    if not case.others:
        return None
    mine = content_words(statements(case.docstring)[0], case.node.rsplit(".", 1)[-1])
    if not mine:
        return 0.0
    best = 0.0
    for other in case.others:
        said = statements(other)
        theirs = content_words(said[0], case.node.rsplit(".", 1)[-1]) if said else set()
        best = max(best, len(mine & theirs) / len(mine))
    return best


def kept_table(scored: Sequence[tuple[Case, float]], threshold: float | None) -> dict[str, Any]:
    """Of the cases scored at least ``threshold`` (None: all): how many, the accepted share,
    the wrong kept, and the share of the accepted ones kept."""
    kept = [c for c, s in scored if threshold is None or s >= threshold]
    accepted = sum(c.verdict == "accept" for c, _ in scored)
    wrong = sum(c.category == "wrong" for c, _ in scored)
    kept_accept = sum(c.verdict == "accept" for c in kept)
    return {
        "threshold": None if threshold is None else round(threshold, 4),
        "kept": len(kept),
        "of": len(scored),
        "accept_share_kept": round(kept_accept / max(1, len(kept)), 3),
        "wrong_kept": sum(c.category == "wrong" for c in kept),
        "wrong_of": wrong,
        "accepted_kept_share": round(kept_accept / max(1, accepted), 3),
    }


def rank_auc(scored: Sequence[tuple[Case, float]]) -> float:
    """The chance an accepted case scores above a wrong one (0.5: chance)."""
    accepted = [s for c, s in scored if c.verdict == "accept"]
    wrong = [s for c, s in scored if c.category == "wrong"]
    pairs = [(a > w) + 0.5 * (a == w) for a in accepted for w in wrong]
    return round(sum(pairs) / max(1, len(pairs)), 3)


def tuned_threshold(scored: Sequence[tuple[Case, float]]) -> float:
    """The threshold that maximises the accepted share of the kept cases while keeping at
    least half of the accepted ones (chosen on the tuning half only)."""
    best = (-1.0, 0.0)
    for t in sorted({s for _, s in scored}):
        row = kept_table(scored, t)
        if row["accepted_kept_share"] >= 0.5 and row["accept_share_kept"] > best[0]:
            best = (row["accept_share_kept"], t)
    return best[1]


__all__ = [
    "CASES",
    "FRAMINGS",
    "PROJECTS",
    "Case",
    "agreement",
    "collect",
    "false_prompt",
    "halves",
    "kept_table",
    "load_cases",
    "none_false_probability",
    "proposed_docstring",
    "rank_auc",
    "save_cases",
    "sentence_prompt",
    "statements",
    "tuned_threshold",
    "whole_prompt",
    "yes_probability",
]
