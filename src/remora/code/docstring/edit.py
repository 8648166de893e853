"""Read and write a node's docstring, changing no byte outside the docstring.

Writing splices one string literal into the file's bytes (or replaces the old
literal's exact span) and then reads the result back with LibCST's
``get_docstring`` (the same cleaning as ``ast.get_docstring``): the text given
is what a reader of the docstring gets, or the write is refused with the reason.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import libcst as cst

from remora.code.context import CodeContext
from remora.code.docstring.docstring_results import DocstringWrite, NodeDocstring
from remora.code.host_function import host_function
from remora.code.parsing import NodeRef, SourceNode, literal_value, locate, parse

__all__ = ["docstring_literal", "node_docstring", "with_docstring"]


def _docstring_expr(node: SourceNode) -> cst.SimpleString | cst.ConcatenatedString | None:
    """The string expression that is the node's docstring, if it has one."""
    statements = node.body_statements
    if not statements:
        return None
    first = statements[0]
    if isinstance(first, cst.SimpleStatementLine):
        if not first.body:
            return None
        first = first.body[0]
    # Bytes and f-strings are expressions, not docstrings (as for ast.get_docstring).
    if (
        isinstance(first, cst.Expr)
        and isinstance(first.value, cst.SimpleString | cst.ConcatenatedString)
        and isinstance(literal_value(first.value), str)
    ):
        return first.value
    return None


def _quote_and_prefix(literal: cst.BaseExpression) -> tuple[str, str]:
    if isinstance(literal, cst.SimpleString):
        return literal.quote, literal.prefix.lower()
    return '"""', ""


def node_docstring(node: SourceNode) -> NodeDocstring:
    """``{"present", "value", "literal", "quote", "start_line", "end_line", "start_byte",
    "end_byte"}`` (:class:`NodeDocstring`; only the first three without a docstring).

    ``value`` is the cleaned docstring (what ``ast.get_docstring`` returns);
    ``literal`` the string literal exactly as written.
    """
    expr = _docstring_expr(node)
    if expr is None:
        return {"present": False, "value": None, "literal": None}
    span = node.file.span(expr)
    value = literal_value(expr)
    return {
        "present": True,
        "value": inspect.cleandoc(value) if isinstance(value, str) else None,
        "literal": node.file.bytes_of(expr),
        "quote": _quote_and_prefix(expr)[0],
        "start_line": node.file.positions[expr].start.line,
        "end_line": node.file.positions[expr].end.line,
        "start_byte": span.start,
        "end_byte": span.start + span.length,
    }


def docstring_literal(
    text: str, indent: str, newline: str, quote: str = '"""', raw: bool = False
) -> str:
    """A string literal whose cleaned value is ``text``, its lines indented for the body."""
    quote = quote if quote in ('"""', "'''") else '"""'
    mark = quote[0]
    raw_fits = raw and "\r" not in text and quote not in text and not text.endswith(("\\", mark))
    if raw_fits:
        body, prefix = text, "r"
    else:
        body = text.replace("\\", "\\\\").replace("\r", "\\r")
        # Escape every quote of a run that could close the literal: three or more, or at the end.
        closing = f"{re.escape(mark)}{{3,}}|{re.escape(mark)}+$"
        body = re.sub(closing, lambda run: ("\\" + mark) * len(run[0]), body)
        prefix = ""
    lines = body.split("\n")
    if len(lines) == 1:
        return f"{prefix}{quote}{body}{quote}"
    indented = [lines[0], *[indent + line if line.strip() else "" for line in lines[1:]]]
    return f"{prefix}{quote}{newline.join(indented)}{newline}{indent}{quote}"


