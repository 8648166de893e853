"""A summary that says how the code works ("by …", "using …", "via …") in words the code says.

"Expand a string by repeating it a certain number of times." on a method that splits its
text into literals and yields their combinations: nothing there repeats or counts times.
"Expand a string by replacing escape sequences with their corresponding characters." on
a brace-expansion function. Both false, both read off the name by a small model that
then invents the means. A clause of means is a claim about the body, and the body is
there to check it against: each of its content words (not a general word of English or
of programming: :data:`~remora.code.docstring.vocabulary.GENERAL_STEMS`) must be one of
the node's own words (:func:`~remora.code.docstring.vocabulary.own_stems`: its code,
names, strings and comments, its class's, its module's name), else the summary is
refused, and the model may try again without it.

On the kept exports' labels (benchmarks/review_exports, 40 projects; docs/competence.md,
"A clause of means the code never says") it refuses more of the false summaries than
of the merged ones, in share and in number.
"""

from __future__ import annotations

import re

from remora.code.docstring.facts import word_tokens
from remora.code.docstring.vocabulary import GENERAL_STEMS, own_stems, stem
from remora.code.parsing import SourceNode

__all__ = ["unshown_means"]

# "based on" joins the clause to what it names.
_SAYS_NOTHING = GENERAL_STEMS | {stem("based")}
# The clause runs to the end of its phrase: a comma, a full stop, a colon or semicolon.
_MEANS = re.compile(r"\b(?:by|using|via)\s+([^.,;:]+)", re.IGNORECASE)


def unshown_means(node: SourceNode, summary: str) -> str:
    """Why a clause of means in ``summary`` is refused ('' when it has none, or every
    content word of it is the node's own)."""
    clauses = _MEANS.findall(summary)
    if not clauses:
        return ""
    own = own_stems(node)
    for clause in clauses:
        for token in word_tokens(clause):
            if len(token) < 3 or not token.isalpha() or stem(token) in _SAYS_NOTHING:
                continue
            if not _said(stem(token), own):
                return (
                    f"it says how {node.ref.full_name} works ({clause.strip()!r}), but "
                    f"nothing in its code says {token!r}; say what it does, without a "
                    "means the code does not show"
                )
    return ""


def _said(root: str, own: frozenset[str]) -> bool:
    """Whether a stem is one of the node's own, or a longer form of one ("parsing" of
    ``parse``). Not an abbreviation's match (``matches_word``): there the module
    ``re`` would say "repeating" and "replacing"."""
    return root in own or any(len(known) >= 4 and root.startswith(known) for known in own)
