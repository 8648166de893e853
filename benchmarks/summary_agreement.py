"""Do the model's sampled drafts agree with its greedy draft where reviewers merged it?

A self-consistency check, measured offline before anything is built: a summary the
model would write again and again, sampled, is one it is sure of; one it would word
five different ways may be a guess. Each labelled docstring change that today's host
checks let through (``review_lib/summary_checks.py``) whose label was given to the
embedded model's draft is asked again as the docstring operation asks it today
(``remora.code.docstring.draft.shape_prompt``, fill-in-the-middle, on the node's file as
``project-before/`` has it, its docstrings stripped as the run saw it): once greedy, to
check that today's prompt still gives the labelled summary, and ``--samples`` times at
the operation's sampling temperature. Each answer is appended to ``--results`` (JSON
lines, so a run resumes). The report gives, for the rows whose greedy draft is the
labelled summary, the agreement of the samples with it (content words shared, as
Jaccard, averaged over the samples) per verdict, the rank statistic (the chance an
accepted summary agrees more than a rejected or a false one; 0.5 is chance) and the
refusals at the threshold that keeps 85% of the accepted.

Usage (from benchmarks/):
  ../.venv/bin/python summary_agreement.py run --results /tmp/agree.jsonl OUT:PROJECT ...
  ../.venv/bin/python summary_agreement.py report --results /tmp/agree.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from review_lib.export import export_and_project
from review_lib.result_rows import done_keys, result_rows
from review_lib.summary_checks import CheckedChange, checked_changes, start_line
from review_lib.verifier import _STOP, rank_statistic
from summary_verifier import Model

from remora.code.docstring.draft import (
    FIXED_EXAMPLES,
    MAX_EXAMPLES,
    file_examples,
    first_sentence,
    shape_prompt,
)
from remora.profiles import QWEN_FIM
from remora.providers.completion_prompt import DEFAULT_SYSTEM, SAMPLED_TEMPERATURE

_EMBEDDED_05 = "qwen2.5-coder-0.5b"
_KEEP_ACCEPTS = 0.85


def _prompts(root: Path, change: CheckedChange) -> dict[str, str]:
    """The two shapes the operation asks in, fill-in-the-middle first, then the chat it
    retries with when the first draft is refused (as ``draft_docstring.pym`` sends them)."""
    text = (root / change.file).read_text("utf-8")
    line = 1 if change.node_type == "file" else start_line(text, change.node)
    examples = [e.code for e in file_examples(text, skip_line=line)[:MAX_EXAMPLES]]
    shaped = shape_prompt(
        text, change.node_type, change.node, line, examples or list(FIXED_EXAMPLES)
    )
    if shaped is None:
        return {}
    before, after, middle = QWEN_FIM
    return {
        "fim": f"{before}{shaped['prefix']}{after}{shaped['suffix']}{middle}",
        "chat": (
            f"<|im_start|>system\n{DEFAULT_SYSTEM}<|im_end|>\n"
            f"<|im_start|>user\n{shaped['instruction']}<|im_end|>\n"
            f"<|im_start|>assistant\n{shaped['chat_prefix']}"
        ),
    }


def _complete(model: Model, prompt: str, temperature: float, seed: int) -> str:
    chunks: list[dict[str, Any]] = []
    body = {
        "prompt": prompt,
        "max_tokens": 40,
        "temperature": temperature,
        "seed": seed,
        "cache_prompt": True,
        "stop": ['"""', "\n"],
    }
    model.server.handle_completions(body, lambda chunk: bool(chunks.append(chunk)))
    return str(chunks[-1]["choices"][0]["text"])


def _sentence(completion: str) -> str:
    return str(first_sentence(None, completion))  # type: ignore[arg-type]  # no context read


