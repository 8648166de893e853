"""What code uses (names read and written, calls, statements that do nothing), and what a
rewrite changed of it beyond a lint fix's rewording (:func:`lost_names`)."""

from __future__ import annotations

import ast
import functools
from collections import Counter

from remora import python_ast
from remora.code.parsing import SourceNode

__all__ = ["lost_names", "own_texts"]


# A file's text before a fix is the same for every candidate of every node of the file:
# counted once (read only: the Counters are shared between calls).
@functools.lru_cache(maxsize=32)
def _uses(text: str) -> tuple[Counter[str], Counter[str], Counter[str], int]:
    """How often ``text`` reads each name, calls each function (``.attr`` for a method)
    and writes each name, and how many statements do nothing (``pass``, ``...``: a
    model copying an example's ``if x is None: pass``)."""
    reads: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    writes: Counter[str] = Counter()
    placeholders = 0
    for item in ast.walk(python_ast.parse(text)):
        if isinstance(item, ast.Name):
            (reads if isinstance(item.ctx, ast.Load) else writes)[item.id] += 1
        elif isinstance(item, ast.Call):
            func = item.func
            if isinstance(func, ast.Name | ast.Attribute):
                calls[func.id if isinstance(func, ast.Name) else "." + func.attr] += 1
        elif isinstance(item, ast.Pass) or (
            isinstance(item, ast.Expr)
            and isinstance(item.value, ast.Constant)
            and item.value.value is Ellipsis
        ):
            placeholders += 1
    return reads, calls, writes, placeholders


def own_texts(node: SourceNode, replaced: SourceNode, span: tuple[int, int]) -> tuple[str, str]:
    """The node's text before and after a change of ``span`` inside it, each a module of its
    own (under an ``if 1:`` with its indentation): the rest of the file is the same on both
    sides, and counting what the whole file reads cost its size per candidate."""
    lo, hi = span
    if node.is_file or not node.start_byte() <= lo <= hi <= node.end_byte():
        return node.file.text, replaced.file.text

    def own(item: SourceNode) -> str:
        start = item.start_byte()
        indent = item.line_indent(start)
        code = item.file.data[start : item.end_byte()].decode("utf-8")
        return f"if 1:\n{indent}{code}\n" if indent else code

    return own(node), own(replaced)


def lost_names(before: str, after: str) -> list[str]:
    """What ``after`` does differently from ``before``, beyond a lint fix's rewording:
    calls made less or more often, names read less often while assigned no less,
    names ``before`` already read that it reads more often, and statements that do
    nothing (``pass``, ``...``) added.

    A fix that drops or adds a call, or a read of a value it computes with,
    changes what the code does: the model rewrote the code instead of fixing it
    (humanize's RET504 "fixed" by returning ``final_str + ' x 10' + ''.join(...)``).
    Removing an assignment with its reads is allowed (F841's unused variable,
    RET504's temporary): then something is written less often too. A name read
    for the first time is allowed (E722's ``except Exception``).
    """
    reads_before, calls_before, writes_before, placeholders_before = _uses(before)
    reads_after, calls_after, writes_after, placeholders_after = _uses(after)
    changed = [
        f"{name}() {'dropped' if calls_after[name] < calls_before[name] else 'added'}"
        for name in sorted(set(calls_before) | set(calls_after))
        if calls_after[name] != calls_before[name]
    ]
    if placeholders_after > placeholders_before:
        changed.append("a statement that does nothing (pass or ...) added")
    dropping = writes_after.total() >= writes_before.total()
    for name in sorted(reads_before):
        if (reads_after[name] < reads_before[name] and dropping) or (
            reads_after[name] > reads_before[name]
        ):
            more = reads_after[name] > reads_before[name]
            changed.append(f"{name} read {'more' if more else 'less'} often")
    return changed
