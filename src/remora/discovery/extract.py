"""One file's source bytes to CSTNodes, with a query pack.

The per-definition work is a handful of attribute reads and one dict lookup:
tree-sitter does the parsing and the matching in C, and nesting (qualified
names, function versus method) comes from one pass over the definitions sorted
by position, with a stack, instead of walking parents node by node.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import tree_sitter

from remora.discovery.node import CSTNode, NodeType, make_node_id
from remora.discovery.queries import QueryPack, get_language, load_query_pack
from remora.discovery.result import DiscoveryWarning

__all__ = ["FileResult", "parse_bytes", "parse_file", "parse_source"]

_local = threading.local()
_LONE_CR = re.compile(rb"\r(?!\n)")


def _parser(language: str) -> tree_sitter.Parser:
    # A Parser is not safe to share between threads; one per thread and language.
    parsers: dict[str, tree_sitter.Parser] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = tree_sitter.Parser(get_language(language))
    return parser


@dataclass(slots=True)
class FileResult:
    """One file's outcome; ``skipped`` when it was not parsed at all (one warning says why)."""

    nodes: list[CSTNode]
    warnings: list[DiscoveryWarning]
    skipped: bool = False


def parse_file(
    path: Path,
    rel_path: str,
    *,
    pack: QueryPack | None = None,
    node_types: Collection[NodeType] | None = None,
) -> FileResult:
    """Read and parse one file; a file that cannot be read is a warning, not an error."""
    try:
        source = path.read_bytes()
    except OSError as exc:
        return _skip(rel_path, None, f"cannot read ({exc.strerror or exc})")
    return parse_bytes(source, rel_path, pack=pack, node_types=node_types)


def parse_source(
    source: bytes,
    rel_path: str,
    *,
    pack: QueryPack | None = None,
    node_types: Collection[NodeType] | None = None,
) -> tuple[list[CSTNode], list[DiscoveryWarning]]:
    """The nodes of one file's source, and warnings about it.

    A binary or non-UTF-8 file gives no nodes and one warning. A syntax error
    gives the nodes tree-sitter recovers and a warning naming the first error's line.
    """
    result = parse_bytes(source, rel_path, pack=pack, node_types=node_types)
    return result.nodes, result.warnings


def parse_bytes(
    source: bytes,
    rel_path: str,
    *,
    pack: QueryPack | None = None,
    node_types: Collection[NodeType] | None = None,
) -> FileResult:
    """:func:`parse_source`, saying whether the file was skipped."""
    if b"\0" in source:
        return _skip(rel_path, None, "binary file (contains NUL bytes)")
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = source.count(b"\n", 0, exc.start) + 1
        return _skip(
            rel_path,
            line,
            f"not UTF-8 (byte 0x{source[exc.start]:02x} at offset "
            f"{exc.start}); re-save the file as UTF-8",
        )
    if pack is None:
        pack = load_query_pack()
    # tree-sitter's Python grammar reads a lone CR as blanks, not as the line break that
    # Python, LibCST and ruff read, so a CR-only file parsed as one broken line. An LF in
    # place of each lone CR keeps every byte offset, and the rows count lines as they do.
    parsed = _LONE_CR.sub(b"\n", source) if b"\r" in source else source
    tree = _parser(pack.language).parse(parsed)
    root = tree.root_node
    warnings: list[DiscoveryWarning] = []
    if root.has_error:
        line, what = _first_error(root)
        warnings.append(
            DiscoveryWarning(
                rel_path, line, f"syntax error ({what}); kept what tree-sitter recovered"
            )
        )
    wanted = None if node_types is None else frozenset(node_types)
    return FileResult(_nodes(root, source, parsed, text, rel_path, pack, wanted), warnings)


def _skip(rel_path: str, line: int | None, why: str) -> FileResult:
    return FileResult([], [DiscoveryWarning(rel_path, line, f"skipped: {why}")], skipped=True)


def _first_error(root: tree_sitter.Node) -> tuple[int, str]:
    """Line and kind of the earliest innermost error.

    Descend through ERROR nodes too: when recovery fails early, one ERROR node
    can span the whole file, and only its innermost error names the real line.
    """
    node = root
    while True:
        child = next((c for c in node.children if c.has_error or c.is_missing), None)
        if child is None:
            break
        node = child
    what = f"missing {node.type!r}" if node.is_missing else "unexpected input"
    return node.start_point.row + 1, what