def _insertion(node: SourceNode, literal_for: Any) -> tuple[int, int, str]:
    """Where a new docstring goes (start, end, replacement) when the node has none."""
    file = node.file
    definition = node.definition
    newline = file.newline
    if definition is None:
        statements = file.module.body
        if not statements:
            # An empty module or one of comments only: the docstring goes at the end.
            lead = newline if file.data and not file.data.endswith((b"\n", b"\r")) else ""
            at = len(file.data)
            return at, at, lead + literal_for("") + newline
        at = file.span(statements[0]).start
        return at, at, literal_for("") + newline + newline
    body = definition.body
    if isinstance(body, cst.SimpleStatementSuite):
        # `def f(): return 1`: the docstring becomes the first statement of the same line.
        at = file.span(body.body[0]).start
        return at, at, literal_for(node.body_indent()) + "; "
    assert isinstance(body, cst.IndentedBlock)
    after_header = file.span(body.header)  # the colon's comment and newline
    at = after_header.start + after_header.length
    first = body.body[0] if body.body else None
    leading = (
        first.leading_lines
        if isinstance(first, cst.SimpleStatementLine | cst.BaseCompoundStatement)
        else ()
    )
    if leading and leading[0].comment and leading[0].comment.value.startswith("# type:"):
        # A function's type comment (PEP 484) is the body's first line: the docstring
        # goes after it, or type checkers no longer read it (nor does ast's type_comments).
        comment = file.span(leading[0])
        at = comment.start + comment.length
    indent = node.body_indent()
    # PEP 257 (and black, ruff format): a blank line after a class's docstring, and between
    # a function's and a definition in it, unless the first statement has one above it.
    spaced = bool(leading) and leading[0].comment is None
    blank = first is not None and not spaced and at == after_header.start + after_header.length
    blank = blank and (
        node.ref.node_type == "class" or isinstance(first, cst.FunctionDef | cst.ClassDef)
    )
    return at, at, indent + literal_for(indent) + newline + (newline if blank else "")


def with_docstring(node: SourceNode, text: str) -> str:
    """The file's new text with ``text`` as the node's docstring; ValueError if impossible."""
    if not text.strip():
        raise ValueError("the docstring text is empty; give at least a summary line")
    file = node.file
    existing = _docstring_expr(node)
    if existing is not None:
        span = file.span(existing)
        quote, prefix = _quote_and_prefix(existing)
        indent = node.body_indent()
        literal = docstring_literal(text, indent, file.newline, quote, raw="r" in prefix)
        start, end = span.start, span.start + span.length
    else:
        start, end, literal = _insertion(
            node, lambda indent: docstring_literal(text, indent, file.newline)
        )
    data = file.data[:start] + literal.encode("utf-8") + file.data[end:]
    new_text = data.decode("utf-8")
    written = _docstring_expr(locate(parse(new_text, file.path), node.ref))
    value = literal_value(written) if written is not None else None
    if not isinstance(value, str) or inspect.cleandoc(value) != text:
        raise ValueError(
            "this text would not read back unchanged as a docstring (tabs, leading or "
            "trailing blank lines or indentation are cleaned away); give it without them"
        )
    return new_text


@host_function
def docstring(context: CodeContext) -> NodeDocstring:
    """The node's current docstring: cleaned value, literal as written and its exact span."""
    return node_docstring(context.located())


@host_function
def docstring_before_run(context: CodeContext) -> str | None:
    """The node's docstring (cleaned) as the project had it before this run's changes;
    None when it had none, or the node cannot be found in the earlier text."""
    node = context.bound_node()
    change = next((c for c in context.workspace.changes() if c.path == node.file_path), None)
    if change is None:
        return node_docstring(context.located())["value"]
    if change.old is None:
        return None
    try:
        earlier = parse(change.old.decode("utf-8"), node.file_path)
        found = locate(earlier, NodeRef(node.node_type, node.full_name, node.start_line))
    except (LookupError, ValueError):
        return None
    return node_docstring(found)["value"]


@host_function
def set_docstring(context: CodeContext, text: str) -> DocstringWrite:
    """Make ``text`` the node's docstring; no other byte of the file changes.

    Returns ``{"changed", "start_line", "end_line"}``; a text that cannot be a
    docstring (empty, or cleaned differently when read back) raises ValueError.
    """
    node = context.located()
    new_text = with_docstring(node, text)
    changed = new_text != node.file.text
    if changed:
        context.write_text(node.file.path, new_text)
    written = node_docstring(locate(parse(new_text, node.file.path), node.ref))
    return {
        "changed": changed,
        "start_line": written["start_line"],
        "end_line": written["end_line"],
    }
