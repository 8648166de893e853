"""The markdown table: per module, one row per tool, then each tool's medians."""

from __future__ import annotations

import statistics
from typing import Any

COLUMNS = (
    "module",
    "tool",
    "line cov",
    "branch cov",
    "mutation",
    "tests",
    "pass twice",
    "test lines",
    "wall s",
    "CPU s",
)


def _cell(value: Any, share: bool = False) -> str:
    """A share with two decimals; a count or seconds whole, or with one decimal below 10."""
    if value is None:
        return "–"
    if share:
        return f"{value:.2f}"
    if float(value).is_integer() or value >= 10:
        return f"{value:.0f}"
    return f"{value:.1f}"


def _median(values: list[Any]) -> float | None:
    known = [float(v) for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


def medians(rows: list[dict[str, Any]], tool: str) -> dict[str, float | None]:
    """Each figure's median over the modules ``tool`` ran on (branch cov: modules with branches)."""
    mine = [r for r in rows if r["tool"] == tool]
    keys = ("line_coverage", "branch_coverage", "mutation_score", "tests", "passed_twice")
    out = {key: _median([r.get(key) for r in mine]) for key in (*keys, "test_lines")}
    out["wall_s"] = _median([r["wall_s"] for r in mine])
    out["cpu_s"] = _median([r["cpu_s"] for r in mine])
    return out


def _row(label: str, tool: str, figures: dict[str, Any]) -> str:
    cells = [label, tool]
    shares = ("line_coverage", "branch_coverage", "mutation_score")
    cells += [_cell(figures.get(key), share=True) for key in shares]
    cells += [_cell(figures[key]) for key in ("tests", "passed_twice", "test_lines")]
    cells += [_cell(figures["wall_s"]), _cell(figures["cpu_s"])]
    return "| " + " | ".join(cells) + " |"


def table(rows: list[dict[str, Any]], tools: list[str]) -> str:
    """Markdown: a row per module and tool (in ``tools`` order), then a median row per tool."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    modules = list(dict.fromkeys(r["module"] for r in rows))
    for module in modules:
        for tool in tools:
            for row in rows:
                if row["module"] == module and row["tool"] == tool:
                    lines.append(_row(module, tool, row))
    for tool in tools:
        if any(r["tool"] == tool for r in rows):
            lines.append(_row("**median**", tool, medians(rows, tool)))
    return "\n".join(lines)


# What the model's cases add: the figures of remora's row minus remora-no-model-cases'.
ADDED = ("passed_twice", "branch_coverage", "mutants_killed", "mutation_score")


def model_cases_added(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per module run by both remora and remora-no-model-cases: each of ``ADDED`` with the
    model's cases, without, and the difference; then the differences' medians."""
    by_tool = {(r["module"], r["tool"]): r for r in rows}
    modules = []
    for module in dict.fromkeys(r["module"] for r in rows):
        with_, without = (
            by_tool.get((module, "remora")),
            by_tool.get((module, "remora-no-model-cases")),
        )
        if with_ is None or without is None:
            continue
        entry: dict[str, Any] = {"module": module}
        for key in ADDED:
            a, b = with_.get(key), without.get(key)
            gain = round(a - b, 3) if a is not None and b is not None else None
            entry[key] = {"with": a, "without": b, "added": gain}
        modules.append(entry)
    median_gain = {key: _median([m[key]["added"] for m in modules]) for key in ADDED}
    return {"modules": modules, "median_added": median_gain}


def model_cases_table(added: dict[str, Any]) -> str:
    """Markdown: per module, each figure as ``with / without (+added)``; then the medians."""
    head = ["module", "tests passing twice", "branch cov", "mutants killed", "mutation"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for entry in added["modules"]:
        cells = [entry["module"]]
        for key in ADDED:
            share = key in ("branch_coverage", "mutation_score")
            f = entry[key]
            cells.append(
                f"{_cell(f['with'], share)} / {_cell(f['without'], share)} "
                f"({_signed(f['added'], share)})"
            )
        lines.append("| " + " | ".join(cells) + " |")
    medians_row = ["**median added**"]
    for key in ADDED:
        medians_row.append(_signed(added["median_added"][key], key.endswith(("coverage", "score"))))
    lines.append("| " + " | ".join(medians_row) + " |")
    return "\n".join(lines)


def _signed(value: float | None, share: bool) -> str:
    if value is None:
        return "–"
    text = _cell(abs(value), share)
    return ("+" if value >= 0 else "-") + text


__all__ = ["ADDED", "COLUMNS", "medians", "model_cases_added", "model_cases_table", "table"]