class _Def:
    """A definition seen in the matches; widened when its decorated form shows up."""

    __slots__ = ("end", "inner_start", "kind", "name_node", "outer", "start")

    def __init__(
        self, node: tree_sitter.Node, kind: str, name_node: tree_sitter.Node | None
    ) -> None:
        self.start = self.inner_start = node.start_byte
        self.end = node.end_byte
        self.kind = kind
        self.name_node = name_node
        self.outer = node


def _sort_key(d: _Def) -> tuple[int, int]:
    # Outer definitions before the ones they contain.
    return d.start, -d.end


def _nodes(
    root: tree_sitter.Node,
    source: bytes,
    parsed: bytes,
    text: str,
    rel_path: str,
    pack: QueryPack,
    wanted: frozenset[str] | None,
) -> list[CSTNode]:
    def_kinds = pack.def_kinds
    name_capture = pack.name_capture
    has_file = False
    defs: dict[int, _Def] = {}  # keyed by the name node's start byte
    for _, caps in tree_sitter.QueryCursor(pack.query).matches(root):
        for capture, captured in caps.items():
            kind = def_kinds.get(capture)
            if kind is None:
                continue
            if kind == "file":
                has_file = True
                break
            node = captured[0]
            names = caps.get(name_capture.get(kind, ""))
            name_node = names[0] if names else None
            key = name_node.start_byte if name_node is not None else node.start_byte
            seen = defs.get(key)
            if seen is None:
                defs[key] = _Def(node, kind, name_node)
            elif node.start_byte < seen.start:
                # the decorated definition around one already seen
                seen.start, seen.end, seen.outer = node.start_byte, node.end_byte, node
            else:
                seen.inner_start = node.start_byte
            break

    nodes: list[CSTNode] = []
    if has_file and (wanted is None or "file" in wanted):
        nodes.append(_file_node(source, parsed, text, rel_path))
    occurrences: dict[tuple[str, str], int] = {}
    # (end byte, kind, qualified name) of the definitions enclosing the current one
    stack: list[tuple[int, str, str]] = []
    for d in sorted(defs.values(), key=_sort_key):
        start, end, kind = d.start, d.end, d.kind
        while stack and stack[-1][0] < end:
            stack.pop()
        name = (d.name_node.text or b"").decode() if d.name_node is not None else ""
        node_type: NodeType = "class" if kind == "class" else "function"
        if stack:
            _, parent_kind, parent_name = stack[-1]
            full_name = f"{parent_name}.{name}"
            if kind == "function" and parent_kind == "class":
                node_type = "method"
        else:
            full_name = name
        stack.append((end, kind, full_name))
        if wanted is not None and node_type not in wanted:
            continue
        occurrence = occurrences[(node_type, full_name)] = (
            occurrences.get((node_type, full_name), 0) + 1
        )
        segment = source[start:end]
        outer = d.outer
        end_point = outer.end_point
        # A range that stops right after a newline ends on the line before.
        end_line = end_point.row if end_point.column == 0 and end > start else end_point.row + 1
        decorators: tuple[str, ...] = ()
        if outer.type == "decorated_definition":
            decorators = tuple(
                source[c.start_byte : c.end_byte].decode()[1:].strip()
                for c in outer.children
                if c.type == "decorator"
            )
        nodes.append(
            CSTNode(
                node_id=make_node_id(rel_path, full_name, node_type, occurrence),
                node_type=node_type,
                name=name,
                full_name=full_name,
                file_path=rel_path,
                start_byte=start,
                end_byte=end,
                start_line=outer.start_point.row + 1,
                end_line=end_line,
                text=segment.decode(),
                text_hash=hashlib.sha256(segment).hexdigest(),
                is_async=source.startswith(b"async", d.inner_start),
                decorators=decorators,
            )
        )
    return nodes


def _file_node(source: bytes, parsed: bytes, text: str, rel_path: str) -> CSTNode:
    lines = parsed.count(b"\n") + (0 if parsed.endswith(b"\n") else 1)
    return CSTNode(
        node_id=make_node_id(rel_path, rel_path, "file"),
        node_type="file",
        name=PurePosixPath(rel_path).name,
        full_name=rel_path,
        file_path=rel_path,
        start_byte=0,
        end_byte=len(source),
        start_line=1,
        end_line=max(lines, 1),
        text=text,
        text_hash=hashlib.sha256(source).hexdigest(),
    )
