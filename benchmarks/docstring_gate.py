"""Which docstring drafts a maintainer merges as is, by the shape of the node's own code.

Every docstring label of the development part of the review corpus
(``benchmarks/review_labels/``) is joined with its node as Remora saw it: the
pinned sdist (fetched into the cache when missing), every docstring stripped as
``review_lib.corpus.prepare`` strips them, parsed by ``remora.code.parsing``. The
features are read from the node's ``ast`` only (its own statements: nested
functions, classes and lambdas are their own nodes): kind, branches, statements,
returns, raises, parameters, lines, calls to its class's other methods.

Printed as JSON: the merged-as-is share per feature bucket and model, and a
leave-one-project-out choice of one gate "at most B branches and at most S
statements" (functions and methods; classes and modules are not gated): the
thresholds are chosen on the other projects (the highest merged-as-is share among
kept drafts while keeping at least ``--keep-accepts`` of their accepted ones; ties:
more kept) and measured on the project left out. ``today`` restricts every figure
to the labelled nodes that today's ``left_alone`` (default options) still asks.

Usage (from benchmarks/):
  ../.venv/bin/python docstring_gate.py [--keep-accepts 0.75] [--model 0.5B|1.5B]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import libcst as cst
from competence_lib.corpus import fetch
from review_lib.corpus import CACHE, CORPUS, ReviewProject
from review_lib.labels import DOCSTRING_MODELS, LABELS_DIR
from review_lib.strip import strip_docstrings

from remora.code.docstring.behaviour import own_nodes
from remora.code.docstring.left_alone import left_alone
from remora.code.parsing import (
    Defined,
    NodeRef,
    SourceNode,
    ast_definitions,
    locate,
    located_definition,
    parse,
)

_BRANCHES = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.Try,
    ast.TryStar,
    ast.Match,
    ast.With,
    ast.AsyncWith,
    ast.BoolOp,
    ast.IfExp,
)
_VERDICTS = ("accept", "edit", "reject")
_UNLIMITED = 10**6


@dataclass(frozen=True, slots=True)
class Row:
    """One docstring label and the shape of its node."""

    project: str
    node: str
    model: str
    verdict: str
    kind: str  # module, class, function, method, property, special
    branches: int
    statements: int
    returns: int
    raises: int
    parameters: int
    returns_self: bool
    lines: int
    comprehensions: int
    own_class_calls: int
    asked_today: bool


def _kind(definition: Defined | None, name: str, in_class: bool) -> str:
    if definition is None:
        return "module"
    if isinstance(definition, ast.ClassDef):
        return "class"
    short = name.rsplit(".", 1)[-1]
    if len(short) > 4 and short.startswith("__") and short.endswith("__"):
        return "special"
    decorators = {ast.unparse(d) for d in getattr(definition, "decorator_list", ())}
    if "property" in decorators or "cached_property" in decorators:
        return "property"
    return "method" if in_class else "function"


def _class_methods(text: str, name: str) -> set[str]:
    """The method names of the class that holds ``name`` (empty for a top-level node)."""
    owner = name.rpartition(".")[0].rsplit(".", 1)[-1]
    classes = [d for d in ast_definitions(text) if isinstance(d, ast.ClassDef) and d.name == owner]
    return {
        s.name
        for c in classes
        for s in c.body
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _source_node(text: str, file: str, name: str) -> SourceNode:
    parsed = parse(text, file)
    if name == file:
        return locate(parsed, NodeRef("file", name))
    found = [node for full, node in parsed.definitions if full == name]
    if not found:
        raise LookupError(f"{file}: no definition {name!r}")
    kind = "class" if isinstance(found[0], cst.ClassDef) else "function"
    return locate(parsed, NodeRef(kind, name, 1))


def _definition(node: SourceNode) -> Defined | None:
    """The node's ``ast`` definition (None for a module)."""
    if node.definition is None:
        return None
    line = node.file.positions[node.definition].start.line
    found = located_definition(node.file.text, node.ref.full_name, line)
    if found is None:
        raise LookupError(f"{node.file.path}: no ast definition {node.ref.full_name!r}")
    return found


