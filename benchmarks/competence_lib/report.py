"""Figures per operation from the per-run records, and the Markdown table.

Every run counts: a failed run adds a run with no summary, no passing test, no
argument set and no fix, so failures lower the figures instead of leaving them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import fmean
from typing import Any


def _share(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None


def _mean(values: Sequence[float]) -> float | None:
    return round(fmean(values), 3) if values else None


def common_figures(runs: list[dict[str, Any]], wall_s: float) -> dict[str, Any]:
    codes = Counter(r["error_code"] or "none" for r in runs if r["status"] == "failed")
    changed = [r for r in runs if r["changed_files"]]
    kinds = Counter(kind for r in changed for kind in {p["kind"] for p in r["problems"]})
    return {
        "runs": len(runs),
        "finished": sum(1 for r in runs if r["status"] == "success"),
        "failed": sum(1 for r in runs if r["status"] == "failed"),
        "failed_by_code": dict(sorted(codes.items())),
        "skipped": sum(1 for r in runs if r["status"] == "skipped"),
        "degraded": sum(1 for r in runs if r["degraded"]),
        "turns_per_run": _mean([r["turns"] for r in runs]),
        "prompt_tokens_per_run": _mean([r["prompt_tokens"] for r in runs]),
        "completion_tokens_per_run": _mean([r["completion_tokens"] for r in runs]),
        "run_s_mean": _mean([r["duration_s"] for r in runs]),
        "wall_s": round(wall_s, 1),
        "changes": len(changed),
        "changes_correct": sum(1 for r in changed if not r["problems"]),
        "change_problems": dict(sorted(kinds.items())),
    }


def docstring_figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    written = [r for r in runs if r["summary"]]
    documented = [r for r in runs if r["has_docstring"]]
    # A class whose module does not import cannot be judged: left out of the share.
    unjudged = sum(1 for r in documented if r.get("params_unjudged"))
    return {
        "rouge_l": _mean([r["rouge_l"] for r in runs]),
        "rouge_l_written": _mean([r["rouge_l"] for r in written]),
        "name_baseline_rouge_l": _mean([r["name_rouge_l"] for r in runs]),
        "no_summary_share": _share(len(runs) - len(written), len(runs)),
        "written_share": _share(len(written), len(runs)),
        "same_as_name_share": _share(sum(1 for r in written if r["same_as_name"]), len(runs)),
        "params_match_share": _share(
            sum(1 for r in documented if r["params_match"]), len(runs) - unjudged
        ),
        "params_unjudged": unjudged,
        "code_unchanged_share": _share(sum(1 for r in runs if r["code_unchanged"]), len(runs)),
    }


def test_figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    generated = sum(r["tests_generated"] for r in runs)
    branches = sum(r["branches"] for r in runs)
    return {
        "tests_generated": generated,
        "tests_passed": sum(r["tests_passed"] for r in runs),
        "pass_share": _share(sum(r["tests_passed"] for r in runs), generated),
        "runs_without_new_tests": sum(1 for r in runs if not r["tests_generated"]),
        "node_coverage_mean": _mean([r["coverage"] for r in runs]),
        "branch_share": _share(sum(r["branches_covered"] for r in runs), branches),
    }


def sample_figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    sets, cases = sum(r["sets"] for r in runs), sum(r["cases"] for r in runs)
    return {
        "fixtures": sum(r["fixtures"] for r in runs),
        "argument_sets": sets,
        "read_share": _share(sum(r["sets_read"] for r in runs), sets),
        "cases": cases,
        "cases_passed_twice_share": _share(sum(r["cases_passed"] for r in runs), cases),
        "node_coverage_mean": _mean([r["coverage"] for r in runs if r["cases"]]),
        "branch_share": _share(
            sum(r["branches_covered"] for r in runs), sum(r["branches"] for r in runs)
        ),
        "runs_without_sets": sum(1 for r in runs if not r["sets"]),
    }


def lint_figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "equals_ruff_fix_share": _share(sum(1 for r in runs if r["equals_ruff_fix"]), len(runs)),
        "runs_left_unchanged": sum(1 for r in runs if not r["changed_files"]),
        # Past ruff's safe fixes (the drafted and the model's edits): findings gone, and
        # runs whose change added a finding or does not parse.
        "findings_fixed_beyond_ruff": sum(r.get("fixed_beyond_ruff", 0) for r in runs),
        "runs_adding_findings": sum(1 for r in runs if r.get("findings_added")),
    }


SPECIFIC = {
    "docstring": docstring_figures,
    "test": test_figures,
    "sample_data": sample_figures,
    "lint": lint_figures,
}


def figures(runs: list[dict[str, Any]], walls: dict[str, float]) -> dict[str, Any]:
    """Per operation: the common figures and the operation's own."""
    out: dict[str, Any] = {}
    for operation, specific in SPECIFIC.items():
        mine = [r for r in runs if r["operation"] == operation]
        if mine:
            out[operation] = {
                **common_figures(mine, walls.get(operation, 0.0)),
                **specific(mine),
            }
    return out


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _headline(operation: str, f: dict[str, Any]) -> str:
    if operation == "docstring":
        return (
            f"ROUGE-L {_fmt(f['rouge_l'])} (name alone {_fmt(f['name_baseline_rouge_l'])}); "
            f"no summary {_fmt(f['no_summary_share'])}; same as name "
            f"{_fmt(f['same_as_name_share'])}; params exact {_fmt(f['params_match_share'])}"
            + (f" ({f['params_unjudged']} not judged)" if f.get("params_unjudged") else "")
        )
    if operation == "test":
        return (
            f"{f['tests_passed']}/{f['tests_generated']} tests pass; node coverage "
            f"{_fmt(f['node_coverage_mean'])}; branches {_fmt(f['branch_share'])}; "
            f"runs without new tests {f['runs_without_new_tests']}"
        )
    if operation == "sample_data":
        return (
            f"{f['argument_sets']} sets in {f['fixtures']} fixtures; read by a new test "
            f"{_fmt(f['read_share'])}; {f['cases']} cases, pass twice "
            f"{_fmt(f['cases_passed_twice_share'])}; node coverage "
            f"{_fmt(f['node_coverage_mean'])}; branches {_fmt(f['branch_share'])}"
        )
    return (
        f"equals ruff's safe fix {_fmt(f['equals_ruff_fix_share'])}; "
        f"left unchanged {f['runs_left_unchanged']}; findings fixed past ruff "
        f"{f['findings_fixed_beyond_ruff']} (runs adding one {f['runs_adding_findings']})"
    )


