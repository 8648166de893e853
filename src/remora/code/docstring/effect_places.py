"""Where a summary says an effect lands or a removal takes from, held to the code's words.

"Write the record to the database" on code that names no database, "Remove the key from
the sorted index" on code with no index: the place is a claim about what the code
touches, and a made-up one is false whatever noun it is. The first word after
to/into/onto/in that follows an effect verb (:func:`unfounded_target`), and the phrase
after "from" that follows a removing verb (:func:`unfounded_source`), must be the node's
own words (:func:`~remora.code.docstring.vocabulary.own_stems`) or general ones.
"""

from __future__ import annotations

from remora.code.docstring.vocabulary import GENERAL_STEMS, own_stems, stem
from remora.code.parsing import SourceNode

__all__ = ["claimed_verbs", "unfounded_source", "unfounded_target"]

_ARTICLES = frozenset({"the", "this", "that", "its", "their", "each", "all", "every", "some"})


def claimed_verbs(tokens: list[str]) -> list[str]:
    """The summary's verbs that claim something: its first word and those after and/then."""
    after = [tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t in ("and", "then")]
    return tokens[:1] + after


_EFFECT_STEMS = frozenset({"print", "writ", "sav", "dump", "register", "stor", "send", "add"})
_TO = frozenset({"to", "into", "onto", "in"})


def unfounded_target(node: SourceNode, tokens: list[str]) -> str:
    """Where an effect lands ("write … to the database") must be named by the code: the
    first word after to/into/onto/in that follows an effect verb, held to the node's own
    words (a made-up destination is a false claim, whatever noun it is)."""
    verbs = claimed_verbs(tokens)
    if not any(stem(v) in _EFFECT_STEMS for v in verbs):
        return ""
    start = next(i for i, t in enumerate(tokens) if t in verbs and stem(t) in _EFFECT_STEMS)
    after = [i for i in range(start + 1, len(tokens)) if tokens[i] in _TO]
    if not after:
        return ""
    words = tokens[after[0] + 1 :]
    target = next((t for t in words if t.isalpha() and len(t) >= 3 and t not in _ARTICLES), "")
    if target.endswith(("ing", "ly")):
        return ""  # "to the beginning of", "in place": where in, not a destination
    if not target or stem(target) in own_stems(node) | GENERAL_STEMS:
        return ""
    return f"it says the code puts something in {target!r}, which it never names; say where"


# Words that end a noun phrase: "from the queue that ...", "from the cache and ...".
_PHRASE_ENDS = frozenset(
    str.split(
        "that which who whose with and or but if when where while by in of to for at on as so"
    )
)
_REMOVING_STEMS = frozenset(
    stem(w) for w in ("remove", "delete", "drop", "discard", "evict", "erase", "purge", "pop")
)


def _compound_own(word: str, own: frozenset[str]) -> bool:
    """``word`` is one of the node's own words, by stem or as a part of a compound name
    ("bowl" of a class ``Fishbowl``)."""
    root = stem(word)
    return root in own or (len(root) >= 4 and any(root in o for o in own))


def unfounded_source(node: SourceNode, tokens: list[str]) -> str:
    """Why the words of what a removal takes from ("remove … from the sorted index") do not
    hold ('' when the code names them): where it removes from is a claim about the code,
    as where it writes to is (:func:`unfounded_target`). The phrase after "from" is read up
    to the word that ends it (that, with, and, ...); general words ("the set", "the list")
    pass."""
    at = next((i for i, t in enumerate(tokens) if stem(t) in _REMOVING_STEMS), -1)
    if at < 0 or "from" not in tokens[at:]:
        return ""
    phrase: list[str] = []
    for token in tokens[tokens.index("from", at) + 1 :]:
        if token in _PHRASE_ENDS:
            break
        if token not in _ARTICLES:
            phrase.append(token)
    own = own_stems(node)
    source = [
        t
        for t in phrase
        if t.isalpha()
        and len(t) >= 3
        and stem(t) not in GENERAL_STEMS
        and not _compound_own(t, own)
    ]
    if not source:
        return ""
    listed = ", ".join(repr(w) for w in source[:3])
    return (
        f"it says the code removes something from {listed}, which it never names; "
        "say what it removes and from where"
    )
