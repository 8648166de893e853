"""Whether the model's sureness of a drafted summary tells merged summaries from the rest.

The docstring agent does not propose a drafted summary whose sureness (the geometric
mean of its tokens' probabilities, ``remora_code.sureness``) is below the operation's
``min_sureness``. This measures that rule on the reviewers' verdicts: every labelled
docstring change of the kept exports that today's checks do not refuse, written by
``--model``, is drafted again the way a run drafts it (the same fill-in-the-middle
prompt, from the project as it was before the run: ``draft.shape_prompt``), greedily,
with the tokens' log-probabilities. Where the labelled summary is what the tokens
spell (it was the first draft, not a retry or the model's own words) its sureness is
scored. It prints JSON: the counts, the AUC (the chance a random merged summary is
surer than a random other one; 0.5 is a coin) and, per threshold, the share kept and
how the kept and the refused were labelled.

Session 63: the 1.5B, 415 changes drafted again, 277 spelled, AUC 0.745; at 0.5, 63% kept,
37% of them merged and 27% rejected (load 4, other runs beside it; docs/competence.md).

Usage:
  cd benchmarks && ../.venv/bin/python docstring_sureness.py [--model qwen2.5-coder-1.5b]
      [--projects pytz,bracex]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, cast

from review_lib.kept_exports import project_before
from review_lib.model_scores import auc, model_server, scored_rows, unrefused_changes
from review_lib.summary_checks import CheckedChange, start_line

from remora.code import CodeContext
from remora.code.completion import TokenRow, sureness
from remora.code.docstring.draft import own_examples, shape_prompt
from remora.conversation import CompletionRequest
from remora.providers.completion_prompt import raw_prompt
from remora.providers.gguf_vocab import PromptTokens, prompt_tokens

EXPORTS = Path(__file__).parent / "review_exports"
THRESHOLDS = (0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65)
NO_CONTEXT = cast(CodeContext, None)  # sureness reads only its arguments


def drafted_tokens(server: Any, tokens: PromptTokens, change: CheckedChange) -> list[TokenRow]:
    """The tokens of the greedy fill-in-the-middle draft for the change's node ([] when
    the node cannot be asked that way)."""
    text = (project_before(EXPORTS, change.project) / change.file).read_text("utf-8")
    line = start_line(text, change.node)
    shaped = shape_prompt(text, change.node_type, change.node, line, own_examples(text, line))
    if shaped is None:
        return []
    request = CompletionRequest(
        prefix=shaped["prefix"], suffix=shaped["suffix"], stop=tuple(shaped["stop"])
    )
    prompt, _ = raw_prompt(request, tokens)
    chunks: list[dict[str, Any]] = []

    def keep(chunk: dict[str, Any]) -> bool:
        chunks.append(chunk)
        return False

    body = {"prompt": prompt, "max_tokens": 40, "temperature": 0, "stop": shaped["stop"]}
    server.handle_completions({**body, "logprobs": 1, "stream": False}, keep)
    content = (chunks[-1]["choices"][0].get("logprobs") or {}).get("content") or []
    return [{"text": str(t["token"]), "logprob": float(t["logprob"])} for t in content]


def _share(changes: list[CheckedChange], verdict: str) -> float | None:
    return round(sum(c.verdict == verdict for c in changes) / len(changes), 2) if changes else None


def _false(changes: list[CheckedChange]) -> float | None:
    """The share a reviewer labelled as saying something false."""
    return round(sum(c.category == "wrong" for c in changes) / len(changes), 2) if changes else None


def table(scored: list[tuple[CheckedChange, float]]) -> dict[str, Any]:
    """The AUC and, per threshold, what is kept and refused and how each was labelled."""
    merged = [s for c, s in scored if c.verdict == "accept"]
    rest = [s for c, s in scored if c.verdict != "accept"]
    rows = []
    for threshold in THRESHOLDS:
        kept = [c for c, s in scored if s >= threshold]
        refused = [c for c, s in scored if s < threshold]
        rows.append(
            {
                "min_sureness": threshold,
                "kept": len(kept),
                "kept_share": round(len(kept) / len(scored), 2) if scored else None,
                "kept_merged": _share(kept, "accept"),
                "kept_rejected": _share(kept, "reject"),
                "kept_false": _false(kept),
                "refused_merged": _share(refused, "accept"),
                "refused_rejected": _share(refused, "reject"),
            }
        )
    found = auc(merged, rest)
    return {"auc_merged_vs_rest": None if found is None else round(found, 3), "thresholds": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument(
        "--projects",
        help="only these kept exports (comma-separated), e.g. those labelled after a threshold"
        " was chosen",
    )
    args = parser.parse_args(argv)
    chosen = set(args.projects.split(",")) if args.projects else None
    changes = [
        c
        for c in unrefused_changes(EXPORTS)
        if args.model in c.model and (chosen is None or c.project in chosen)
    ]
    server, path = model_server(args.model)
    vocabulary = prompt_tokens(path)
    scored: list[tuple[CheckedChange, float]] = []
    for change in changes:
        sure = sureness(NO_CONTEXT, change.summary, drafted_tokens(server, vocabulary, change))
        if sure is not None:
            scored.append((change, sure))
    report = {
        "model": args.model,
        "changes": len(changes),
        "spelled": len(scored),
        **table(scored),
        "scored": scored_rows(scored, "sureness"),
    }
    json.dump(report, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
