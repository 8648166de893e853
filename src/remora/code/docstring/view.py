"""A node as a model is shown it: whole when it fits the model's context, else shortened.

A prompt that holds a whole large class (4,492 tokens) does not fit the
embedded model's context (``model.n_ctx_per_slot``, 4096 tokens by default,
config/model.py), and the run failed with a context overflow (issue 57). The
view keeps what says what a node is, in file order: its header (decorators and
signature), for a class or a module the statements of its own body that are not
definitions (attributes, fields, its docstring) and each definition's header,
and then as much of the rest as fits; every run of lines left out is one line
``... # N lines not shown`` at their indentation. Read from the ``ast``.
"""

from __future__ import annotations

import ast

from remora.code.context import CodeContext
from remora.code.docstring.docstring_results import NodeView
from remora.code.host_function import host_function
from remora.code.parsing import SourceNode, ast_tree
from remora.config.model import ModelConfig

__all__ = ["VIEW_CHARS", "shortened", "view_of"]

# The node gets at most half the default context per slot: the other half holds the
# system prompt, the tools' schemas, the host steps' results and the reply (runner
# max_tokens 512). Three characters a token is below what Qwen's tokenizer gives on
# Python (3.5-4), so the estimate errs on the short side.
_CONTEXT_TOKENS = int(ModelConfig.model_fields["n_ctx_per_slot"].default)
VIEW_CHARS = _CONTEXT_TOKENS // 2 * 3
_MARK = "... # {} lines not shown"

_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _first_line(statement: ast.stmt) -> int:
    if isinstance(statement, _Definition) and statement.decorator_list:
        return statement.decorator_list[0].lineno
    return statement.lineno


def _essential(owner: ast.AST, first: int) -> set[int]:
    """The lines (1-based) that say what ``owner`` is: its header, and for a class or a
    module its own non-definition statements and each definition's header."""
    keep: set[int] = set()
    body: list[ast.stmt] = getattr(owner, "body", [])
    if isinstance(owner, _Definition):
        keep |= set(range(first, body[0].lineno))
        if not isinstance(owner, ast.ClassDef):
            return keep
    for statement in body:
        start = _first_line(statement)
        if isinstance(statement, _Definition):
            keep |= set(range(start, max(statement.body[0].lineno, statement.lineno + 1)))
        else:
            keep |= set(range(start, (statement.end_lineno or statement.lineno) + 1))
    return keep


def shortened(lines: list[str], first: int, essential: set[int], max_chars: int) -> str:
    """``lines`` (file lines ``first``…) within ``max_chars``: the essential lines first,
    then the others from the top, each run left out marked with one line."""
    numbered = list(enumerate(lines, start=first))
    ordered = [n for n, _ in numbered if n in essential]
    ordered += [n for n, _ in numbered if n not in essential]
    text = dict(numbered)
    kept: list[int] = []
    budget = max_chars
    for number in ordered:
        if len(text[number]) + 1 <= budget:
            kept.append(number)
            budget -= len(text[number]) + 1
    view = _render(numbered, set(kept))
    while len(view) > max_chars and kept:  # the marks took what was left: fewer lines
        kept.pop()
        view = _render(numbered, set(kept))
    return view


def _render(numbered: list[tuple[int, str]], kept: set[int]) -> str:
    out: list[str] = []
    skipped: list[str] = []

    def close() -> None:
        if any(line.strip() for line in skipped):
            shown = next(line for line in skipped if line.strip())
            out.append(shown[: len(shown) - len(shown.lstrip())] + _MARK.format(len(skipped)))
        else:
            out.extend(skipped)  # blank lines stand for themselves
        skipped.clear()

    for number, line in numbered:
        if number in kept:
            close()
            out.append(line)
        else:
            skipped.append(line)
    close()
    return "\n".join(out)


def view_of(node: SourceNode, max_chars: int = VIEW_CHARS) -> NodeView:
    """``{"text", "shortened", "lines"}``: the node's text (decorators to its last line),
    or its shortened view when longer than ``max_chars``; ``lines`` counts the whole."""
    text = node.file.text
    start, end = node.start_byte(), node.end_byte()
    whole = node.file.data[start:end].decode("utf-8")
    lines = whole.splitlines()
    if len(whole) <= max_chars:
        return {"text": whole, "shortened": False, "lines": len(lines)}
    first = node.file.line_of(start)
    tree = ast_tree(text)
    owner: ast.AST | None = tree
    if tree is not None and node.definition is not None:
        line = node.file.positions[node.definition].start.line
        short = node.ref.full_name.rsplit(".", 1)[-1]
        owner = next(
            (
                d
                for d in ast.walk(tree)
                if isinstance(d, _Definition) and d.lineno == line and d.name == short
            ),
            None,
        )
    essential = _essential(owner, first) if owner is not None else set()
    view = shortened(lines, first, essential, max_chars)
    return {"text": view, "shortened": True, "lines": len(lines)}


@host_function
def node_view(context: CodeContext, max_chars: int = VIEW_CHARS) -> NodeView:
    """The run's node as a model is shown it: ``{"text", "shortened", "lines"}``; the whole
    text when it fits ``max_chars``, else its header, signature, attributes and the
    definitions' headers, then as much of its body as fits (each gap one ``...`` line)."""
    if max_chars < 200:
        raise ValueError(f"max_chars must be at least 200, got {max_chars}")
    return view_of(context.located(), max_chars)
