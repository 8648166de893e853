"""A docstring from the model's words, checked, with what is missing filled from facts.

The model may give a summary, a longer description, a description per
parameter, of the return value and per raised exception. Each piece is checked
(:func:`remora.code.docstring.pieces.check_pieces`); a refused piece comes back with
its reason so the model can try once more. What is refused or omitted is filled only
from what Remora can stand behind: the existing docstring (read with ``docstring_parser``, a real
parser of Google, NumPy and Sphinx docstrings), the parameter's default and the
exceptions the code itself raises. The parameter section always names exactly
the parameters (:mod:`remora.code.docstring.sections`) or is left out. A summary
is never invented: without an acceptable one (the model's or the existing
docstring's) nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.code.context import CodeContext
from remora.code.docstring.docstring_results import (
    ComposedDocstring,
    DocumentedParameter,
    DocumentedParameters,
)
from remora.code.docstring.draft import FIXED_EXAMPLES, file_examples
from remora.code.docstring.edit import node_docstring
from remora.code.docstring.facts import word_tokens
from remora.code.docstring.left_alone import never_shown_or_read
from remora.code.docstring.pieces import Pieces, check_pieces, existing_pieces
from remora.code.docstring.sections import (
    WIDTH,
    Entry,
    documented_parameters,
    fact_entries,
    one_line,
    reads_back,
    render,
)
from remora.code.docstring.siblings import sibling_texts
from remora.code.host_function import host_function
from remora.code.line_length import PEP8_LINE_LENGTH, stated_line_length
from remora.code.parsing import SourceNode, node_raises, node_returns

__all__ = ["compose", "render"]

STYLES = ("google", "numpy", "sphinx")
_FEEDBACK = "docstring feedback"


def compose(
    node: SourceNode,
    given: Pieces,
    style: str,
    current: str | None,
    others: Sequence[str] = FIXED_EXAMPLES,
    feedback: Sequence[str] = (),
    width: int = WIDTH,
) -> ComposedDocstring:
    """``{"text", "refused", "filled", "kept", "left_out"}``; ``text`` None: nothing to write.

    The parameter section names exactly the documented parameters or is left
    out (``left_out`` says why); the text is read back with ``docstring_parser``
    first, and a section it does not read back exactly is left out too. ``width``: the
    columns the docstring's text has (the project's line length less its indentation); a
    summary whose line would run past them is refused, the rest is wrapped at them.
    """
    if style not in STYLES:
        raise ValueError(f"unknown docstring style {style!r}; use one of {', '.join(STYLES)}")
    accepted, refused = check_pieces(node, given, others, feedback)
    if accepted.summary and len(accepted.summary) + len('""""""') > width:
        refused.append(
            {
                "field": "summary",
                "reason": f"with its quotes it runs past the project's line length by "
                f"{len(accepted.summary) + 6 - width} characters; say it in fewer words",
            }
        )
        accepted.summary = ""
    old, other = existing_pieces(current)
    nothing: ComposedDocstring = {
        "text": None,
        "refused": refused,
        "filled": [],
        "kept": "",
        "left_out": [],
    }
    if leave := never_shown_or_read(node):
        return {**nothing, "kept": leave}
    if other:
        return {**nothing, "kept": f"sections {other}"}
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
    if word_tokens(description) == word_tokens(summary):
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
        params = fact_entries(known.parameters, texts)
        if any(not entry.text for entry in params):
            # A name with only its type or default repeats the signature: the section is
            # written when every parameter has something to say, never in part.
            left_out.append("params: not every parameter has a description")
            params = []
    facts: dict[str, Any] = {"returns_value": False, "is_generator": False, "annotation": None}
    if node.definition is not None:
        facts = node_returns(node)
    returns: Entry | None = None
    if facts["returns_value"] or facts["is_generator"]:
        text = pick("returns", accepted.returns, old.returns)
        returns = Entry("", one_line(facts["annotation"]), text) if text else None
    raises = _raises_entries(node, accepted, old, left_out)
    # What docstring_parser does not read back exactly is left out, the description first.
    present = {"description": bool(description), "params": bool(params), "raises": bool(raises)}
    tries: list[tuple[list[str], str, list[Entry], list[Entry]]] = [
        ([], description, params, raises),
        (["description"], "", params, raises),
        (["description", "params"], "", [], raises),
        (["description", "params", "raises"], "", [], []),
    ]
    for dropped, words, rows, errors in tries:
        text = render(style, summary, words, rows, returns, errors, facts["is_generator"], width)
        if reads_back(text, style, rows, errors):
            if lost := _lost_entries(old, rows, errors, returns):
                return {**nothing, "kept": f"entries {lost} Remora cannot complete"}
            left_out += [f"{part}: not read back exactly" for part in dropped if present[part]]
            return {**nothing, "text": text, "filled": filled, "left_out": left_out}
    return {**nothing, "left_out": [f"everything: not read back as {style} style"]}


def _raises_entries(
    node: SourceNode, accepted: Pieces, old: Pieces, left_out: list[str]
) -> list[Entry]:
    """An entry per exception the code raises, each with something to say: the existing
    docstring's text, else the model's checked text; never the condition guarding the
    ``raise`` pasted as code ("If ``len(args) % 2``."): blind reviewers merged one in eight
    drafts with such an entry, against one in four of the rest ("the Raises entry just
    copies the code expression", and twice it was false: a condition is rarely the whole
    of when). When one exception has nothing to say the section is left out whole: a
    Raises section that names some of what the code raises reads as all of it."""
    if node.definition is None:
        return []
    entries = []
    for exc in dict.fromkeys(item["name"] for item in node_raises(node)):
        text = old.raises.get(exc, "") or accepted.raises.get(exc, "")
        if not text:
            left_out.append(f"raises.{exc}: nothing known about when it is raised")
            left_out.append("raises: not every exception says when it is raised")
            return []
        entries.append(Entry(exc, "", text))
    return entries


def _lost_entries(
    old: Pieces, params: list[Entry], raises: list[Entry], returns: Entry | None
) -> list[str]:
    """The existing docstring's entries the new text would drop (it is then kept as it is)."""
    lost = [f"params.{p}" for p in old.params if p not in {e.name.lstrip("*") for e in params}]
    lost += [f"raises.{e}" for e in old.raises if e not in {r.name for r in raises}]
    return lost + (["returns"] if old.returns and returns is None else [])


