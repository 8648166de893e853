"""The sections of a docstring that come from the code: parameters, returns, raises.

The parameter section names exactly what a caller passes, in the order the
code declares it: a function's or method's signature (``self``/``cls`` left
out) or, for a class, what calling it takes (:mod:`remora.code.values.constructor`:
an explicit ``__init__``, a dataclass's fields, a NamedTuple's). Each entry's
text is a description that passed the checks, or else only what the code says:
its annotation in the style's type slot and its default. When the parameters
cannot be known (a class whose constructor comes from another module) there is
no section at all, never a partial one.

Every text is read back with ``docstring_parser`` (a real parser of the three
styles) before it is used: it must name exactly the parameters and exceptions
it was built from (:func:`reads_back`).
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

import docstring_parser

from remora import python_ast
from remora.code.docstring.docstring_results import DocumentedParameter
from remora.code.parsing import SourceNode, node_signature
from remora.code.values import constructor_of

__all__ = ["WIDTH", "Entry", "Known", "documented_parameters", "one_line", "reads_back", "render"]

WIDTH = 88  # the text of a docstring at no indentation, in a project of 88 columns
PARSER_STYLES = {
    "google": docstring_parser.DocstringStyle.GOOGLE,
    "numpy": docstring_parser.DocstringStyle.NUMPYDOC,
    "sphinx": docstring_parser.DocstringStyle.REST,
}
_STARS = {"var_positional": "*", "var_keyword": "**"}


@dataclass(frozen=True)
class Entry:
    """One row of a section: the name as the docstring writes it, its type, its text."""

    name: str
    kind: str = ""
    text: str = ""


@dataclass(frozen=True)
class Known:
    """The parameters a docstring must name (None when they cannot be known, and why)."""

    parameters: list[DocumentedParameter] | None
    reason: str = ""


def one_line(expression: str | None) -> str:
    """An annotation or default as written, on one line ('' when there is none).

    One written over several lines is printed again by ``ast`` on one line; one
    that ``ast`` cannot read (newer syntax than this Python) gives ''.
    """
    if not expression:
        return ""
    if "\n" not in expression and "\r" not in expression:
        return expression
    try:
        return ast.unparse(python_ast.parse_expression(expression.strip()))
    except SyntaxError:
        return ""


def documented_parameters(node: SourceNode) -> Known:
    """The parameters the node's docstring documents, in declaration order.

    Each is ``{name, kind, annotation, default}`` (annotation and default as
    written). A file has none; a class has its constructor's, when they can be
    read from the file exactly.
    """
    if node.definition is None:
        return Known([])
    if node.ref.node_type != "class":
        params = node_signature(node)["parameters"]
        return Known([p for p in params if not p["implicit"]])
    try:
        constructor = constructor_of(node.file.text, node.ref.full_name)
    except ValueError as exc:
        return Known(None, f"the constructor cannot be read: {exc}")
    if not constructor.exact:
        return Known(None, f"the constructor cannot be read exactly here ({constructor.origin})")
    return Known([p.row() for p in constructor.parameters])


def fact_entries(parameters: list[DocumentedParameter], texts: dict[str, str]) -> list[Entry]:
    """Entries for ``parameters``: the name as the docstring writes it (``*args``), the
    annotation in the style's type slot, the given text ('' when there is none: a default
    or a type alone says nothing the signature does not, so no text is made up from them)."""
    return [
        Entry(
            _STARS.get(p["kind"], "") + p["name"],
            one_line(p["annotation"]),
            texts.get(p["name"], ""),
        )
        for p in parameters
    ]


def reads_back(text: str, style: str, params: list[Entry], raises: list[Entry]) -> bool:
    """Whether ``docstring_parser`` reads ``text`` as naming exactly these parameters and raises."""
    try:
        parsed = docstring_parser.parse(text, PARSER_STYLES[style])
    except docstring_parser.ParseError:
        return False
    named = [p.arg_name for p in parsed.params]
    raised = [r.type_name for r in parsed.raises]
    return named == [e.name for e in params] and raised == [e.name for e in raises]


def _wrap(width: int, text: str, indent: str = "", first: str | None = None) -> list[str]:
    """``text`` wrapped at ``width``; the first line starts with ``first`` (``indent`` when
    None)."""
    start = indent if first is None else first
    return textwrap.wrap(text, width, initial_indent=start, subsequent_indent=indent) or [
        start.rstrip()
    ]


def _numpy(
    params: list[Entry], returns: Entry | None, raises: list[Entry], section: str, width: int
) -> list[str]:
    blocks: list[list[str]] = []
    if params:
        rows = ["Parameters", "----------"]
        for e in params:
            rows += [f"{e.name} : {e.kind}" if e.kind else e.name]
            rows += _wrap(width, e.text, "    ") if e.text else []
        blocks.append(rows)
    if returns:
        blocks.append([section, "-" * len(section), returns.kind or "object"])
        blocks[-1] += _wrap(width, returns.text, "    ")
    if raises:
        rows = ["Raises", "------"]
        for e in raises:
            rows += [e.name, *(_wrap(width, e.text, "    ") if e.text else [])]
        blocks.append(rows)
    return [line for block in blocks for line in ["", *block]]


def _sphinx(
    params: list[Entry], returns: Entry | None, raises: list[Entry], yields: bool, width: int
) -> list[str]:
    fields: list[str] = []
    for e in params:
        fields += _wrap(width, f":param {e.name}: {e.text}", "    ", "")
        fields += [f":type {e.name}: {e.kind}"] if e.kind else []
    if returns:
        fields += _wrap(width, f":{'yields' if yields else 'returns'}: {returns.text}", "    ", "")
        fields += [f":rtype: {returns.kind}"] if returns.kind else []
    for e in raises:
        fields += _wrap(width, f":raises {e.name}: {e.text}".rstrip(), "    ", "")
    return ["", *fields] if fields else []


def _google(
    params: list[Entry], returns: Entry | None, raises: list[Entry], section: str, width: int
) -> list[str]:
    lines: list[str] = []
    if params:
        lines += ["", "Args:"]
        for e in params:
            lines += _wrap(
                width,
                e.text,
                "        ",
                f"    {e.name} ({e.kind}): " if e.kind else f"    {e.name}: ",
            )
    if returns:
        label = f"{returns.kind}: " if returns.kind else ""
        lines += ["", f"{section}:", *_wrap(width, returns.text, "        ", f"    {label}")]
    if raises:
        # The colon stays when there is no text: without it the entry is not a Google field.
        lines += ["", "Raises:"]
        for e in raises:
            lines += _wrap(width, e.text, "        ", f"    {e.name}: ")
    return lines


def render(
    style: str,
    summary: str,
    description: str,
    params: list[Entry],
    returns: Entry | None,
    raises: list[Entry],
    yields: bool = False,
    width: int = WIDTH,
) -> str:
    """Docstring text in ``style``; ``returns`` is (type, text) as an Entry without a name;
    the description's paragraphs and the sections' entries wrapped at ``width`` (the
    project's line length less the docstring's indentation)."""
    lines = [summary]
    for paragraph in re.split(r"\n\s*\n", description.strip()) if description.strip() else []:
        lines += ["", *_wrap(width, " ".join(paragraph.split()))]
    section = "Yields" if yields else "Returns"
    if style == "numpy":
        lines += _numpy(params, returns, raises, section, width)
    elif style == "sphinx":
        lines += _sphinx(params, returns, raises, yields, width)
    else:
        lines += _google(params, returns, raises, section, width)
    return "\n".join(line.rstrip() for line in lines)
