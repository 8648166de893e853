"""A docstring's pieces (summary, description, each parameter, returns, each raise): what
an existing docstring says, and what the model's pieces pass.

:func:`check_pieces` checks each piece with the prose checks of
:mod:`remora.code.docstring.prose` and the claims of :mod:`remora.code.docstring.claims`;
a refused piece comes back with its reason so the model can try once more.
:func:`existing_pieces` reads a docstring with ``docstring_parser`` (a real parser of
Google, NumPy and Sphinx docstrings).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import docstring_parser

from remora.code.docstring.behaviour import body_facts
from remora.code.docstring.claims import contradiction, description_claim
from remora.code.docstring.docstring_results import DocumentedParameter, RefusedDocstringPiece
from remora.code.docstring.draft import FIXED_EXAMPLES
from remora.code.docstring.echoes import echoed
from remora.code.docstring.entries import repeats_summary
from remora.code.docstring.facts import code_facts, name_words, word_tokens
from remora.code.docstring.prose import REPEATS, problem
from remora.code.docstring.restating import restating
from remora.code.docstring.sections import documented_parameters
from remora.code.docstring.vague_subjects import vague_subject
from remora.code.parsing import SourceNode, node_raises, node_returns

__all__ = ["Pieces", "check_pieces", "existing_pieces"]

_MANAGED_PARAM_KINDS = {"param", "parameter", "arg", "argument", "key", "keyword"}


@dataclass
class Pieces:
    """What a docstring says; every field may be empty."""

    summary: str = ""
    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    returns: str = ""
    raises: dict[str, str] = field(default_factory=dict)


def _sentence(text: str, *, paragraphs: bool = False) -> str:
    """Capitalised and ending in a full stop; one line unless ``paragraphs``."""
    if paragraphs:
        clean = "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip()))
    else:
        clean = " ".join(text.split())
    clean = clean[:1].upper() + clean[1:]
    return clean if clean.endswith((".", "!", "?")) else clean + "."


def check_pieces(
    node: SourceNode,
    given: Pieces,
    others: Sequence[str] = FIXED_EXAMPLES,
    feedback: Sequence[str] = (),
) -> tuple[Pieces, list[RefusedDocstringPiece]]:
    """(the pieces that pass, ``[{"field", "reason"}]`` for each refused one).

    ``others``: texts of other code (the folder's other files, the fixed examples)
    whose docstrings a summary must not copy and whose classes' nouns it must not
    borrow; the node's own file always counts. ``feedback``: the reasons the run gave
    the model so far, which no piece may repeat (echoes.py).
    """
    name = node.definition.name.value if node.definition is not None else node.ref.full_name
    real = documented_parameters(node)
    raised = {item["name"] for item in node_raises(node)} if node.definition else set()
    accepted = Pieces()
    refused: list[RefusedDocstringPiece] = []

    said: dict[tuple[str, ...], str] = {}
    facts = code_facts(node)
    names = frozenset(p["name"].lstrip("*") for p in real.parameters or [])

    def judge(where: str, text: str, subject: str, summary: bool = False) -> str:
        if not text.strip():
            return ""
        reason = problem(
            text,
            subject,
            summary=summary,
            node=node.ref.full_name,
            kind=node.ref.node_type,
            facts=facts,
            names=names,
        ) or echoed(node, text, feedback)
        if not reason and where.startswith(("description", "returns", "raises.")):
            # A description, Returns or Raises entry made of the summary's words says
            # nothing new.
            reason = repeats_summary(text, given.summary)
        tokens = tuple(word_tokens(text))
        if not reason and tokens in said:
            reason = f"it repeats {said[tokens]}"
        if reason:
            refused.append({"field": where, "reason": reason})
            return ""
        said.setdefault(tokens, "the " + where.split(".")[0])
        return _sentence(text, paragraphs=where == "description")

    accepted.summary = judge("summary", given.summary, name, summary=True)
    if refused and refused[-1]["field"] == "summary" and refused[-1]["reason"].startswith(REPEATS):
        # The same finding as restating's, which says what to write from the body.
        refused[-1]["reason"] = restating(node, given.summary) or refused[-1]["reason"]
    elif accepted.summary and (
        reason := contradiction(node, name, accepted.summary, others)
        or restating(node, accepted.summary)
        or vague_subject(node, accepted.summary)
    ):
        refused.append({"field": "summary", "reason": reason})
        accepted.summary = ""
    accepted.description = judge("description", given.description, name)
    if accepted.description and (reason := description_claim(node, name, accepted.description)):
        refused.append({"field": "description", "reason": reason})
        accepted.description = ""
    for param, text in given.params.items():
        if real.parameters is None:
            reason = f"{real.reason}; leave params out: the section is not written"
            refused.append({"field": f"params.{param}", "reason": reason})
        elif param.lstrip("*") not in (declared := [p["name"] for p in real.parameters]):
            known = ", ".join(declared) or "none"
            reason = f"no such parameter ({known}); describe only these"
            refused.append({"field": f"params.{param}", "reason": reason})
        elif described := judge(f"params.{param}", text, param):
            if empty := _says_nothing(described, _row(real.parameters, param)):
                refused.append({"field": f"params.{param}", "reason": empty})
            else:
                accepted.params[param.lstrip("*")] = described
    returns = node_returns(node) if node.definition is not None else {"returns_value": False}
    if given.returns.strip() and not (returns["returns_value"] or returns.get("is_generator")):
        reason = "the code returns no value; leave returns out"
        refused.append({"field": "returns", "reason": reason})
    elif given.returns.strip() and _only_self(node, given.returns):
        reason = "it returns the instance itself (`return self`); say so, or leave returns out"
        refused.append({"field": "returns", "reason": reason})
    else:
        accepted.returns = judge("returns", given.returns, name)
    for exc, text in given.raises.items():
        if exc not in raised:
            listed = ", ".join(sorted(raised)) or "nothing"
            reason = f"{exc} is not raised by this code (it raises {listed})"
            refused.append({"field": f"raises.{exc}", "reason": reason})
        elif name_words(text) <= _EMPTY_WORDS | name_words(exc):
            reason = f"it does not say when {exc} is raised; say when, or leave it out"
            refused.append({"field": f"raises.{exc}", "reason": reason})
        elif described := judge(f"raises.{exc}", text, exc):
            accepted.raises[exc] = described
    return accepted, refused


# Words that say nothing about a parameter or an exception beyond the signature: articles,
# type names, "optional", "defaults to", "raised if an error".
_EMPTY_WORDS = frozenset(
    str.split(
        """a an the of to is if when it this that be by value object instance optional default
    defaults none true false str string int integer float number bool boolean list dict
    dictionary tuple set bytes any type raised raise raises thrown error exception"""
    )
)


def _row(parameters: list[DocumentedParameter], name: str) -> DocumentedParameter:
    return next(p for p in parameters if p["name"] == name.lstrip("*"))


def _says_nothing(text: str, parameter: DocumentedParameter) -> str:
    """Why a parameter's description only repeats the signature ('' when it says more)."""
    known = name_words(parameter["name"]) | _EMPTY_WORDS
    for written in (parameter["annotation"], parameter["default"]):
        known |= set(word_tokens(written or ""))
    tokens = name_words(text)
    if tokens and tokens <= known | {t for t in tokens if t.isdigit()}:
        return (
            "it gives only the name, type or default, which the signature shows; "
            "say what the parameter means, or leave it out"
        )
    return ""


def _only_self(node: SourceNode, text: str) -> bool:
    """A builder's returns text that does not say it is the instance."""
    facts = body_facts(node) if node.ref.node_type in ("function", "method") else None
    instance = {"self", "instance", "itself", "object"}
    return facts is not None and facts.builder and not set(word_tokens(text)) & instance


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