@host_function
def compose_docstring(
    context: CodeContext,
    style: str,
    summary: str = "",
    description: str = "",
    params: dict[str, str] = {},  # noqa: B006  (rendered into the stub; never mutated)
    returns: str = "",
    raises: dict[str, str] = {},  # noqa: B006
) -> ComposedDocstring:
    """Check the model's pieces and build the node's docstring text in ``style``.

    Returns ``{"text", "refused": [{"field", "reason"}], "filled": [...], "kept",
    "left_out": [...]}``; ``text`` is None when there is no summary Remora can
    stand behind (or the existing docstring has sections it does not rebuild,
    named in ``kept``). The parameter section names exactly the parameters of
    :func:`docstring_parameters`, or is left out with the reason in ``left_out``. A piece
    that repeats a reason an earlier call of this run gave is refused (echoes.py).
    """
    node = context.located()
    given = Pieces(summary, description, dict(params), returns, dict(raises))
    bound = context.bound_node()
    # The fixed examples count only where the prompt showed them: a module without
    # documented definitions of its own (draft.py).
    shown = () if file_examples(node.file.text, skip_line=bound.start_line) else FIXED_EXAMPLES
    others = (*shown, *sibling_texts(context, bound.file_path))
    # Every reason this run gave the model: a later piece that repeats one is refused.
    given_before = context.notes(_FEEDBACK)
    # The docstring sits one level inside its definition: those columns are not its text's.
    definition = node.definition
    indent = 0 if definition is None else node.file.positions[definition].start.column + 4
    width = (stated_line_length(context) or PEP8_LINE_LENGTH) - indent
    current = node_docstring(node)["value"]
    composed = compose(node, given, style, current, others, given_before, width)
    for item in composed["refused"]:
        context.note(_FEEDBACK, item["reason"])
    return composed


@host_function
def docstring_parameters(context: CodeContext) -> DocumentedParameters:
    """The parameters the node's docstring documents: ``{known, reason, parameters}``.

    A function's or method's signature without ``self``/``cls``; a class's
    constructor (explicit ``__init__``, dataclass fields, NamedTuple fields);
    none for a file. Each is ``{name, kind, annotation, default}`` as written;
    ``known`` is False (with the ``reason``) when they cannot be read exactly.
    """
    known = documented_parameters(context.located())
    # Only these four keys: a signature's row also says ``implicit``, a constructor's ``required``.
    rows: list[DocumentedParameter] = [
        {
            "name": p["name"],
            "kind": p["kind"],
            "annotation": p["annotation"],
            "default": p["default"],
        }
        for p in known.parameters or []
    ]
    return {"known": known.parameters is not None, "reason": known.reason, "parameters": rows}
