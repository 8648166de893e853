"""One node of one file, parsed with LibCST: where it is, byte for byte, and its parts.

Why LibCST rather than the standard ``ast``: the toolkit edits files (a
docstring, a lint fix) and must keep every other byte as it was, which needs a
concrete syntax tree with exact byte spans; and LibCST's own parser reads newer
syntax than the running interpreter (PEP 695 ``def first[T](...)`` parses on
Python 3.11, where ``ast.parse`` refuses it). Spans are byte offsets into the
UTF-8 text, so non-ASCII, tabs and CRLF line endings cost nothing special.

A node is found again in the *current* text by its qualified name (discovery's
``full_name``) and the line discovery saw it on, so a tool still finds it after
an earlier tool of the same run moved it.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import libcst as cst
from libcst.metadata import ByteSpanPositionProvider, CodePosition, CodeRange, CodeSpan

from remora import python_ast
from remora.code.parsing.line_breaks import line_break_at, line_start_at, line_starts
from remora.code.parsing.tree_walk import Definition, qualified_definitions

__all__ = [
    "NodeRef",
    "ParsedFile",
    "SourceNode",
    "byte_spans",
    "literal_value",
    "locate",
    "python_syntax_error",
]


@dataclass(frozen=True)
class NodeRef:
    """Which node: discovery's type, qualified name (the path for a file) and first line."""

    node_type: str
    full_name: str
    start_line: int = 1


def byte_spans(module: cst.Module) -> dict[cst.CSTNode, CodeSpan]:
    """Every node's byte span: what ``MetadataWrapper.resolve(ByteSpanPositionProvider)``
    gives, by the provider's own code-generation pass alone.

    ``resolve`` (libcst 1.x) also runs a batched visit of the whole tree with no
    visitor in it and copies the result: together as long again as the spans
    themselves. tests/unit/code/test_byte_spans.py checks the two agree.
    """
    provider = ByteSpanPositionProvider()
    provider._computed = {}  # where the provider records each node's span
    provider._gen_impl(module)
    return cast(dict[cst.CSTNode, CodeSpan], provider._computed)


class _Positions:
    """LibCST's ``PositionProvider`` ranges (1-based lines, character columns), computed from
    the byte spans on demand: the same values, without a second pass over the whole tree
    for every text (that pass was a third of parsing a file)."""

    def __init__(self, data: bytes, spans: Mapping[cst.CSTNode, CodeSpan]) -> None:
        self._data = data
        self._spans = spans

    @functools.cached_property
    def line_starts(self) -> list[int]:
        """The file's line starts, on first use (most parses never ask); the file's one table."""
        return line_starts(self._data)

    def _at(self, offset: int) -> CodePosition:
        line = bisect.bisect_right(self.line_starts, offset)
        start = self.line_starts[line - 1]
        return CodePosition(line, len(self._data[start:offset].decode("utf-8")))

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        span = self._spans[node]
        return CodeRange(self._at(span.start), self._at(span.start + span.length))


class ParsedFile:
    """A file's text, tree and the byte span and line of every tree node."""

    def __init__(
        self,
        text: str,
        path: str = "<text>",
        *,
        tree: tuple[cst.Module, Mapping[cst.CSTNode, CodeSpan]] | None = None,
        definitions: list[tuple[str, Definition]] | None = None,
    ) -> None:
        """Parse ``text``; or take its ``tree`` (module, byte spans) made from an earlier parse,
        and with it the tree's ``definitions`` when they are known (else found on demand)."""
        self.text = text
        self.path = path
        self.data = text.encode("utf-8")
        self.derived = tree is not None
        if tree is not None:
            self.module, self.spans = tree
        else:
            try:
                module = cst.parse_module(text)
            except cst.ParserSyntaxError as exc:
                raise ValueError(
                    f"{path}:{exc.raw_line}: cannot parse the file ({exc.message}); "
                    "fix the syntax error first"
                ) from None
            except cst.CSTValidationError as exc:  # parsed, but no Python: ``except:`` first
                raise ValueError(f"{path}: {exc}; fix the syntax error first") from None
            self.module = module
            self.spans = byte_spans(module)
        self.positions = _Positions(self.data, self.spans)
        self._definitions = definitions if tree is not None else None

    @property
    def definitions(self) -> list[tuple[str, Definition]]:
        """:func:`qualified_definitions` of the module, found once per parsed text."""
        if self._definitions is None:
            self._definitions = list(qualified_definitions(self.module))
        return self._definitions

    def span(self, node: cst.CSTNode) -> CodeSpan:
        return self.spans[node]

    def bytes_of(self, node: cst.CSTNode) -> str:
        span = self.spans[node]
        return self.data[span.start : span.start + span.length].decode("utf-8")

    def line_of(self, byte_offset: int) -> int:
        """1-based line holding ``byte_offset``, lines broken at LF, CRLF and CR (as LibCST's
        positions: a CR-only file's lines were all line 1 when LFs alone were counted). From
        the file's table of line starts, which its positions build anyway: counting the LFs
        from the file's start took longer with every line (~4 calls per question asked)."""
        return bisect.bisect_right(self.line_starts, byte_offset)

    @property
    def line_starts(self) -> list[int]:
        """Byte offset of each line's start (LF, CRLF and CR), computed once per text."""
        return self.positions.line_starts

    def code(self, node: cst.CSTNode) -> str:
        """Source of an expression or annotation, exactly as written (parentheses included)."""
        return self.module.code_for_node(node)

    @property
    def newline(self) -> str:
        return self.module.default_newline

    @functools.cached_property
    def python_reads(self) -> bool:
        """Whether the running interpreter's own parser reads the text (a text it read before
        a change is refused by it first: :mod:`remora.code.parsing.parse_cache`)."""
        try:
            python_ast.parse(self.text, self.path)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return False
        return True


