"""What a node is: its span and header, signature, the exceptions it raises, whether it returns.

Each question is answered from the LibCST tree of the current text (see
:mod:`remora.code.parsing.source`): a ``raise`` in a comment, a string or a nested
function is not the node's own, by construction. Each function takes a
:class:`~remora.code.parsing.source.SourceNode`; :mod:`remora.code.node_structure`
answers the same questions for a run's node (``remora_code.span`` ...).
"""

from __future__ import annotations

import functools
from typing import Any, TypedDict, cast

import libcst as cst

from remora.code.parsing.positional_only import conventional_positional_only
from remora.code.parsing.source import SourceNode
from remora.code.parsing.text_cache import per_node
from remora.code.parsing.tree_walk import child_nodes, field_names
from remora.code.parsing.type_comments import RETURNS, comment_annotations

__all__ = [
    "NodeReturns",
    "NodeSignature",
    "NodeSpan",
    "RaisedException",
    "SignatureParameter",
    "TypeParameter",
    "node_raises",
    "node_returns",
    "node_signature",
    "node_span",
]

_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


class NodeSpan(TypedDict):
    """Where a node is in its file: lines and bytes (decorators included), its header."""

    file_path: str
    node_type: str
    full_name: str
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    header: str  # ``def ...:`` / ``class ...:`` exactly as written
    header_line: int
    header_end_line: int
    body_indent: str
    text: str


def node_span(node: SourceNode) -> NodeSpan:
    """Exact place of the node (decorators included) and its header."""
    start, end = node.start_byte(), node.end_byte()
    header_start = node.header_start_byte()
    header = node.header()
    file = node.file
    return {
        "file_path": file.path,
        "node_type": node.ref.node_type,
        "full_name": node.ref.full_name,
        "start_line": file.line_of(start),
        "end_line": file.line_of(max(end - 1, start)),
        "start_byte": start,
        "end_byte": end,
        "header": header,
        "header_line": file.line_of(header_start),
        "header_end_line": file.line_of(header_start + max(len(header.encode()) - 1, 0)),
        "body_indent": node.body_indent(),
        "text": file.data[start:end].decode("utf-8"),
    }


class SignatureParameter(TypedDict):
    """One parameter as written; ``kind``: positional_only, positional_or_keyword,
    var_positional, keyword_only or var_keyword; ``implicit``: a method's ``self``/``cls``."""

    name: str
    kind: str
    annotation: str | None
    default: str | None
    implicit: bool


class TypeParameter(TypedDict):
    """A PEP 695 type parameter; ``kind``: TypeVar, TypeVarTuple or ParamSpec."""

    name: str
    kind: str
    bound: str | None
    default: str | None


class NodeSignature(TypedDict):
    """A class's or function's signature; ``kind``: class or function."""

    name: str
    kind: str
    is_async: bool
    decorators: list[str]
    type_params: list[TypeParameter]
    parameters: list[SignatureParameter]
    returns: str | None
    bases: list[str]


def _parameter(
    node: SourceNode, param: cst.Param, kind: str, implicit: bool = False
) -> SignatureParameter:
    code = node.file.code
    return {
        "name": param.name.value,
        "kind": kind,
        "annotation": code(param.annotation.annotation) if param.annotation else None,
        "default": code(param.default) if param.default is not None else None,
        "implicit": implicit,
    }


def _type_parameter(node: SourceNode, item: cst.TypeParam) -> TypeParameter:
    inner = item.param
    kinds = {cst.TypeVar: "TypeVar", cst.TypeVarTuple: "TypeVarTuple", cst.ParamSpec: "ParamSpec"}
    bound = inner.bound if isinstance(inner, cst.TypeVar) else None
    return {
        "name": inner.name.value,
        "kind": kinds[type(inner)],
        "bound": node.file.code(bound) if bound is not None else None,
        "default": node.file.code(item.default) if item.default is not None else None,
    }


def _is_staticmethod(definition: cst.FunctionDef) -> bool:
    return any(
        isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
        for d in definition.decorators
    )


# docstring/ reads node_signature's and node_returns' rows as dict[str, Any] (sections.py,
# text.py): they return that view of the TypedDict they build (the same dict) until it takes
# the TypedDicts; remora_code.signature and .returns give them typed.
def node_signature(node: SourceNode) -> dict[str, Any]:
    """Name, decorators, PEP 695 type parameters, parameters of every kind, return annotation.

    A method's first parameter (``self``/``cls``) is marked ``implicit`` unless the
    method is a ``staticmethod``. Classes list their bases; their constructor is
    another question.
    """
    definition = node.definition
    if definition is None:
        raise ValueError("a file has no signature; bind a class, function or method")
    code = node.file.code
    result: NodeSignature = {
        "name": definition.name.value,
        "kind": "class" if isinstance(definition, cst.ClassDef) else "function",
        "is_async": isinstance(definition, cst.FunctionDef) and definition.asynchronous is not None,
        "decorators": [code(d.decorator) for d in definition.decorators],
        "type_params": [
            _type_parameter(node, p)
            for p in (definition.type_parameters.params if definition.type_parameters else ())
        ],
        "parameters": [],
        "returns": None,
        "bases": [],
    }
    if isinstance(definition, cst.ClassDef):
        result["bases"] = [code(arg) for arg in [*definition.bases, *definition.keywords]]
        return cast("dict[str, Any]", result)
    params = definition.params
    implicit_first = node.ref.node_type == "method" and not _is_staticmethod(definition)
    rows: list[SignatureParameter] = []
    named = [p.name.value for p in params.params]
    by_name = (
        0
        if params.posonly_params
        else conventional_positional_only(named, skip_first=implicit_first)
    )
    for kind, group in (
        ("positional_only", [*params.posonly_params, *params.params[:by_name]]),
        ("positional_or_keyword", params.params[by_name:]),
    ):
        for param in group:
            rows.append(_parameter(node, param, kind, implicit=implicit_first and not rows))
    if isinstance(params.star_arg, cst.Param):
        rows.append(_parameter(node, params.star_arg, "var_positional"))
    rows += [_parameter(node, p, "keyword_only") for p in params.kwonly_params]
    if params.star_kwarg is not None:
        rows.append(_parameter(node, params.star_kwarg, "var_keyword"))
    # Annotations written as PEP 484 type comments count as written (.type_comments).
    commented = _commented(node)
    for row in rows:
        row["annotation"] = row["annotation"] or commented.get(row["name"])
    result["parameters"] = rows
    if definition.returns is not None:
        result["returns"] = code(definition.returns.annotation)
    else:
        result["returns"] = commented.get(RETURNS)
    return cast("dict[str, Any]", result)


