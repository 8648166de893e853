"""What a summary says of the parameters' defaults, checked against the signature.

- :func:`not_optional`: "the soil is optional" of a parameter without a default.
- :func:`unconditional_flag`: a summary that states what an off-by-default flag turns on
  as what every call does. "Count the number of unique emojis in a string." of
  ``emoji_count(string, unique=False)`` (a blind reviewer: "false: it counts unique emoji
  only with unique=True"): the flag's words (``unique``; ``emoji_only`` as "emoji only")
  stand in the summary, its default is ``False``, and no word makes them conditional
  ("optionally", "if", "when", "can", ...). A flag whose words are the node's own name's
  (``unique_values(..., unique=False)``) is not held: the name says the subject.

The signature is read from ``ast`` (:func:`~remora.code.docstring.sections.documented_parameters`);
the summary's words are prose, read as words.
"""

from __future__ import annotations

from remora.code.docstring.facts import name_words
from remora.code.docstring.sections import documented_parameters
from remora.code.docstring.vocabulary import stem
from remora.code.parsing import SourceNode

__all__ = ["not_optional", "unconditional_flag"]

# Words by which a summary makes what follows depend on the call.
_CONDITIONAL = frozenset(
    str.split(
        "optionally optional option options if when whenever unless whether can could may "
        "might flag flags depending according requested enabled set given"
    )
)


def not_optional(node: SourceNode, tokens: list[str]) -> str:
    """Why the summary calls a parameter optional that has no default ('' when it does not)."""
    if "optional" not in tokens:
        return ""
    known = documented_parameters(node).parameters or []
    required = [
        p["name"]
        for p in known
        if p["default"] is None and p["kind"] not in ("var_positional", "var_keyword")
    ]
    at = tokens.index("optional")
    # "the soil is optional", "an optional soil": the name right before or after the word.
    near = set(tokens[max(0, at - 3) : at]) | set(tokens[at + 1 : at + 2])
    for name in required:
        if name_words(name) <= near:
            return f"it says {name} is optional, but it has no default"
    return ""


def _run_of(words: list[str], stems: list[str]) -> bool:
    """Whether ``words`` stand in a row among ``stems`` (each compared by its stem)."""
    wanted = [stem(w) for w in words]
    return any(stems[i : i + len(wanted)] == wanted for i in range(len(stems)))


def unconditional_flag(node: SourceNode, tokens: list[str]) -> str:
    """Why the summary (its lower-case ``tokens``) states an off-by-default flag's effect
    as always done ('' when it does not)."""
    if node.ref.node_type not in ("function", "method") or _CONDITIONAL & set(tokens):
        return ""
    stems = [stem(t) for t in tokens]
    own = {stem(w) for w in name_words(node.ref.full_name.split(".")[-1])}
    known = documented_parameters(node).parameters or []
    for flag in [str(p["name"]) for p in known if p["default"] == "False"]:
        words = [w for w in flag.lower().split("_") if w]
        if words and not {stem(w) for w in words} <= own and _run_of(words, stems):
            return (
                f"it says the code does what {flag}=True asks as if always, but {flag} is "
                "False unless the caller sets it; say what the call does by default"
            )
    return ""
