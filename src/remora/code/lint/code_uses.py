"""What code uses (names read and written, calls, statements that do nothing), and what a
rewrite changed of it beyond a lint fix's rewording (:func:`lost_names`)."""

from __future__ import annotations

import ast
import functools
import tokenize
from collections import Counter

from remora import python_ast
from remora.code.parsing import SourceNode, python_tokens

__all__ = ["lost_comments", "lost_names", "own_texts"]


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
    names ``before`` already read that it reads or assigns more often, and statements
    that do nothing (``pass``, ``...``) added.

    A fix that drops or adds a call, or a read of a value it computes with,
    changes what the code does: the model rewrote the code instead of fixing it
    (humanize's RET504 "fixed" by returning ``final_str + ' x 10' + ''.join(...)``).
    Removing an assignment with its reads is allowed (F841's unused variable,
    RET504's temporary): the name written less often, and the reads its assigned value
    made, no others (hyperlink's ``DecodedURL.__init__``, B018 "fixed" by a body that no
    longer computed ``query_plus_is_space`` or read ``lazy``, went through while any
    assignment removed excused every read). A name read for the first time is allowed
    (E722's ``except Exception``).
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
    # A name the code read, now assigned more often, holds another value: PLW0602 "fixed"
    # by ``bibformatters = {}`` for ``global bibformatters``, a registry filled no more.
    changed += [
        f"{name} assigned more often"
        for name in sorted(writes_after)
        if writes_after[name] > writes_before[name] and reads_before[name]
    ]
    fewer = {name for name in writes_before if writes_after[name] < writes_before[name]}
    allowed = _assigned_reads(before, frozenset(fewer))
    for name in sorted(reads_before):
        lost = reads_before[name] - reads_after[name]
        if lost > 0 and name not in fewer and lost > allowed[name]:
            changed.append(f"{name} read less often")
        elif lost < 0:
            changed.append(f"{name} read more often")
    return changed


@functools.lru_cache(maxsize=32)
def _assigned_reads(text: str, names: frozenset[str]) -> Counter[str]:
    """How often the values assigned to ``names`` (the names a rewrite writes less often)
    read each name: the reads that may go with those assignments, and no others."""
    reads: Counter[str] = Counter()
    for item in ast.walk(python_ast.parse(text)):
        if isinstance(item, ast.Assign | ast.AnnAssign | ast.AugAssign) and item.value:
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            if any(isinstance(t, ast.Name) and t.id in names for t in targets):
                reads.update(
                    n.id
                    for n in ast.walk(item.value)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                )
    return reads


def _comments(text: str) -> Counter[str]:
    """The comments of ``text``, by their text (read with :mod:`tokenize`)."""
    return Counter(t.string.strip() for t in python_tokens(text) if t.type == tokenize.COMMENT)


def lost_comments(before: str, after: str) -> list[str]:
    """The comments of ``before`` that ``after`` holds less often: a rewrite of a header
    dropped ``# pragma: no cover`` (coverage counts the function again); a ``# noqa`` or
    a ``# type: ignore`` dropped brings its finding back. A lint fix keeps them."""
    kept = _comments(after)
    return sorted((_comments(before) - kept).elements())