# Per operation, the figures that say what the words added: (key, label).
SHARE_FIGURES = {
    "docstring": [("written_share", "summaries written"), ("rouge_l", "ROUGE-L")],
    "test": [("tests_passed", "passing tests"), ("node_coverage_mean", "node coverage")],
    "sample_data": [("argument_sets", "argument sets"), ("node_coverage_mean", "node coverage")],
    "lint": [
        ("equals_ruff_fix_share", "equals ruff's safe fix"),
        ("findings_fixed_beyond_ruff", "findings fixed past ruff"),
    ],
}


def share_table(model: dict[str, Any], host: dict[str, Any]) -> str:
    """The model's share: each figure with the model, with the host alone, and the gain."""
    rows = []
    for operation, keys in SHARE_FIGURES.items():
        if operation not in model or operation not in host:
            continue
        for key, label in [*keys, ("changes_correct", "changes correct")]:
            mine, alone = model[operation].get(key), host[operation].get(key)
            gain = (
                _fmt(round(mine - alone, 3))
                if isinstance(mine, int | float) and isinstance(alone, int | float)
                else "–"
            )
            rows.append(f"| {operation} | {label} | {_fmt(mine)} | {_fmt(alone)} | {gain} |")
    head = (
        "| operation | figure | with the model | host alone | model's share |\n"
        "|---|---|---|---|---|\n"
    )
    return head + "\n".join(rows)


def table(per_operation: dict[str, Any]) -> str:
    """A Markdown table: one row per operation."""
    head = (
        "| operation | runs | finished | failed (codes) | degraded | turns/run | "
        "tokens/run (prompt+completion) | wall s | changes correct | oracle |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for operation, f in per_operation.items():
        codes = ", ".join(f"{k} {v}" for k, v in f["failed_by_code"].items())
        tokens = f"{_fmt(f['prompt_tokens_per_run'])}+{_fmt(f['completion_tokens_per_run'])}"
        rows.append(
            f"| {operation} | {f['runs']} | {f['finished']} | {f['failed']}"
            f"{f' ({codes})' if codes else ''} | {f['degraded']} | {_fmt(f['turns_per_run'])} | "
            f"{tokens} | {_fmt(f['wall_s'])} | {f['changes_correct']}/{f['changes']} | "
            f"{_headline(operation, f)} |"
        )
    return head + "\n".join(rows) + "\n"


def corpus_listing(corpus: list[dict[str, Any]]) -> str:
    """The projects, files and nodes measured, as Markdown bullets."""
    lines = []
    for entry in corpus:
        lines.append(
            f"- {entry['project']} ({entry.get('part', 'dev')} part, sha256 "
            f"{entry['sha256'][:16]}…): {', '.join(entry['files'])}"
        )
        for operation, nodes in entry["nodes"].items():
            names = ", ".join(node.split("::", 1)[1] for node in nodes) or "none"
            lines.append(f"  - {operation}: {names}")
    return "\n".join(lines) + "\n"
