"""A docstring from the model's words, checked, with what is missing filled from facts.

The model may give a summary, a longer description, a description per
parameter, of the return value and per raised exception. Each piece is checked
(:func:`check_pieces`); a refused piece comes back with its reason so the model
can try once more. What is refused or omitted is filled only from what Remora
can stand behind: the existing docstring (read with ``docstring_parser``, a real
parser of Google, NumPy and Sphinx docstrings), the parameter's default and the
exceptions the code itself raises. A summary is never invented: without an
acceptable one (the model's or the existing docstring's) nothing is written.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

import docstring_parser

from remora.code.context import CodeContext
from remora.code.module import host_function
from remora.code.source import SourceNode
from remora.code.structure import node_raises, node_returns, node_signature

__all__ = ["Pieces", "check_pieces", "compose", "render"]

STYLES = ("google", "numpy", "sphinx")
MAX_SUMMARY_CHARS = 120
MAX_PIECE_CHARS = 400
_WIDTH = 88
_ARTICLES = {"a", "an", "the", "of", "this", "given", "value", "object", "instance"}
# Words of the bundled agent's instructions that tiny models copy into summaries.
_PROMPT_PHRASES = (
    "one sentence",
    "what the code does",
    "document the",
    "write_docstring",
    "submit_result",
    "read_docstring",
    # ... and of the tools' own answers, or talk about the code instead of its job.
    "returns no value",
    "no usable summary",
    "the code",
    "this code",
    "the summary",
    "summary of",
    "docstring",
    "params {",
    "{name",
    "{exception",
    "description of the return value",
    "optional description",
    "optional longer",
    "the function",
    "this function",
    "the method",
    "this method",
)
_MANAGED_PARAM_KINDS = {"param", "parameter", "arg", "argument", "key", "keyword"}


@dataclass
class Pieces:
    """What a docstring says; every field may be empty."""

    summary: str = ""
    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    returns: str = ""
    raises: dict[str, str] = field(default_factory=dict)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _name_words(name: str) -> set[str]:
    """``total_revenue`` and ``totalRevenue`` -> {total, revenue}."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return set(_words(spaced))


def _problem(text: str, name: str, *, summary: bool, node: str = "") -> str:
    """Why ``text`` cannot be used ('' when it can); ``node`` is the qualified name."""
    clean = " ".join(text.split())
    letters = sum(ch.isalpha() for ch in clean)
    if letters < 0.6 * len(clean.replace(" ", "")):
        return "it is mostly digits or punctuation"
    words = _words(clean)
    if set(words) <= _ARTICLES | _name_words(name) | {"returns", "return", "is", "if", "true"}:
        return f"it only repeats the name {name!r}; say what it is for"
    if len(words) >= 4 and len(set(words)) < 0.6 * len(words):
        return "it repeats itself"
    low = clean.lower()
    if summary and len(words) < 2:
        return "it is too short to say what the code does"
    if _is_code(text):
        return "it is code, not a description of it"
    if any(phrase in low for phrase in _PROMPT_PHRASES):
        return "it echoes the instructions instead of describing the code"
    short = node.rsplit(".", 1)[-1].lower()
    if ("." in node and node.lower() in low) or re.search(
        rf"\b({re.escape(short)}\s+(method|function|class)|(method|function|class)\s+{re.escape(short)})\b",
        low,
    ):
        return f"it names {node} instead of saying what it does"
    if summary:
        if len(clean) > MAX_SUMMARY_CHARS:
            return f"it is longer than {MAX_SUMMARY_CHARS} characters; put the rest in description"
        if re.search(r"[.!?]\s+\S", clean):
            return "it runs past one sentence; put the rest in description"
    elif len(clean) > MAX_PIECE_CHARS:
        return f"it is longer than {MAX_PIECE_CHARS} characters"
    return ""


def _is_code(text: str) -> bool:
    """Python's parser accepts it (prose does not: "Fold the items." is no statement)."""
    if "```" in text:
        return True
    try:
        ast.parse(text.strip())
    except (SyntaxError, ValueError):
        return False
    return True


def _sentence(text: str, *, paragraphs: bool = False) -> str:
    """Capitalised and ending in a full stop; one line unless ``paragraphs``."""
    if paragraphs:
        clean = "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip()))
    else:
        clean = " ".join(text.split())
    clean = clean[:1].upper() + clean[1:]
    return clean if clean.endswith((".", "!", "?")) else clean + "."


