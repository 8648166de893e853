"""Can the embedded model name a generated test for the behaviour it checks?

Blind reviewers asked for most test edits because of the name (``returns_string`` says a
type, not what is checked). Measured offline before building anything: each test
function of each labelled test change in a reviewer's folder (``review.py prep``: its
``changes/``, ``index.json``, ``labels.json`` and ``project-before/``) is shown to the
model with the source of the node it tests, and the model names it, in one of two
framings: ``fim`` (the node's source and the test's imports, then ``def test_<node>_``
filled in before the test's body) or ``chat`` (the node and the test in a user message,
"rename the test so its name says the behaviour it checks", the reply started as
``def test_<node>_``). Each answer is appended to ``--results`` (JSON lines) beside the
host's name and the reviewer's verdict and reason, to be read side by side; there is no
score: a name is judged by reading it against the test.

Usage (from benchmarks/):
  ../.venv/bin/python model_test_names.py --model qwen2.5-coder-0.5b --framing chat \
      --results /tmp/names.jsonl /tmp/review/psu-test-sample /tmp/review/rfc-tests2
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from summary_verifier import Model

from remora.profiles import QWEN_FIM

_CHAT = (
    "Function under test ({file}):\n```python\n{node}\n```\n\nA test of it:\n```python\n"
    "{imports}\n\n{test}\n```\n\nRename the test so its name says the behaviour it checks: "
    "the case it sets up and what the function does in that case (not the type it returns). "
    "Reply with the def line only."
)


def _node_source(root: Path, file: str, qualname: str) -> str | None:
    text = (root / "project-before" / file).read_text(encoding="utf-8")
    body: list[ast.stmt] = ast.parse(text).body
    found: ast.AST | None = None
    for part in qualname.split("."):
        found = next(
            (
                n
                for n in body
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and n.name == part
            ),
            None,
        )
        if found is None:
            return None
        body = found.body  # type: ignore[attr-defined]
    return ast.get_source_segment(text, found) if found is not None else None


def _tests(root: Path) -> Iterator[tuple[dict[str, Any], str, str, str, ast.FunctionDef]]:
    """(label, node source, imports, added text, test function) of each labelled test."""
    labels = {row["id"]: row for row in json.loads((root / "labels.json").read_text())}
    for entry in json.loads((root / "index.json").read_text()):
        if entry["operation"] != "test" or entry["id"] not in labels:
            continue
        diff = (root / "changes" / f"{entry['id']}.diff").read_text(encoding="utf-8")
        added = "\n".join(
            line[1:] for line in diff.splitlines() if line[:1] == "+" and line[:3] != "+++"
        )
        try:
            tree = ast.parse(added)
        except SyntaxError:
            continue  # lines appended to a file: not a whole module alone
        source = _node_source(root, entry["file"], entry["node"])
        if source is None:
            continue
        imports = "\n".join(
            ast.get_source_segment(added, n) or ""
            for n in tree.body
            if isinstance(n, ast.Import | ast.ImportFrom)
        )
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef) and function.name.startswith("test_"):
                yield {**labels[entry["id"]], **entry}, source, imports, added, function


def _prompt(framing: str, row: dict[str, Any], node: str, imports: str, test: str) -> str:
    word = row["node"].split(".")[-1].lower()
    _, _, rest = test.partition("(")
    if framing == "fim":
        prefix = f"# {row['file']}\n{node}\n\n\n{imports}\n\n\ndef test_{word}_"
        start, hole, end = QWEN_FIM
        return f"{start}{prefix}{hole}({rest}\n{end}"
    user = _CHAT.format(file=row["file"], node=node, imports=imports, test=test)
    return (
        "<|im_start|>system\nYou are a careful Python developer.<|im_end|>\n"
        f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\ndef test_{word}_"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--framing", choices=("fim", "chat"), default="chat")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--results", required=True)
    parser.add_argument("folders", nargs="+", help="reviewers' folders (review.py prep)")
    args = parser.parse_args(argv)
    model = Model(args.model, args.threads)
    with open(args.results, "a", encoding="utf-8") as out:
        for folder in args.folders:
            for row, node, imports, added, function in _tests(Path(folder)):
                test = ast.get_source_segment(added, function) or ""
                started = time.perf_counter()
                reply = model.complete(_prompt(args.framing, row, node, imports, test), 24)
                words = reply["choices"][0]["text"].split("(")[0].strip()
                name = f"test_{row['node'].split('.')[-1].lower()}_{words}"
                said = {"model": args.model, "framing": args.framing, "node": row["node"]}
                said |= {"host": function.name, "model_name": name, "verdict": row["verdict"]}
                said |= {"reason": row["reason"], "s": round(time.perf_counter() - started, 2)}
                out.write(json.dumps(said) + "\n")
                print(f"{row['verdict'][:3]} {function.name} -> {name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