def _parameters(definition: Defined | None) -> int:
    """Parameters but ``self``/``cls`` (none for a class or module)."""
    if not isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef):
        return 0
    args = definition.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    return sum(a.arg not in ("self", "cls") for a in every)


def _own_class_calls(own: list[ast.AST], methods: set[str]) -> int:
    """Calls ``self.m(...)``/``cls.m(...)`` of a method ``m`` of the node's own class."""
    return sum(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in ("self", "cls")
        and n.func.attr in methods
        for n in own
    )


def shape(project: str, file: str, text: str, label: dict[str, str]) -> Row:
    """The label's node read from ``text`` (the stripped file)."""
    node = _source_node(text, file, label["node"])
    definition = _definition(node)
    if definition is None:
        own = own_nodes(ast.parse(text).body)
        lines = len(text.splitlines())
    else:
        own = own_nodes(definition.body)
        lines = (definition.end_lineno or definition.lineno) - definition.lineno + 1
    methods = _class_methods(text, label["node"]) if "." in label["node"] else set()
    returns = [n for n in own if isinstance(n, ast.Return)]
    return Row(
        project=project,
        node=label["node"],
        model=DOCSTRING_MODELS[label["model"]],
        verdict=label["verdict"],
        kind=_kind(definition, label["node"], bool(methods)),
        branches=sum(isinstance(n, _BRANCHES) for n in own),
        statements=sum(isinstance(n, ast.stmt) for n in own),
        returns=len(returns),
        raises=sum(isinstance(n, ast.Raise) for n in own),
        parameters=_parameters(definition),
        returns_self=any(isinstance(r.value, ast.Name) and r.value.id == "self" for r in returns),
        lines=lines,
        comprehensions=sum(isinstance(n, ast.comprehension) for n in own),
        own_class_calls=_own_class_calls(own, methods),
        asked_today=not left_alone(node),
    )


def rows(projects: Iterable[ReviewProject]) -> list[Row]:
    """Every docstring label of the projects, with its node's shape."""
    out: list[Row] = []
    for project in projects:
        labels_file = LABELS_DIR / f"{project.name}.json"
        if not labels_file.is_file():
            continue
        labels = json.loads(labels_file.read_text(encoding="utf-8"))["labels"]
        root = fetch(project.pin, CACHE)
        texts: dict[str, str] = {}
        for label in labels:
            if label["operation"] != "docstring":
                continue
            file = label["file"]
            if file not in texts:
                raw = (root / file).read_text(encoding="utf-8")
                texts[file] = strip_docstrings(raw, f"{project.key}/{file}")
            out.append(shape(project.name, file, texts[file], label))
    return out


def _tally(chosen: Iterable[Row]) -> dict[str, object]:
    counts = Counter(r.verdict for r in chosen)
    total = sum(counts.values())
    return {
        "n": total,
        **{v: counts[v] for v in _VERDICTS},
        "merged_as_is": round(counts["accept"] / total, 3) if total else None,
    }


def _bucket(value: int, edges: tuple[int, ...]) -> str:
    for edge in edges:
        if value <= edge:
            return f"<={edge}"
    return f">{edges[-1]}"


_FEATURES: dict[str, Callable[[Row], str]] = {
    "kind": lambda r: r.kind,
    "branches": lambda r: _bucket(r.branches, (0, 1, 2, 4)),
    "statements": lambda r: _bucket(r.statements, (1, 2, 4, 8)),
    "returns": lambda r: _bucket(r.returns, (0, 1, 2)),
    "raises": lambda r: _bucket(r.raises, (0, 1)),
    "parameters": lambda r: _bucket(r.parameters, (0, 1, 2)),
    "returns_self": lambda r: str(r.returns_self),
    "lines": lambda r: _bucket(r.lines, (2, 4, 8, 16)),
    "comprehensions": lambda r: _bucket(r.comprehensions, (0,)),
    "own_class_calls": lambda r: _bucket(r.own_class_calls, (0, 1)),
}