def python_syntax_error(text: str | bytes, path: str = "<text>") -> SyntaxError | None:
    """Why the interpreter's parser refuses ``text``; None when it reads it, or cannot say
    (a null byte, nesting too deep): then LibCST decides."""
    try:
        python_ast.parse(text, path)
    except SyntaxError as exc:
        return exc
    except (ValueError, MemoryError, RecursionError):
        return None
    return None


@dataclass(frozen=True)
class SourceNode:
    """A located node: the whole file (``definition`` None) or one class or function."""

    file: ParsedFile
    ref: NodeRef
    definition: Definition | None

    @property
    def is_file(self) -> bool:
        return self.definition is None

    @property
    def body_statements(self) -> Sequence[cst.BaseStatement | cst.BaseSmallStatement]:
        if self.definition is None:
            return self.file.module.body
        return self.definition.body.body

    def start_byte(self) -> int:
        """First byte of the node: its first decorator, else its ``def``/``class`` line."""
        if self.definition is None:
            return 0
        first: cst.CSTNode = self.definition
        if self.definition.decorators:
            first = self.definition.decorators[0]
        return self.file.span(first).start

    def end_byte(self) -> int:
        """One past the node's last byte, its last line's trailing comment included.

        LibCST's span of a definition stops at its last statement; the rest of
        that line is the statement's trailing whitespace and comment (the
        parser put nothing else there), which belongs to the node.
        """
        if self.definition is None:
            return len(self.file.data)
        span = self.file.span(self.definition)
        end = span.start + span.length
        data = self.file.data
        rest = data[end : line_break_at(data, end)]
        if rest.strip() and not rest.lstrip().startswith(b"#"):
            raise AssertionError(f"{self.file.path}: unexpected text after a definition")
        return end + len(rest.rstrip())

    def header_end_byte(self) -> int:
        """One past the header's colon."""
        if self.definition is None:
            return 0
        before_colon = self.file.span(self.definition.whitespace_before_colon)
        return before_colon.start + before_colon.length + 1

    def header(self) -> str:
        """``def ...:`` / ``class ...:`` from the keyword to the colon, exactly as written."""
        data = self.file.data
        return data[self.header_start_byte() : self.header_end_byte()].decode("utf-8")

    def header_start_byte(self) -> int:
        if self.definition is None:
            return 0
        return self.file.span(self.definition).start

    def line_indent(self, byte_offset: int) -> str:
        """The whitespace that starts the line holding ``byte_offset``."""
        data = self.file.data
        line = data[line_start_at(data, byte_offset) : byte_offset].decode("utf-8")
        return line[: len(line) - len(line.lstrip(" \t"))]

    def body_indent(self) -> str:
        """The whitespace before the body's statements ('' for a file).

        A one-line body (``def f(): return 1``) has none of its own: the header's
        indentation plus one level of the file's indentation unit.
        """
        if self.definition is None:
            return ""
        if not isinstance(self.definition.body, cst.IndentedBlock):
            return self.line_indent(self.header_start_byte()) + self.file.module.default_indent
        return self.line_indent(self.file.span(self.definition.body.body[0]).start)


def locate(file: ParsedFile, ref: NodeRef) -> SourceNode:
    """The node ``ref`` names in ``file``; ``LookupError`` when the file no longer has it."""
    if ref.node_type == "file":
        return SourceNode(file, ref, None)
    wanted_class = ref.node_type == "class"
    candidates = [
        node
        for name, node in file.definitions
        if name == ref.full_name and isinstance(node, cst.ClassDef) == wanted_class
    ]
    if not candidates:
        raise LookupError(f"{file.path}: no {ref.node_type} {ref.full_name!r} in the current text")

    if len(candidates) == 1:  # no line needed: a new text's first line lookup reads all of it
        return SourceNode(file, ref, candidates[0])

    def distance(node: Definition) -> int:
        first: cst.CSTNode = node.decorators[0] if node.decorators else node
        return abs(file.positions[first].start.line - ref.start_line)

    return SourceNode(file, ref, min(candidates, key=distance))


def literal_value(node: cst.BaseExpression) -> object:
    """LibCST's ``evaluated_value`` of a string or number literal (None for an f-string or
    a mix of str and bytes), read by :mod:`remora.python_ast`: LibCST's own calls
    ``ast.literal_eval``, outside the lock CPython 3.11's parser needs across threads."""
    if isinstance(node, cst.ConcatenatedString):
        left, right = literal_value(node.left), literal_value(node.right)
        same = isinstance(left, str) and isinstance(right, str)
        if same or (isinstance(left, bytes) and isinstance(right, bytes)):
            return left + right  # type: ignore[operator]
        return None
    if isinstance(node, cst.SimpleString | cst.Integer | cst.Float | cst.Imaginary):
        return python_ast.literal_eval(node.value)
    return None