def _words(text: str) -> set[str]:
    """Content words, a plural's s dropped: 'Return the keys' and 'Returns a key' share 'key'."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words - _STOP}


def agreement(reference: str, samples: list[str]) -> float:
    """The mean Jaccard of content words between the reference and each sample."""
    ref = _words(reference)
    scores = []
    for sample in samples:
        words = _words(sample)
        union = ref | words
        scores.append(len(ref & words) / len(union) if union else 1.0)
    return sum(scores) / len(scores) if scores else 0.0


def run(args: argparse.Namespace) -> int:
    results = Path(args.results)
    done = done_keys(results)
    model = Model(_EMBEDDED_05, args.threads)
    print(f"start: load {os.getloadavg()}", file=sys.stderr)
    with results.open("a") as sink:
        for given in args.exports:
            out, project = export_and_project(given)
            root = out / project / "project-before"
            for change in checked_changes(out, project):
                key = json.dumps([project, change.node, change.summary])
                if key in done or change.refusal or _EMBEDDED_05 not in change.model:
                    continue
                prompts = _prompts(root, change)
                if not prompts:
                    continue
                started = time.perf_counter()
                used, greedy, samples = "", "", []
                for shape, prompt in prompts.items():
                    used, greedy = shape, _sentence(_complete(model, prompt, 0.0, 0))
                    if greedy == change.summary:
                        samples = [
                            _sentence(_complete(model, prompt, SAMPLED_TEMPERATURE, seed))
                            for seed in range(1, args.samples + 1)
                        ]
                        break
                row = {
                    "key": key,
                    "project": project,
                    "node": change.node,
                    "summary": change.summary,
                    "verdict": change.verdict,
                    "category": change.category,
                    "shape": used,
                    "greedy": greedy,
                    "samples": samples,
                    "seconds": round(time.perf_counter() - started, 2),
                    "load": os.getloadavg()[0],
                }
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                done.add(key)
                same = "=" if greedy == change.summary else "≠"
                score = agreement(change.summary, samples)
                print(
                    f"{row['seconds']:5.1f}s {same} {score:.2f} {change.verdict}/"
                    f"{change.category} {project} {change.node}",
                    file=sys.stderr,
                )
    print(f"end: load {os.getloadavg()}", file=sys.stderr)
    return 0


def report(args: argparse.Namespace) -> int:
    rows = result_rows(Path(args.results))
    same = [r for r in rows if r["greedy"] == r["summary"]]
    scored = [(r, agreement(r["summary"], r["samples"])) for r in same]
    groups: dict[str, list[float]] = {}
    for r, score in scored:
        kind = r["verdict"] if r["verdict"] != "reject" else f"reject-{r['category']}"
        groups.setdefault(kind, []).append(score)
    accepted = sorted(groups.get("accept", []))
    wrong = groups.get("reject-wrong", [])
    others = [s for kind, scores in groups.items() if kind != "accept" for s in scores]
    threshold = accepted[int(len(accepted) * (1 - _KEEP_ACCEPTS))] if accepted else 0.0
    table = {
        "rows": len(rows),
        "greedy_is_labelled": len(same),
        "mean_agreement": {k: round(sum(v) / len(v), 3) for k, v in sorted(groups.items())},
        "count": {k: len(v) for k, v in sorted(groups.items())},
        "rank_accept_over_wrong": rank_statistic(accepted, wrong),
        "rank_accept_over_not_accepted": rank_statistic(accepted, others),
        "threshold_keeping_85pct_accepts": round(threshold, 3),
        "refused_at_threshold": {
            k: sum(s < threshold for s in v) for k, v in sorted(groups.items())
        },
        "seconds_per_row": round(sum(r["seconds"] for r in rows) / max(1, len(rows)), 2),
    }
    json.dump(table, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("--results", required=True)
    go.add_argument("--samples", type=int, default=4)
    go.add_argument("--threads", type=int, default=2)
    go.add_argument("exports", nargs="+", help="OUT:PROJECT, an export and its project")
    show = sub.add_parser("report")
    show.add_argument("--results", required=True)
    args = parser.parse_args(argv)
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    sys.exit(main())