def _commented(node: SourceNode) -> dict[str, str]:
    """The annotations the node's type comments give (:mod:`.type_comments`)."""
    return comment_annotations(node.file.text, node.file.line_of(node.header_start_byte()))


class RaisedException(TypedDict):
    """An exception the node's own code raises; ``reraise``: a bare ``raise``."""

    name: str
    line: int
    reraise: bool


class NodeReturns(TypedDict):
    """Whether the node's own code returns a value or yields, and its return annotation."""

    returns_value: bool
    is_generator: bool
    annotation: str | None


# Fields that hold only layout (whitespace, parentheses, separators): no statement or
# expression the scan looks for is ever inside one.
_LAYOUT = (
    "whitespace",
    "lpar",
    "rpar",
    "leading_lines",
    "lines_after",
    "comma",
    "semicolon",
    "trailing_whitespace",
    "header",
    "footer",
    "newline",
)


@functools.cache
def _content_fields(kind: type[cst.CSTNode]) -> tuple[str, ...]:
    return tuple(name for name in field_names(kind) if not name.startswith(_LAYOUT))


class _OwnBody:
    """The node's own statements scanned: never into a nested def, class or lambda."""

    def __init__(self, file: Any) -> None:
        self.file = file
        self.handlers: list[list[str]] = []
        self.raised: list[RaisedException] = []
        self.value_returns = 0
        self.yields = 0

    def scan(self, node: cst.CSTNode) -> None:
        if isinstance(node, _NESTED):
            return
        if isinstance(node, cst.ExceptHandler):
            self.handlers.append(self._caught(node))
        elif isinstance(node, cst.Raise):
            self._raise(node)
        elif isinstance(node, cst.Return):
            value = node.value
            if value is not None and not (isinstance(value, cst.Name) and value.value == "None"):
                self.value_returns += 1
        elif isinstance(node, cst.Yield):
            self.yields += 1
        for child in child_nodes(node, _content_fields(type(node))):
            self.scan(child)
        if isinstance(node, cst.ExceptHandler):
            self.handlers.pop()

    def _caught(self, node: cst.ExceptHandler) -> list[str]:
        caught = node.type
        if caught is None:
            return ["BaseException"]
        if isinstance(caught, cst.Tuple):
            return [self.file.code(e.value) for e in caught.elements]
        return [self.file.code(caught)]

    def _raise(self, node: cst.Raise) -> None:
        line = self.file.positions[node].start.line
        exc = node.exc
        if exc is None:
            names = self.handlers[-1] if self.handlers else []
        else:
            target = exc.func if isinstance(exc, cst.Call) else exc
            names = [self.file.code(target)]
        self.raised += [{"name": name, "line": line, "reraise": exc is None} for name in names]


# By located node: checking one summary asks node_raises and node_returns twice each, and a
# run checks up to three (the completion's, the chat's, the written one) against the same
# definition; a LibCST visit rebuilds every node it passes, so each walk of a class's body
# cost as much as the class's size.
@per_node
def _own(node: SourceNode) -> _OwnBody:
    scan = _OwnBody(node.file)
    for statement in node.body_statements:
        scan.scan(statement)
    return scan


def node_raises(node: SourceNode) -> list[RaisedException]:
    """Exceptions the node's own code raises, first occurrence of each name, in order.

    A bare ``raise`` re-raises what its ``except`` caught. A function that catches
    an exception and returns instead raises nothing.
    """
    seen: set[str] = set()
    out: list[RaisedException] = []
    for item in _own(node).raised:
        if item["name"] not in seen:
            seen.add(item["name"])
            out.append(item.copy())  # the scan is kept for the next question
    return out


def node_returns(node: SourceNode) -> dict[str, Any]:
    """Whether the node's own code returns a value, yields, and its return annotation."""
    own = _own(node)
    definition = node.definition
    annotation = None
    if isinstance(definition, cst.FunctionDef) and definition.returns is not None:
        annotation = node.file.code(definition.returns.annotation)
    elif isinstance(definition, cst.FunctionDef):
        annotation = _commented(node).get(RETURNS)
    returns_value = own.value_returns > 0 and annotation not in ("None", "NoReturn", "Never")
    facts: NodeReturns = {
        "returns_value": returns_value,
        "is_generator": own.yields > 0,
        "annotation": annotation,
    }
    return cast("dict[str, Any]", facts)
