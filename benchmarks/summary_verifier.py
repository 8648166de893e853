"""Does a second pass, asking the model whether a summary is true of the code, catch the
false docstrings blind reviewers labelled? Offline, on the labelled review exports.

Each labelled docstring change (joined by ``review_lib/summary_checks.py``) is asked in
the framings of ``review_lib/verifier.py`` (chat yes/no, a code comment completed with
Yes/No, a restatement compared with the summary) of the embedded model given, in this
process through llama.cpp (``logprobs`` for the Yes/No framings); every answer is
appended to ``--results`` (JSON lines, so a run resumes), and the report prints per
model and framing the confusion table (verdict against the verifier's yes/no), for all
the labelled summaries and for those today's host checks let through, whether the bar
is met (half the wrong refused, 85% of the accepted kept), a threshold sweep of P(yes)
and the seconds per question.

Usage:
  python benchmarks/summary_verifier.py run --model qwen2.5-coder-1.5b \
      --results /tmp/verifier.jsonl /tmp/review_dev:isodate /tmp/review_heldout_15:tomli ...
  python benchmarks/summary_verifier.py report --results /tmp/verifier.jsonl EXPORTS...
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from review_lib.export import export_and_project
from review_lib.result_rows import done_keys, result_rows
from review_lib.summary_checks import CheckedChange, checked_changes
from review_lib.verifier import (
    FRAMINGS,
    Question,
    chat_prompt,
    comment_prompt,
    confusion,
    meets_bar,
    questions,
    rank_statistic,
    restate_agrees,
    restate_prompt,
    row,
    yes_probability,
)

MODELS_DIR = Path.home() / ".cache" / "remora" / "models"
TOP = 20


def _changes(exports: list[str]) -> list[tuple[Path, CheckedChange]]:
    found = []
    for given in exports:
        out, project = export_and_project(given)
        found += [(out, c) for c in checked_changes(out, project)]
    return found


def _key(model: str, framing: str, q: Question) -> str:
    return json.dumps([model, framing, q.change.project, q.change.node, q.change.summary])


class Model:
    """One embedded GGUF in this process; plain completions with log-probabilities."""

    def __init__(self, name: str, threads: int) -> None:
        from remora.providers.llama_engine import EngineKey, load_server

        path = MODELS_DIR / f"{name}-instruct-q4_k_m.gguf"
        self.server = load_server(
            EngineKey.create(path, 1, 4096, threads), port=0, api_key=os.urandom(16).hex()
        )

    def complete(self, prompt: str, max_tokens: int) -> dict[str, Any]:
        chunks: list[dict[str, Any]] = []
        body = {
            "prompt": prompt,
            "max_tokens": max_tokens,
            "temperature": 0,
            "logprobs": TOP,
            "cache_prompt": True,
            "stop": ["\n", "<|im_end|>"],
        }

        def take(chunk: dict[str, Any]) -> bool:
            chunks.append(chunk)
            return False  # never asks llama.cpp to stop

        self.server.handle_completions(body, take)
        return chunks[-1]


def ask(model: Model, framing: str, q: Question) -> dict[str, Any]:
    """One question; its answer (yes/no/None), P(yes) where it has one, and its timing."""
    c = q.change
    started = time.perf_counter()
    if framing == "restate":
        reply = model.complete(restate_prompt(q.code, c.node_type), 48)
        text = reply["choices"][0]["text"].strip()
        said: bool | None = restate_agrees(c.summary, text, c.node)
        p_yes = None
    else:
        prompt = (
            chat_prompt(q.code, c.summary, c.node_type)
            if framing == "chat"
            else comment_prompt(q.code, c.summary)
        )
        reply = model.complete(prompt, 1)
        choice = reply["choices"][0]
        text = choice["text"]
        top = (choice.get("logprobs") or {}).get("content") or [{}]
        p_yes = yes_probability(top[0].get("top_logprobs") or [])
        said = None if p_yes is None else p_yes >= 0.5
    timings = reply.get("timings") or {}
    return {
        "said": said,
        "p_yes": p_yes,
        "text": text,
        "seconds": round(time.perf_counter() - started, 3),
        "prompt_n": timings.get("prompt_n"),
        "cache_n": timings.get("cache_n"),
    }


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(args: argparse.Namespace) -> int:
    results = Path(args.results)
    done = done_keys(results)
    model = Model(args.model, args.threads)
    framings = args.framings.split(",")
    print(f"start: {_uptime()}", file=sys.stderr)
    with results.open("a") as sink:
        for out, change in _changes(args.exports):
            if args.passed_only and change.refusal:
                continue
            if args.rows and row(change) not in args.rows.split(","):
                continue
            (q,) = questions([change], out)
            for framing in framings:
                key = _key(args.model, framing, q)
                if key in done:
                    continue
                answer = ask(model, framing, q)
                sink.write(
                    json.dumps(
                        {
                            "key": key,
                            "model": args.model,
                            "framing": framing,
                            **answer,
                            "load": os.getloadavg()[0],
                        }
                    )
                    + "\n"
                )
                sink.flush()
                done.add(key)
                print(
                    f"{framing:8} {answer['seconds']:6.2f}s {answer['said']!s:5} "
                    f"{change.verdict}/{change.category} {change.node}",
                    file=sys.stderr,
                )
    print(f"end: {_uptime()}", file=sys.stderr)
    return 0


def _sweep(rows: list[tuple[CheckedChange, float]]) -> dict[str, Any]:
    """How well P(yes) separates accepted from wrong summaries: the rank statistic (the
    chance an accepted one gets a higher P(yes) than a wrong one; 0.5 is chance), and
    the threshold that refuses the most wrong ones while keeping 85% of the accepted
    (tuned on these very labels, so an upper bound)."""
    accepted = [p for c, p in rows if row(c) == "accept"]
    wrong = [p for c, p in rows if row(c) == "reject-wrong"]
    best: dict[str, Any] = {}
    for t in sorted({p for _, p in rows}):
        bar = meets_bar(confusion((c, p >= t) for c, p in rows))
        if float(bar["accepted_kept"]) >= 0.85:
            best = {"threshold": round(t, 4), **bar}
    return {"auc_accept_vs_wrong": rank_statistic(accepted, wrong) or 0.0, "tuned": best}


def report(args: argparse.Namespace) -> int:
    answers = {row["key"]: row for row in result_rows(Path(args.results))}
    changes = [c for _, c in _changes(args.exports)]
    found: dict[str, Any] = {}
    for model in sorted({a["model"] for a in answers.values()}):
        for framing in FRAMINGS:
            got = []
            for c in changes:
                a = answers.get(json.dumps([model, framing, c.project, c.node, c.summary]))
                if a is not None:
                    got.append((c, a))
            if not got:
                continue
            passed = [(c, a) for c, a in got if not c.refusal]
            seconds = [a["seconds"] for _, a in got]
            entry: dict[str, Any] = {
                "questions": len(got),
                "seconds_per_question": round(sum(seconds) / len(seconds), 2),
                "prompt_tokens_mean": round(sum(a["prompt_n"] or 0 for _, a in got) / len(got)),
                "load_mean": round(sum(a["load"] for _, a in got) / len(got), 1),
                "all": confusion((c, a["said"]) for c, a in got),
                "all_bar": meets_bar(confusion((c, a["said"]) for c, a in got)),
                "passing_host_checks": confusion((c, a["said"]) for c, a in passed),
                "passing_bar": meets_bar(confusion((c, a["said"]) for c, a in passed)),
            }
            probs = [(c, a["p_yes"]) for c, a in passed if a["p_yes"] is not None]
            if probs:
                entry["passing_sweep"] = _sweep(probs)
            if args.changes:
                entry["changes"] = [
                    [
                        c.project,
                        c.node,
                        c.summary,
                        f"{c.verdict}/{c.category}",
                        a["said"],
                        a["p_yes"],
                        a["text"],
                    ]
                    for c, a in got
                ]
            found[f"{model} {framing}"] = entry
    json.dump(found, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run", help="ask the model; answers appended to --results")
    go.add_argument("--model", default="qwen2.5-coder-1.5b")
    go.add_argument("--framings", default=",".join(FRAMINGS))
    go.add_argument("--threads", type=int, default=2)
    go.add_argument(
        "--passed-only",
        action="store_true",
        help="only the summaries today's host checks let through",
    )
    go.add_argument("--rows", default="", help="only these rows, e.g. accept,reject-wrong")
    show = sub.add_parser("report", help="the confusion tables from --results")
    show.add_argument("--changes", action="store_true", help="every answer too")
    for p in (go, show):
        p.add_argument("--results", required=True, help="JSON lines of answers")
        p.add_argument("exports", nargs="+", help="OUT:PROJECT, an export and its project")
    args = parser.parse_args(argv)
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    sys.exit(main())
