"""Whether the docstring model can tell its merged summaries from its rejected ones.

Issue 57 suggests "a second pass that asks the model whether a sentence describes this
code". This measures that pass before anyone builds it: for labelled docstring changes of
the kept exports that today's checks do not refuse, ``--per-verdict`` accepted and as many
rejected ones (chosen with ``--seed``), the embedded model is shown the node's code (a
method with its class line) and the summary and asked a yes/no question; the score is the
log-odds of its first token being "Yes" over "No". It prints JSON: each scored change and
the AUC (the chance a random accepted summary scores above a random rejected one; 0.5 is
no better than a coin).

Session 62: the 1.5B on 20 + 20 (seed 1) gave an AUC of 0.48 (load 1.4, nothing else running).

Usage:
  cd benchmarks && ../.venv/bin/python docstring_self_check.py --per-verdict 20 --seed 1
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

from review_lib.kept_exports import project_before
from review_lib.model_scores import auc, model_server, scored_rows, unrefused_changes
from review_lib.summary_checks import CheckedChange, start_line

EXPORTS = Path(__file__).parent / "review_exports"
QUESTION = "Does this docstring correctly describe what the code does? Answer Yes or No."


def node_code(change: CheckedChange, most_lines: int = 60) -> str:
    """The node's source (its first ``most_lines`` lines), a method's class line above it."""
    text = (project_before(EXPORTS, change.project) / change.file).read_text("utf-8")
    lines = text.splitlines()
    first = start_line(text, change.node)
    tree = ast.parse(text)
    defined = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and (n.decorator_list[0].lineno if n.decorator_list else n.lineno) == first
    ]
    end = defined[-1].end_lineno or first if defined else first
    head: list[str] = []
    if change.node_type == "method":
        owner = change.node.split(".")[0]
        cls = next(
            (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == owner), None
        )
        head = [lines[cls.lineno - 1], "    ..."] if cls is not None else []
    return "\n".join(head + lines[first - 1 : end][:most_lines])


def score(server: Any, change: CheckedChange) -> float:
    """The log-odds of "Yes" over "No" as the model's first answer token."""
    asked = (
        f"Here is code from a project:\n```python\n{node_code(change)}\n```\n"
        f'Proposed one-line docstring for `{change.node}`: "{change.summary}"\n\n{QUESTION}'
    )
    messages = [
        {"role": "system", "content": "You are a careful Python maintainer reviewing a docstring."},
        {"role": "user", "content": asked},
    ]
    chunks: list[dict[str, Any]] = []

    def keep(chunk: dict[str, Any]) -> bool:
        chunks.append(chunk)
        return False

    request = {"messages": messages, "max_tokens": 1, "temperature": 0, "stream": False}
    server.handle_chat_completions({**request, "logprobs": True, "top_logprobs": 10}, keep)
    tops = chunks[-1]["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
    seen = {str(t["token"]).strip().lower(): math.exp(float(t["logprob"])) for t in tops}
    return math.log(seen.get("yes", 0.0) + 1e-9) - math.log(seen.get("no", 0.0) + 1e-9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-verdict", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    args = parser.parse_args(argv)
    changes = unrefused_changes(EXPORTS)
    picked = random.Random(args.seed)
    chosen = [
        c
        for verdict in ("accept", "reject")
        for c in picked.sample(
            [c for c in changes if c.verdict == verdict],
            min(args.per_verdict, sum(c.verdict == verdict for c in changes)),
        )
    ]
    server, _ = model_server(args.model)
    scored = [(c, score(server, c)) for c in chosen]
    accepted = [s for c, s in scored if c.verdict == "accept"]
    rejected = [s for c, s in scored if c.verdict == "reject"]
    report = {
        "model": args.model,
        "seed": args.seed,
        "auc": auc(accepted, rejected),
        "scored": scored_rows(scored, "score"),
    }
    json.dump(report, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