def check_pieces(node: SourceNode, given: Pieces) -> tuple[Pieces, list[dict[str, str]]]:
    """(the pieces that pass, ``[{"field", "reason"}]`` for each refused one)."""
    name = node.definition.name.value if node.definition is not None else node.ref.full_name
    real = _documented_params(node)
    raised = {item["name"] for item in node_raises(node)} if node.definition else set()
    accepted = Pieces()
    refused: list[dict[str, str]] = []

    said: dict[tuple[str, ...], str] = {}

    def judge(where: str, text: str, subject: str, summary: bool = False) -> str:
        if not text.strip():
            return ""
        reason = _problem(text, subject, summary=summary, node=node.ref.full_name)
        words = tuple(_words(text))
        if not reason and words in said:
            reason = f"it repeats {said[words]}"
        if reason:
            refused.append({"field": where, "reason": reason})
            return ""
        said.setdefault(words, "the " + where.split(".")[0])
        return _sentence(text, paragraphs=where == "description")

    accepted.summary = judge("summary", given.summary, name, summary=True)
    accepted.description = judge("description", given.description, name)
    for param, text in given.params.items():
        if param.lstrip("*") not in real:
            known = ", ".join(real) or "none"
            refused.append({"field": f"params.{param}", "reason": f"no such parameter ({known})"})
        elif described := judge(f"params.{param}", text, param):
            accepted.params[param.lstrip("*")] = described
    returns = node_returns(node) if node.definition is not None else {"returns_value": False}
    if given.returns.strip() and not (returns["returns_value"] or returns.get("is_generator")):
        refused.append({"field": "returns", "reason": "the code returns no value"})
    else:
        accepted.returns = judge("returns", given.returns, name)
    for exc, text in given.raises.items():
        if exc not in raised:
            refused.append(
                {"field": f"raises.{exc}", "reason": f"{exc} is not raised by this code"}
            )
        elif described := judge(f"raises.{exc}", text, exc):
            accepted.raises[exc] = described
    return accepted, refused


def _documented_params(node: SourceNode) -> dict[str, dict[str, Any]]:
    if node.definition is None or node.ref.node_type == "class":
        return {}
    params = node_signature(node)["parameters"]
    return {p["name"]: p for p in params if not p["implicit"]}


def existing_pieces(value: str | None) -> tuple[Pieces, list[str]]:
    """(what an existing docstring says, the sections it has that are not rebuilt here)."""
    if not value:
        return Pieces(), []
    parsed = docstring_parser.parse(value)
    pieces = Pieces(
        summary=parsed.short_description or "", description=parsed.long_description or ""
    )
    other: list[str] = []
    for meta in parsed.meta:
        text = meta.description or ""
        if isinstance(meta, docstring_parser.DocstringParam) and meta.args[0] in (
            _MANAGED_PARAM_KINDS
        ):
            pieces.params[meta.arg_name.lstrip("*")] = text
        elif isinstance(meta, docstring_parser.DocstringReturns):
            pieces.returns = text
        elif isinstance(meta, docstring_parser.DocstringRaises) and meta.type_name:
            pieces.raises[meta.type_name] = text
        else:
            other.append(meta.args[0])
    return pieces, other


def _wrap(text: str, indent: str = "", first: str | None = None) -> list[str]:
    """``text`` wrapped; the first line starts with ``first`` (``indent`` when None)."""
    start = indent if first is None else first
    return textwrap.wrap(text, _WIDTH, initial_indent=start, subsequent_indent=indent) or [
        start.rstrip()
    ]


