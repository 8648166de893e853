"""Discovery versus an ``ast`` walk of the same files: the running interpreter's stdlib.

Prints one JSON object. ``seconds_remora`` is ``discover()`` as configured by
default (parse processes = CPUs available); ``seconds_remora_sequential`` is
the same with one process. The ``ast`` side is independent: its own directory
walk, ``ast.parse`` of each file, and a walk that counts classes, and functions
versus methods by their nearest enclosing definition. Each side runs
``--repeat`` times, interleaved, and the fastest run counts (the machine may be
shared). Files whose counts differ are listed with the reason.

    .venv/bin/python benchmarks/discovery.py [--repeat 3] [--root DIR] [--workers N]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import sysconfig
import time
from collections import Counter
from pathlib import Path
from typing import Any

from remora.config import DiscoveryConfig
from remora.discovery import DiscoveryResult, discover
from remora.discovery.pool import available_cpus

# The stdlib directory also holds installed packages; they are not the stdlib.
SKIP_DIRS = {"site-packages", "dist-packages", "__pycache__"}
# Remora's default ignores drop a directory named venv (the stdlib's venv package);
# negation in the config takes it back, so both sides read the same files.
REMORA_IGNORE = ["!venv", *(f"{d}/" for d in sorted(SKIP_DIRS))]
KINDS = ("class", "function", "method")


def ast_files(root: Path) -> list[Path]:
    found: list[Path] = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        found.extend(Path(directory, f) for f in sorted(files) if f.endswith(".py"))
    return found


def ast_counts(source: bytes) -> Counter[str]:
    counts: Counter[str] = Counter()
    stack: list[tuple[ast.AST, str | None]] = [(ast.parse(source), None)]
    while stack:
        node, enclosing = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                counts["class"] += 1
                stack.append((child, "class"))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                counts["method" if enclosing == "class" else "function"] += 1
                stack.append((child, "function"))
            else:
                stack.append((child, enclosing))
    return counts


def run_ast(root: Path) -> tuple[float, dict[str, Counter[str]], dict[str, str]]:
    started = time.perf_counter()
    counts: dict[str, Counter[str]] = {}
    errors: dict[str, str] = {}
    for path in ast_files(root):
        rel = path.relative_to(root).as_posix()
        try:
            counts[rel] = ast_counts(path.read_bytes())
        except (SyntaxError, ValueError, OSError) as exc:
            errors[rel] = f"{type(exc).__name__}: {exc}"
    return time.perf_counter() - started, counts, errors


def run_remora(root: Path, workers: int) -> tuple[float, DiscoveryResult]:
    config = DiscoveryConfig(ignore=REMORA_IGNORE, workers=workers)
    started = time.perf_counter()
    result = discover([root], project_root=root, config=config)
    return time.perf_counter() - started, result


def remora_counts(result: DiscoveryResult) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {}
    for node in result.nodes:
        per_file = counts.setdefault(node.file_path, Counter())
        if node.node_type != "file":
            per_file[node.node_type] += 1
    return counts


def explain(
    rel: str, remora: Counter[str] | None, ast_errors: dict[str, str], warnings: dict[str, str]
) -> str:
    """Why the two counts of one file differ (the reason's text up to ':' is its category)."""
    if rel in ast_errors and remora is not None:
        if rel in warnings:
            return f"ast rejects it, tree-sitter recovered: {ast_errors[rel]}; {warnings[rel]}"
        return (
            f"ast rejects it, tree-sitter's grammar accepts it: {ast_errors[rel]} "
            "(tree-sitter-python still parses Python 2 print/exec statements, old octal "
            "literals, and ignores coding cookies)"
        )
    if remora is None and "not UTF-8" in warnings.get(rel, ""):
        return (
            "remora skips non-UTF-8 files: ast decodes them by their PEP 263 coding "
            f"cookie; {warnings[rel]}"
        )
    if remora is None:
        return f"remora skipped it: {warnings.get(rel, 'not found by its walk')}"
    if rel in warnings:
        return f"tree-sitter error on code ast accepts: {warnings[rel]}"
    return "unexplained: counts differ on a file both parsed cleanly"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(sysconfig.get_paths()["stdlib"]))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=available_cpus())
    args = parser.parse_args()
    root = args.root.resolve()

    seconds: dict[str, list[float]] = {"ast": [], "parallel": [], "sequential": []}
    ast_result: tuple[dict[str, Counter[str]], dict[str, str]] = ({}, {})
    result = DiscoveryResult()
    workers_used = 1
    for _ in range(args.repeat):
        elapsed, counts, errors = run_ast(root)
        seconds["ast"].append(elapsed)
        ast_result = (counts, errors)
        elapsed, result = run_remora(root, 1)
        seconds["sequential"].append(elapsed)
        if args.workers > 1:
            elapsed, parallel = run_remora(root, args.workers)
            seconds["parallel"].append(elapsed)
            workers_used = parallel.workers
    best = {k: min(v) for k, v in seconds.items() if v}
    seconds_remora = best.get("parallel", best["sequential"])

    ast_by_file, ast_errors = ast_result
    ours = remora_counts(result)
    warnings = {w.file: w.message for w in result.warnings}
    mismatches: list[dict[str, Any]] = []
    both_rejected: list[dict[str, str]] = []
    for rel in sorted(set(ours) | set(ast_by_file) | set(ast_errors)):
        mine, theirs = ours.get(rel), ast_by_file.get(rel)
        if mine is not None and theirs is not None and mine == theirs:
            continue
        if mine is None and theirs is None:
            both_rejected.append(
                {"file": rel, "ast": ast_errors.get(rel, ""), "remora": warnings.get(rel, "")}
            )
            continue
        mismatches.append(
            {
                "file": rel,
                "remora": None if mine is None else {k: mine[k] for k in KINDS},
                "ast": None if theirs is None else {k: theirs[k] for k in KINDS},
                "reason": explain(rel, mine, ast_errors, warnings),
            }
        )
    agreed = [rel for rel in ours if ast_by_file.get(rel) == ours[rel]]
    total_ast = Counter[str]()
    for per_file in ast_by_file.values():
        total_ast.update(per_file)
    total_remora = Counter[str](n.node_type for n in result.nodes)

    print(
        json.dumps(
            {
                "root": str(root),
                "python": platform.python_version(),
                "cpus": available_cpus(),
                "files": result.files,
                "files_skipped_by_remora": result.skipped,
                "files_ast_parsed": len(ast_by_file),
                "files_ast_failed": len(ast_errors),
                "nodes": len(result.nodes),
                "nodes_by_type": {k: total_remora[k] for k in ("file", *KINDS)},
                "nodes_ast": len(ast_by_file) + sum(total_ast.values()),
                "nodes_ast_by_type": {"file": len(ast_by_file), **{k: total_ast[k] for k in KINDS}},
                "files_with_equal_counts": len(agreed),
                "seconds_remora": round(seconds_remora, 3),
                "seconds_remora_sequential": round(best["sequential"], 3),
                "seconds_remora_parallel": round(best["parallel"], 3)
                if "parallel" in best
                else None,
                "workers": workers_used,
                "seconds_ast": round(best["ast"], 3),
                "ratio": round(seconds_remora / best["ast"], 3),
                "ratio_sequential": round(best["sequential"] / best["ast"], 3),
                "repeat": args.repeat,
                "runs": {k: [round(s, 3) for s in v] for k, v in seconds.items()},
                "count_mismatches": len(mismatches),
                "mismatch_reasons": dict(Counter(m["reason"].split(":")[0] for m in mismatches)),
                "mismatches": mismatches,
                "both_rejected": both_rejected,
                "warnings": len(result.warnings),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
