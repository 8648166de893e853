"""Would a judge model, asked whether a proposed docstring is true of the code, keep the
merged ones and drop the false ones? Offline, on the labelled docstring proposals of the
development projects (``docstring_judge_cases.json``).

``build`` recovers the cases from review exports (``OUT/<project>/index.json`` and
``changes/``) whose diffs still hash to a label; only Remora's proposed docstrings are
kept, never the projects' code. ``run`` prepares each project with ``review_lib``
(pinned sdist, docstrings stripped), reads the node's code, and asks the embedded model
(in this process through llama.cpp, greedy, the first token's log-probabilities) in the
framings of ``review_lib/judge.py``; answers are appended to ``--results`` (JSON lines,
so a run resumes), in a seeded shuffled order so a partial run is a sample of all
projects. ``report`` prints JSON: per model and framing (and the model-free agreement of
two proposals and the statement count), the rank statistic, the threshold chosen on the
first half of the projects and the kept table at it on the second half, a sweep, and the
seconds per case with the load average.

Usage (from benchmarks/):
  ../.venv/bin/python docstring_judge.py build /tmp/review_dev /tmp/s33/rev_A ...
  nice -n 5 ../.venv/bin/python docstring_judge.py run --model qwen2.5-coder-0.5b \
      --results /tmp/judge.jsonl
  ../.venv/bin/python docstring_judge.py report --results /tmp/judge.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from review_lib.corpus import CACHE, PROJECTS, prepare
from review_lib.judge import (
    FRAMINGS,
    Case,
    agreement,
    collect,
    false_prompt,
    halves,
    kept_table,
    load_cases,
    none_false_probability,
    rank_auc,
    save_cases,
    sentence_prompt,
    statements,
    tuned_threshold,
    whole_prompt,
    yes_probability,
)
from review_lib.result_rows import done_keys, result_rows
from review_lib.verifier import node_code
from summary_verifier import Model

WORK = CACHE / "judge"


def build(args: argparse.Namespace) -> int:
    cases = collect(Path(e) for e in args.exports)
    save_cases(cases)
    print(f"{len(cases)} cases written", file=sys.stderr)
    return 0


def _top(reply: dict[str, Any]) -> list[dict[str, Any]]:
    content = (reply["choices"][0].get("logprobs") or {}).get("content") or [{}]
    top: list[dict[str, Any]] = content[0].get("top_logprobs") or []
    return top


def ask(model: Model, framing: str, code: str, case: Case) -> float | None:
    """The case's score in ``framing`` (None when no answer token was among the top)."""
    said = statements(case.docstring)
    if framing == "whole":
        return yes_probability(
            _top(model.complete(whole_prompt(code, case.docstring, case.node_type), 1))
        )
    if framing == "false":
        reply = model.complete(false_prompt(code, said, case.node_type), 1)
        return none_false_probability(_top(reply), len(said))
    scores = [
        yes_probability(_top(model.complete(sentence_prompt(code, s, case.node_type), 1)))
        for s in said
    ]
    known = [s for s in scores if s is not None]
    return min(known) if known else None


def run(args: argparse.Namespace) -> int:
    results = Path(args.results)
    done = done_keys(results)
    cases = load_cases()
    random.Random(args.seed).shuffle(cases)
    if args.reverse:  # a second process from the other end, into its own --results
        cases.reverse()
    roots = {name: WORK / name for name in sorted({c.project for c in cases})}
    for name, root in roots.items():
        prepare(PROJECTS[name], root)
    model = Model(args.model, args.threads)
    framings = args.framings.split(",")
    print(f"start: {os.getloadavg()}", file=sys.stderr)
    with results.open("a") as sink:
        for case in cases[: args.limit or None]:
            code = node_code(roots[case.project], case.file, case.node_type, case.node)
            for framing in framings:
                key = json.dumps([args.model, framing, case.key])
                if key in done:
                    continue
                started = time.perf_counter()
                score = ask(model, framing, code, case)
                seconds = round(time.perf_counter() - started, 3)
                row = {"key": key, "score": score, "seconds": seconds, "load": os.getloadavg()[0]}
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                done.add(key)
                print(
                    f"{framing:8} {seconds:6.2f}s {score} {case.verdict}/{case.category} "
                    f"{case.project} {case.node}",
                    file=sys.stderr,
                )
    print(f"end: {os.getloadavg()}", file=sys.stderr)
    return 0


def _evaluate(cases: Sequence[Case], score: Callable[[Case], float | None]) -> dict[str, Any]:
    tune, held = halves()
    scored = [(c, s) for c in cases if (s := score(c)) is not None]
    first = [(c, s) for c, s in scored if c.project in tune]
    second = [(c, s) for c, s in scored if c.project in held]
    threshold = tuned_threshold(first)
    rows: dict[str, list[float]] = {}
    for c, s in scored:
        rows.setdefault("accept" if c.verdict == "accept" else c.category, []).append(s)
    return {
        "cases": len(scored),
        "mean_score": {r: round(sum(v) / len(v), 3) for r, v in sorted(rows.items())},
        "auc_accept_vs_wrong": {"tune": rank_auc(first), "report": rank_auc(second)},
        "chosen_on_tune": kept_table(first, threshold),
        "on_report_half": kept_table(second, threshold),
        "report_half_unfiltered": kept_table(second, None),
        "sweep_report_half": [kept_table(second, t) for t in (0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)],
    }


def report(args: argparse.Namespace) -> int:
    answers: dict[str, dict[str, Any]] = {}
    for results in args.results:
        answers |= {answer["key"]: answer for answer in result_rows(Path(results))}
    cases = load_cases()
    tune, held = halves()
    found: dict[str, Any] = {"halves": {"tune": sorted(tune), "report": sorted(held)}}
    found["agreement (model-free)"] = _evaluate(cases, agreement)
    found["fewer statements (model-free)"] = _evaluate(
        cases, lambda c: -float(len(statements(c.docstring)))
    )
    models = sorted({json.loads(k)[0] for k in answers})
    for model in models:
        for framing in FRAMINGS:
            got = {
                c.key: answers[k]
                for c in cases
                if (k := json.dumps([model, framing, c.key])) in answers
            }
            if not got:
                continue
            scores = {key: answer["score"] for key, answer in got.items()}
            entry = _evaluate([c for c in cases if c.key in got], lambda c, s=scores: s[c.key])
            entry["seconds_per_case"] = round(sum(a["seconds"] for a in got.values()) / len(got), 2)
            entry["load_mean"] = round(sum(a["load"] for a in got.values()) / len(got), 2)
            found[f"{model} {framing}"] = entry
    json.dump(found, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="recover the labelled cases from review exports")
    make.add_argument("exports", nargs="+", help="export folders (OUT, holding OUT/<project>/)")
    go = sub.add_parser("run", help="ask the judge; answers appended to --results")
    go.add_argument("--model", default="qwen2.5-coder-0.5b")
    go.add_argument("--framings", default=",".join(FRAMINGS))
    go.add_argument("--threads", type=int, default=2)
    go.add_argument("--seed", type=int, default=57)
    go.add_argument("--limit", type=int, default=0, help="only the first N cases (0: all)")
    go.add_argument("--reverse", action="store_true", help="the shuffled order backwards")
    go.add_argument("--results", required=True, help="JSON lines of answers")
    show = sub.add_parser("report", help="the threshold tables from --results")
    show.add_argument("--results", nargs="+", required=True, help="JSON lines of answers")
    args = parser.parse_args(argv)
    if args.command == "build":
        return build(args)
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    sys.exit(main())
