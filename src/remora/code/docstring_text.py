"""A docstring from the model's words, checked, with what is missing filled from facts.

The model may give a summary, a longer description, a description per
parameter, of the return value and per raised exception. Each piece is checked
(:func:`check_pieces`); a refused piece comes back with its reason so the model
can try once more. What is refused or omitted is filled only from what Remora
can stand behind: the existing docstring (read with ``docstring_parser``, a real
parser of Google, NumPy and Sphinx docstrings), the parameter's default and the
exceptions the code itself raises. The parameter section always names exactly
the parameters (:mod:`remora.code.docstring_sections`) or is left out. A summary
is never invented: without an acceptable one (the model's or the existing
docstring's) nothing is written.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import docstring_parser

from remora.code.context import CodeContext
from remora.code.docstring_sections import (
    Entry,
    documented_parameters,
    fact_entries,
    one_line,
    reads_back,
    render,
)
from remora.code.module import host_function
from remora.code.source import SourceNode
from remora.code.structure import node_raises, node_returns

__all__ = ["Pieces", "check_pieces", "compose", "render"]

STYLES = ("google", "numpy", "sphinx")
MAX_SUMMARY_CHARS = 120
MAX_PIECE_CHARS = 400
_ARTICLES = {"a", "an", "the", "of", "this", "given", "value", "object", "instance"}
# Words of the bundled agent's instructions (and of the refusal reasons below)
# that tiny models copy into summaries ...
_PROMPT_PHRASES = (
    "one sentence",
    "what the code does",
    "document the",
    "write_docstring",
    "submit_result",
    "read_docstring",
    "in the imperative",
    "your own words",
    # ... and of the tools' own answers.
    "returns no value",
    "no usable summary",
    "the summary",
    "summary of",
    "docstring",
    "params {",
    "{name",
    "{exception",
    "description of the return value",
    "optional description",
    "optional longer",
)
# "summary: description, returns: description, raises: {}": the tool's fields, the
# keys of its answers, or any "key: value" list, copied instead of a sentence.
_FIELD_LIST = re.compile(r"\b([a-z_]+)\s*:\s*(?:[{\[]|[a-z_]+\b(?=\s*[,.;]|$))")
# Talk about the code instead of its job: "The function X is a function that ...".
_ABOUT_THE_CODE = (
    "the code",
    "this code",
    "the function",
    "this function",
    "the method",
    "this method",
)
_CALLABLE = ("function", "method", "")
# The placeholders of the examples a summary's reasons give ('Return …'): copied, not filled in.
_PLACEHOLDERS = ("…", "...")
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


def _how_to_start(kind: str) -> str:
    """How a summary of a node of ``kind`` reads (PEP 257: a function's says what it does,
    as a command; Google style: a class's says what an instance is)."""
    if kind == "class":
        return "say what one instance is: 'A … that …'"
    if kind == "file":
        return "say what the module provides: 'Helpers for …'"
    return "start with a verb in the imperative: 'Return …', 'Build …', 'Check …'"


def _repeated(words: list[str]) -> str:
    """The words said more than once, with how often: "'count' 3 times, 'stock' 3 times"."""
    counts = Counter(w for w in words if w not in _ARTICLES)
    top = [(w, n) for w, n in counts.most_common(3) if n > 1]
    return ", ".join(f"{w!r} {n} times" for w, n in top)


def _problem(text: str, name: str, *, summary: bool, node: str = "", kind: str = "") -> str:
    """Why ``text`` cannot be used and what to write instead ('' when it can be used).

    ``node`` is the qualified name and ``kind`` the node type; a summary's
    reasons say how a summary of that kind of node starts.
    """
    clean = " ".join(text.split())
    start = "; " + _how_to_start(kind) if summary else ""
    letters = sum(ch.isalpha() for ch in clean)
    if letters < 0.6 * len(clean.replace(" ", "")):
        return "it is mostly digits or punctuation; write it in words" + start
    if summary and (placeholder := next((m for m in _PLACEHOLDERS if m in clean), "")):
        return f"it keeps the placeholder {placeholder!r} of an example; write what it stands for"
    words = _words(clean)
    if set(words) <= _ARTICLES | _name_words(name) | {"returns", "return", "is", "if", "true"}:
        return f"it only repeats the name {name!r}; say what it does or holds" + start
    if len(words) >= 4 and len(set(words)) < 0.6 * len(words):
        return f"it repeats itself ({_repeated(words)}); say each thing once"
    low = clean.lower()
    if summary and len(words) < 2:
        return f"it has under two words, too short to say what the code does{start}"
    if _is_code(text):
        return "it is Python code, not words about what the code does" + (
            start or "; describe it in words"
        )
    if len(fields := _FIELD_LIST.findall(low)) >= 2:
        listed = ", ".join(f"'{name}:'" for name in fields[:3])
        return (
            f"it copies the tool's fields ({listed}) instead of saying what the code does; "
            "write plain words" + start
        )
    if "{" in clean:
        return "it holds braces, like the tool's JSON; write plain words" + start
    if echoed := next((phrase for phrase in _PROMPT_PHRASES if phrase in low), ""):
        return (
            f"it echoes the instructions ({echoed!r}) instead of describing this code; "
            "write your own words" + start
        )
    if about := next((phrase for phrase in _ABOUT_THE_CODE if phrase in low), ""):
        unlike = (
            ", not 'The function … is a function that …'" if start and kind in _CALLABLE else ""
        )
        return f"it talks about {about!r} instead of saying what it does{start}{unlike}"
    short = node.rsplit(".", 1)[-1].lower()
    if ("." in node and node.lower() in low) or re.search(
        rf"\b({re.escape(short)}\s+(method|function|class)|(method|function|class)\s+{re.escape(short)})\b",
        low,
    ):
        return f"it names {node} instead of saying what it does; leave the name out" + start
    if summary:
        if len(clean) > MAX_SUMMARY_CHARS:
            return (
                f"it is longer than {MAX_SUMMARY_CHARS} characters ({len(clean)}); keep the "
                "main point in one short sentence and put the rest in description"
            )
        if found := re.search(r"[.!?]\s+\S", clean):
            first = clean[: found.start() + 1]
            return (
                f"it runs past one sentence; make the first ({first!r}) the summary and "
                "put the rest in description"
            )
    elif len(clean) > MAX_PIECE_CHARS:
        return f"it is longer than {MAX_PIECE_CHARS} characters ({len(clean)}); shorten it"
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
    real = documented_parameters(node)
    raised = {item["name"] for item in node_raises(node)} if node.definition else set()
    accepted = Pieces()
    refused: list[dict[str, str]] = []

    said: dict[tuple[str, ...], str] = {}

    def judge(where: str, text: str, subject: str, summary: bool = False) -> str:
        if not text.strip():
            return ""
        reason = _problem(
            text, subject, summary=summary, node=node.ref.full_name, kind=node.ref.node_type
        )
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
        if real.parameters is None:
            reason = f"{real.reason}; leave params out: the section is not written"
            refused.append({"field": f"params.{param}", "reason": reason})
        elif param.lstrip("*") not in (names := [p["name"] for p in real.parameters]):
            known = ", ".join(names) or "none"
            reason = f"no such parameter ({known}); describe only these"
            refused.append({"field": f"params.{param}", "reason": reason})
        elif described := judge(f"params.{param}", text, param):
            accepted.params[param.lstrip("*")] = described
    returns = node_returns(node) if node.definition is not None else {"returns_value": False}
    if given.returns.strip() and not (returns["returns_value"] or returns.get("is_generator")):
        reason = "the code returns no value; leave returns out"
        refused.append({"field": "returns", "reason": reason})
    else:
        accepted.returns = judge("returns", given.returns, name)
    for exc, text in given.raises.items():
        if exc not in raised:
            listed = ", ".join(sorted(raised)) or "nothing"
            reason = f"{exc} is not raised by this code (it raises {listed})"
            refused.append({"field": f"raises.{exc}", "reason": reason})
        elif described := judge(f"raises.{exc}", text, exc):
            accepted.raises[exc] = described
    return accepted, refused


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


def compose(node: SourceNode, given: Pieces, style: str, current: str | None) -> dict[str, Any]:
    """``{"text", "refused", "filled", "kept", "left_out"}``; ``text`` None: nothing to write.

    The parameter section names exactly the documented parameters or is left
    out (``left_out`` says why); the text is read back with ``docstring_parser``
    first, and a section it does not read back exactly is left out too.
    """
    if style not in STYLES:
        raise ValueError(f"unknown docstring style {style!r}; use one of {', '.join(STYLES)}")
    accepted, refused = check_pieces(node, given)
    old, other = existing_pieces(current)
    nothing: dict[str, Any] = {"text": None, "refused": refused, "filled": [], "kept": ""}
    if other:
        return {**nothing, "kept": f"sections {other}", "left_out": []}
    filled: list[str] = []
    left_out: list[str] = []

    def pick(name: str, new: str, before: str) -> str:
        if not new and before:
            filled.append(name)
        return new or before

    # The author's summary stays: the model's replaces none, it only fills a gap.
    summary = old.summary or accepted.summary
    if old.summary and accepted.summary:
        filled.append("summary kept from the existing docstring")
    if not summary:
        return {**nothing, "left_out": ["everything: no summary Remora can stand behind"]}
    description = pick("description", accepted.description, old.description)
    if _words(description) == _words(summary):
        description = ""  # a copy of the summary the existing docstring already has
    known = documented_parameters(node)
    params: list[Entry] = []
    if known.parameters is None:
        left_out.append(f"params: {known.reason}")
    else:
        texts = {
            p["name"]: pick(
                f"params.{p['name']}",
                accepted.params.get(p["name"], ""),
                old.params.get(p["name"], ""),
            )
            for p in known.parameters
        }
        params, from_defaults = fact_entries(known.parameters, texts)
        filled += from_defaults
    facts: dict[str, Any] = {"returns_value": False, "is_generator": False, "annotation": None}
    if node.definition is not None:
        facts = node_returns(node)
    returns: Entry | None = None
    if facts["returns_value"] or facts["is_generator"]:
        text = pick("returns", accepted.returns, old.returns)
        returns = Entry("", one_line(facts["annotation"]), text) if text else None
    raised = [item["name"] for item in node_raises(node)] if node.definition is not None else []
    raises = [
        Entry(exc, "", pick(f"raises.{exc}", accepted.raises.get(exc, ""), old.raises.get(exc, "")))
        for exc in dict.fromkeys(raised)
    ]
    # What docstring_parser does not read back exactly is left out, the description first.
    present = {"description": bool(description), "params": bool(params), "raises": bool(raises)}
    tries: list[tuple[list[str], str, list[Entry], list[Entry]]] = [
        ([], description, params, raises),
        (["description"], "", params, raises),
        (["description", "params"], "", [], raises),
        (["description", "params", "raises"], "", [], []),
    ]
    for dropped, words, rows, errors in tries:
        text = render(style, summary, words, rows, returns, errors, facts["is_generator"])
        if reads_back(text, style, rows, errors):
            left_out += [f"{part}: not read back exactly" for part in dropped if present[part]]
            done = {"text": text, "refused": refused, "filled": filled, "kept": ""}
            return {**done, "left_out": left_out}
    return {**nothing, "left_out": [f"everything: not read back as {style} style"]}


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

    Returns ``{"text", "refused": [{"field", "reason"}], "filled": [...], "kept",
    "left_out": [...]}``; ``text`` is None when there is no summary Remora can
    stand behind (or the existing docstring has sections it does not rebuild,
    named in ``kept``). The parameter section names exactly the parameters of
    :func:`docstring_parameters`, or is left out with the reason in ``left_out``.
    """
    from remora.code.docstrings import node_docstring

    node = context.located()
    given = Pieces(summary, description, dict(params), returns, dict(raises))
    return compose(node, given, style, node_docstring(node)["value"])


@host_function
def docstring_parameters(context: CodeContext) -> dict[str, Any]:
    """The parameters the node's docstring documents: ``{known, reason, parameters}``.

    A function's or method's signature without ``self``/``cls``; a class's
    constructor (explicit ``__init__``, dataclass fields, NamedTuple fields);
    none for a file. Each is ``{name, kind, annotation, default}`` as written;
    ``known`` is False (with the ``reason``) when they cannot be read exactly.
    """
    known = documented_parameters(context.located())
    rows = [
        {key: p[key] for key in ("name", "kind", "annotation", "default")}
        for p in known.parameters or []
    ]
    return {"known": known.parameters is not None, "reason": known.reason, "parameters": rows}
