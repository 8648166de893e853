"""The fixed style examples' nouns name a node's subject only where the node is called so.

A module with no documented definition is shown the fixed examples as style
(:data:`~remora.code.docstring.draft.FIXED_EXAMPLES`), a ``Stack`` among them, and a small
model copies their subject: sqlitedict's ``SqliteDict.items``, ``values``, ``clear``,
``close`` and ``update`` were each drafted about "the stack" (seven docstrings, all sent
back). The borrowed-noun check (:func:`~remora.code.docstring.vocabulary.foreign_words`)
let them through because the class holds a ``self._outer_stack``: any word of the class
makes a noun its own. An example's noun is held to less: it may name the subject only
where the node's name, its parameters, its enclosing classes (their names and bases) or
its module's name say it
(:func:`~remora.code.docstring.vocabulary.subject_stems`); an attribute that happens to
share the word does not.
"""

from __future__ import annotations

from collections.abc import Sequence

from remora.code.docstring.draft import FIXED_EXAMPLES
from remora.code.docstring.facts import word_tokens
from remora.code.docstring.vocabulary import class_nouns, stem, subject_stems
from remora.code.parsing import SourceNode

__all__ = ["lent_style_noun"]


def lent_style_noun(node: SourceNode, summary: str, others: Sequence[str]) -> str:
    """Why ``summary`` takes a noun from the fixed style examples shown (``others``) that
    nothing of the node's subject names ('' when it takes none)."""
    shown = [text for text in others if text in FIXED_EXAMPLES]
    nouns = frozenset().union(*(class_nouns(text) for text in shown))
    if not nouns:
        return ""
    lent = [t for t in word_tokens(summary) if stem(t) in nouns]
    if not lent or {stem(t) for t in lent} <= subject_stems(node):
        return ""
    return (
        f"it calls the subject {lent[0]!r}, the style example's noun, which nothing of "
        f"{node.ref.full_name.split('.')[-1]} names; say what this code does with its own names"
    )