def buckets(data: list[Row]) -> dict[str, dict[str, dict[str, object]]]:
    """Per feature and bucket, the verdicts for each model and for both."""
    out: dict[str, dict[str, dict[str, object]]] = {}
    for feature, key in _FEATURES.items():
        grouped: dict[str, list[Row]] = defaultdict(list)
        for row in data:
            grouped[key(row)].append(row)
        out[feature] = {
            bucket: {
                "all": _tally(group),
                **{m: _tally(r for r in group if r.model == m) for m in ("0.5B", "1.5B")},
            }
            for bucket, group in sorted(grouped.items())
        }
    return out


def gated(row: Row) -> bool:
    """Whether the gate applies to the row's node at all (functions and methods)."""
    return row.kind not in ("module", "class")


def kept(row: Row, branches: int, statements: int) -> bool:
    return not gated(row) or (row.branches <= branches and row.statements <= statements)


_GRID = [
    (b, s) for b in (*range(5), 6, 8, _UNLIMITED) for s in (*range(1, 9), 10, 12, 16, _UNLIMITED)
]


def choose(train: list[Row], keep_accepts: float) -> tuple[int, int]:
    """The (branches, statements) thresholds with the highest merged-as-is share among the
    kept rows that keep at least ``keep_accepts`` of the accepted ones (ties: more kept)."""
    accepts = sum(r.verdict == "accept" for r in train)
    best: tuple[float, int, int, int] | None = None
    for b, s in _GRID:
        chosen = [r for r in train if kept(r, b, s)]
        hits = sum(r.verdict == "accept" for r in chosen)
        if not chosen or hits < keep_accepts * accepts:
            continue
        score = (hits / len(chosen), len(chosen), -b, -s)
        if best is None or score > best:
            best = (score[0], score[1], b, s)
    assert best is not None  # (_UNLIMITED, _UNLIMITED) keeps every accept
    return best[2], best[3]


def _gate_text(branches: int, statements: int) -> str:
    def shown(limit: int) -> str:
        return "any" if limit == _UNLIMITED else str(limit)

    return f"branches<={shown(branches)}, statements<={shown(statements)}"


def leave_one_project_out(data: list[Row], keep_accepts: float) -> dict[str, object]:
    """The gate chosen without each project, measured on it; pooled and per project."""
    table: dict[str, object] = {}
    pooled_all: list[Row] = []
    pooled_kept: list[Row] = []
    for project in sorted({r.project for r in data}):
        train = [r for r in data if r.project != project]
        test = [r for r in data if r.project == project]
        b, s = choose(train, keep_accepts)
        kept_rows = [r for r in test if kept(r, b, s)]
        pooled_all += test
        pooled_kept += kept_rows
        table[project] = {
            "gate": _gate_text(b, s),
            "all": _tally(test),
            "kept": _tally(kept_rows),
            "accepts_lost": sum(r.verdict == "accept" for r in test)
            - sum(r.verdict == "accept" for r in kept_rows),
        }
    per_model = {
        m: {
            "all": _tally(r for r in pooled_all if r.model == m),
            "kept": _tally(r for r in pooled_kept if r.model == m),
        }
        for m in ("0.5B", "1.5B")
    }
    full = choose(data, keep_accepts)
    return {
        "pooled": {"all": _tally(pooled_all), "kept": _tally(pooled_kept), **per_model},
        "per_project": table,
        "on_every_project": _gate_text(*full),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep-accepts", type=float, default=0.75)
    parser.add_argument("--model", choices=("0.5B", "1.5B"), help="only this model's labels")
    parser.add_argument("--rows", type=Path, help="also write every row (JSON) here")
    args = parser.parse_args(argv)
    data = [r for r in rows(p for p in CORPUS if p.part == "dev") if args.model in (None, r.model)]
    today = [r for r in data if r.asked_today]
    report = {
        "labels": _tally(data),
        "buckets": buckets(data),
        "lopo": leave_one_project_out(data, args.keep_accepts),
        "today": {
            "labels": _tally(today),
            "buckets": buckets(today),
            "lopo": leave_one_project_out(today, args.keep_accepts),
        },
    }
    if args.rows:
        args.rows.write_text(json.dumps([asdict(r) for r in data], indent=1), encoding="utf-8")
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
