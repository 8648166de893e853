"""Section entries that only say the summary again.

A description, Returns (Yields) or Raises entry whose words are the summary's words, in the
summary's order, tells the reader nothing the first line did not ("Return the width of
the column." over "Returns: The width of the column."; isbnlib's "Set the cache for
metadata lookup." over "Sets the cache for metadata lookup."); cut short, it also reads as a
sentence broken off ("... equal to the begin."). Such an entry is refused (its section
is then left out, the rest of the docstring kept). An entry that adds words of its own
("True if they overlap, False otherwise") stays. A parameter's entry is not held to
this: where the summary names what a parameter is ("Print a list of tuples"), its entry
saying so again ("List of tuples.") still tells which parameter that is. An entry that
breaks off on a word no sentence ends on ("..., excluding.") is refused by
:mod:`remora.code.docstring.prose`, as every piece is.
"""

from __future__ import annotations

from remora.code.docstring.facts import word_tokens
from remora.code.docstring.vocabulary import stem

__all__ = ["repeats_summary"]

# Words that carry no content of their own: articles, pronouns, the copula, the verb a
# summary opens with ("Return ...") and the words that join the others.
_FUNCTION_WORDS = frozenset(
    str.split(
        """a an the of to is are be been was it its this that these those their his her
    and or if as at by for from in into on with than then so such which who whose what
    when where whether any each all some one given current other another s
    return returns returned get gets give gives yield yields"""
    )
)
# At least this many content words in the entry: "The table." is left to other checks.
_MIN_WORDS = 2
# The share of the entry's content words found in the summary, in order ...
_OF_ENTRY = 0.8
# ... and of the summary's content words the entry says again.
_OF_SUMMARY = 0.6


def _content(text: str) -> list[str]:
    return [stem(w) for w in word_tokens(text) if w not in _FUNCTION_WORDS]


def _in_order(first: list[str], second: list[str]) -> int:
    """How many words the two lists share in the same order (longest common subsequence)."""
    row = [0] * (len(second) + 1)
    for word in first:
        diagonal = 0
        for j, other in enumerate(second, 1):
            diagonal, row[j] = row[j], diagonal + 1 if word == other else max(row[j], row[j - 1])
    return row[-1]


def repeats_summary(entry: str, summary: str) -> str:
    """Why ``entry`` (a section entry's text) only repeats ``summary`` ('' when it does not)."""
    said, heading = _content(entry), _content(summary)
    if len(said) < _MIN_WORDS or not heading:
        return ""
    shared = _in_order(said, heading)
    if shared < _OF_ENTRY * len(said) or shared < _OF_SUMMARY * len(heading):
        return ""
    return (
        "it only repeats the summary's words; say what the summary does not "
        "(a case, a limit, what else it can be), or leave it out"
    )
