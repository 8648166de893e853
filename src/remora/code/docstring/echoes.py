"""Docstring text that repeats Remora's own feedback or instructions back.

A refused piece goes back to the model with its reason, and a small model may copy the
reason instead of following it ("Restates the name 'f'; says what it returns or changes,
or when it raises, from the body: it."): words Remora wrote about the docstring, not
words about the code. Any piece that shares a run of :data:`ECHO_RUN` words with a
reason given in the run, with the docstring agent's instructions or with the restating
reason this node would get, or that quotes the node's own name as those reasons do, is
refused.

prose.py already refuses the prompt's fixed phrases ("what the code does"); this holds
a piece to every reason's words too.

A reason may ask for words ("say that it returns the instance"), and what it quotes
(code in backticks, the model's own words, a name in quotes) is fair to write; so a run
counts only outside quotes, and, shorter than six words, only when it holds a word that
speaks of the docstring rather than of the code (:data:`_META`). Words are compared by
their stems ("says" is "say").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from remora.code.docstring.facts import word_tokens
from remora.code.docstring.restating import name_reason
from remora.code.docstring.vocabulary import stem
from remora.code.parsing import SourceNode

__all__ = ["ECHO_RUN", "INSTRUCTIONS", "echoed"]

ECHO_RUN = 4

# The docstring agent's own wording (agents/bundled/docstring/: its system prompt and what
# its tools answer when nothing is written); a test keeps them equal.
INSTRUCTIONS = (
    "Call write_docstring with a one-sentence summary of what the code does",
    "add a description, params, returns and raises when you can say something true about them",
    "A refused summary comes back with its reason: fix it once",
    "nothing drafted; call write_docstring with a summary of your own",
    "call write_docstring again with a summary of one sentence, in your own words, "
    "saying what the code does",
)

# Words that speak of the docstring or of the ask, not of the code it documents (stems).
_META = frozenset(
    stem(w)
    for w in str.split(
        """say restate summary docstring description body sentence word refused reason fix
        write call own leave checks drafted"""
    )
)

# Quoted spans of a reason: code in backticks, a name or the model's words in quotes (an
# apostrophe inside a word, "class's", opens none).
_QUOTED = re.compile(r"`[^`]*`|(?<![A-Za-z0-9])'[^'\n]*'(?![A-Za-z0-9])|\"[^\"\n]*\"")


def _pieces(text: str) -> list[list[str]]:
    """The stemmed words of ``text`` between its quotes."""
    return [[stem(w) for w in word_tokens(piece)] for piece in _QUOTED.split(text)]


def _echo(ours: list[str], theirs: list[str]) -> slice | None:
    """Where the first run of words ``ours`` shares with ``theirs`` that counts as an echo
    is in ``ours``: at least ECHO_RUN words with a meta word, or ECHO_RUN + 2 of any."""
    for at in range(len(ours)):
        for start in range(len(theirs)):
            size = 0
            while (
                at + size < len(ours)
                and start + size < len(theirs)
                and ours[at + size] == theirs[start + size]
            ):
                size += 1
            run = ours[at : at + size]
            if size >= ECHO_RUN + 2 or (size >= ECHO_RUN and _META.intersection(run)):
                return slice(at, at + size)
    return None


def _name(node: SourceNode) -> str:
    if node.ref.node_type == "file":
        return PurePosixPath(node.ref.full_name).stem
    return node.ref.full_name.split(".")[-1]


def echoed(node: SourceNode, text: str, feedback: Sequence[str] = ()) -> str:
    """Why ``text`` repeats Remora's feedback or instructions ('' when it does not).

    ``feedback``: the reasons given in this run (every refusal the model was shown)."""
    name = _name(node)
    given = (*feedback, *INSTRUCTIONS, name_reason(node))
    if any(quote + name + quote in text for quote in ("'", '"')):
        return (
            f"it quotes the name {name!r} as Remora's reasons do: it repeats the feedback; "
            "write what the code does"
        )
    words = word_tokens(text)
    ours = [stem(w) for w in words]
    for reason in given:
        for theirs in _pieces(reason):
            if run := _echo(ours, theirs):
                return (
                    f"it repeats Remora's feedback (the words {' '.join(words[run])!r}), "
                    "not the code; write what the code does"
                )
    return ""