def render(
    style: str,
    summary: str,
    description: str,
    params: list[tuple[str, str, str]],
    returns: tuple[str, str] | None,
    raises: list[tuple[str, str]],
    yields: bool = False,
) -> str:
    """Docstring text in ``style``; params as (name, type, text), returns as (type, text)."""
    lines = [summary]
    if description:
        lines += ["", *description.strip().split("\n")]
    section = "Yields" if yields else "Returns"
    if style == "numpy":
        blocks: list[list[str]] = []
        if params:
            rows = ["Parameters", "----------"]
            for name, kind, text in params:
                rows += [f"{name} : {kind}" if kind else name, *_wrap(text, "    ")]
            blocks.append(rows)
        if returns:
            blocks.append([section, "-" * len(section), returns[0] or "object"])
            blocks[-1] += _wrap(returns[1], "    ")
        if raises:
            rows = ["Raises", "------"]
            for name, text in raises:
                rows += [name, *(_wrap(text, "    ") if text else [])]
            blocks.append(rows)
        for block in blocks:
            lines += ["", *block]
    elif style == "sphinx":
        fields: list[str] = []
        for name, kind, text in params:
            fields += _wrap(f":param {name}: {text}", "    ", "")
            fields += [f":type {name}: {kind}"] if kind else []
        if returns:
            fields += _wrap(f":{'yields' if yields else 'returns'}: {returns[1]}", "    ", "")
            fields += [f":rtype: {returns[0]}"] if returns[0] else []
        for name, text in raises:
            fields += _wrap(f":raises {name}: {text}".rstrip(), "    ", "")
        lines += ["", *fields] if fields else []
    else:
        if params:
            lines += ["", "Args:"]
            for name, kind, text in params:
                label = f"{name} ({kind})" if kind else name
                lines += _wrap(text, "        ", f"    {label}: ")
        if returns:
            label = f"{returns[0]}: " if returns[0] else ""
            lines += ["", f"{section}:", *_wrap(returns[1], "        ", f"    {label}")]
        if raises:
            lines += ["", "Raises:"]
            for name, text in raises:
                lines += _wrap(text, "        ", f"    {name}: ") if text else [f"    {name}"]
    return "\n".join(line.rstrip() for line in lines)


def compose(node: SourceNode, given: Pieces, style: str, current: str | None) -> dict[str, Any]:
    """``{"text", "refused", "filled", "kept"}``; ``text`` is None when nothing can be written."""
    if style not in STYLES:
        raise ValueError(f"unknown docstring style {style!r}; use one of {', '.join(STYLES)}")
    accepted, refused = check_pieces(node, given)
    old, other = existing_pieces(current)
    if other:
        return {"text": None, "refused": refused, "filled": [], "kept": f"sections {other}"}
    filled: list[str] = []

    def pick(name: str, new: str, before: str) -> str:
        if not new and before:
            filled.append(name)
        return new or before

    # The author's summary stays: the model's replaces none, it only fills a gap.
    summary = old.summary or accepted.summary
    if old.summary and accepted.summary:
        filled.append("summary kept from the existing docstring")
    if not summary:
        return {"text": None, "refused": refused, "filled": [], "kept": ""}
    description = pick("description", accepted.description, old.description)
    if _words(description) == _words(summary):
        description = ""  # a copy of the summary the existing docstring already has
    params: list[tuple[str, str, str]] = []
    for name, param in _documented_params(node).items():
        text = pick(f"params.{name}", accepted.params.get(name, ""), old.params.get(name, ""))
        if not text and param["default"] is not None:
            text = f"Defaults to ``{param['default']}``."
            filled.append(f"params.{name} from its default")
        stars = {"var_positional": "*", "var_keyword": "**"}.get(param["kind"], "")
        if text:
            params.append((stars + name, param["annotation"] or "", text))
    facts: dict[str, Any] = {"returns_value": False, "is_generator": False, "annotation": None}
    if node.definition is not None:
        facts = node_returns(node)
    returns: tuple[str, str] | None = None
    if facts["returns_value"] or facts["is_generator"]:
        text = pick("returns", accepted.returns, old.returns)
        returns = (facts["annotation"] or "", text) if text else None
    raises: list[tuple[str, str]] = []
    for item in node_raises(node) if node.definition is not None else []:
        exc = item["name"]
        raises.append(
            (exc, pick(f"raises.{exc}", accepted.raises.get(exc, ""), old.raises.get(exc, "")))
        )
    text = render(style, summary, description, params, returns, raises, facts["is_generator"])
    return {"text": text, "refused": refused, "filled": filled, "kept": ""}


@host_function
def compose_docstring(
    context: CodeContext,
    style: str,
    summary: str = "",
    description: str = "",
    params: dict[str, str] = {},  # noqa: B006  (rendered into the stub; never mutated)
    returns: str = "",
    raises: dict[str, str] = {},  # noqa: B006
) -> dict[str, Any]:
    """Check the model's pieces and build the node's docstring text in ``style``.

    Returns ``{"text", "refused": [{"field", "reason"}], "filled": [...], "kept"}``;
    ``text`` is None when there is no summary Remora can stand behind (or the
    existing docstring has sections it does not rebuild, named in ``kept``).
    """
    from remora.code.docstrings import node_docstring

    node = context.located()
    given = Pieces(summary, description, dict(params), returns, dict(raises))
    return compose(node, given, style, node_docstring(node)["value"])
