"""Partial parses against whole parses over a tree of real files: a correctness check.

For every ``.py`` file under PATH, two kinds of new text are made: ruff's safe fixes of the
whole file (``--select``, default ``I,F401,UP``: imports sorted across blocks, typing
upgrades of signatures and bodies), and edits of statements nested in blocks (a comment
put after one, a statement joined to it, a line added after it). Each new text that
``remora.code.parsing.reparse.reparsed_spans`` takes partially is compared with the whole parse:
the same code, definitions, node types and byte spans. It found the lines lost before a
definition's first line (the standard library's ``copy.py`` and ``curses/textpad.py``).

    python benchmarks/reparse_check.py /usr/lib/python3.11 --edits 3

Prints one JSON object: files, texts tried, parsed partially, and each mismatch's file.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import libcst as cst

from remora.code.parsing import ParsedFile
from remora.code.parsing.reparse import reparsed_spans
from remora.sandbox.commands import resolve_executable

_BLOCKS = (cst.If, cst.Else, cst.For, cst.While, cst.With, cst.Try, cst.ExceptHandler, cst.Finally)


def _nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found.extend(_nodes(child))
    return found


def same_as_whole(old: ParsedFile, new_text: str) -> bool | None:
    """None: not parsed partially; else whether the partial parse equals the whole one."""
    tree = reparsed_spans(old, new_text.encode("utf-8"))
    if tree is None:
        return None
    derived = ParsedFile(new_text, tree=(tree.module, tree.spans), definitions=tree.definitions)
    whole = ParsedFile(new_text)
    if derived.module.code != new_text:
        return False
    if [n for n, _ in derived.definitions] != [n for n, _ in whole.definitions]:
        return False
    pairs = list(zip(_nodes(whole.module), _nodes(derived.module), strict=False))
    for expected, got in pairs:
        if type(expected) is not type(got):
            return False
        span = whole.spans.get(expected)
        if span is not None and derived.spans[got] != span:
            return False
    return len(pairs) == len(_nodes(whole.module))


def _ruff_fixed(path: Path, text: str, select: str) -> str:
    command = [resolve_executable("ruff"), "check", "--isolated", "--select", select, "--fix"]
    command += ["--exit-zero", "--quiet", "--stdin-filename", str(path), "-"]
    done = subprocess.run(command, input=text, capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 and done.stdout else text


def _nested_edits(old: ParsedFile, count: int, rng: random.Random) -> list[bytes]:
    nested: list[cst.SimpleStatementLine] = []

    def walk(node: cst.CSTNode, inside: bool) -> None:
        for child in node.children:
            if inside and isinstance(child, cst.SimpleStatementLine):
                nested.append(child)
            walk(child, inside or isinstance(child, _BLOCKS))

    walk(old.module, False)
    data, texts = old.data, []
    for statement in rng.sample(nested, min(count, len(nested))):
        span = old.spans[statement.body[-1]]
        at = span.start + span.length
        line = data.rfind(b"\n", 0, old.spans[statement].start) + 1
        indent = data[line : old.spans[statement].start]
        eol = data.find(b"\n", at)
        eol = len(data) if eol < 0 else eol + 1
        texts += [data[:at] + b"  # edited" + data[at:], data[:at] + b"; pass" + data[at:]]
        texts.append(data[:eol] + indent + b"added = 1\n" + data[eol:])
    return texts


def check(root: Path, select: str, edits: int) -> dict[str, Any]:
    rng = random.Random(1)
    figures: dict[str, Any] = {"files": 0, "texts": 0, "partial": 0, "mismatches": []}
    for path in sorted(root.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
            old = ParsedFile(text)
        except (UnicodeDecodeError, ValueError, OSError, RecursionError):
            continue  # not UTF-8, or LibCST does not read it (or nests too deep for it)
        figures["files"] += 1
        fixed = _ruff_fixed(path, text, select)
        news = ([fixed] if fixed != text else []) + [
            t.decode("utf-8") for t in _nested_edits(old, edits, rng)
        ]
        for new_text in news:
            figures["texts"] += 1
            verdict = same_as_whole(old, new_text)
            figures["partial"] += verdict is not None
            if verdict is False:
                figures["mismatches"].append(str(path))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--select", default="I,F401,UP", help="ruff's rules whose fixes to try")
    parser.add_argument("--edits", type=int, default=3, help="nested statements edited per file")
    args = parser.parse_args()
    if not args.path.is_dir():
        parser.error(f"{args.path} is not a folder: give one that holds .py files")
    print(json.dumps(check(args.path, args.select, args.edits), indent=1))


if __name__ == "__main__":
    main()
