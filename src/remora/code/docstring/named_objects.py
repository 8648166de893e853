"""An object a summary names that the code never does: "the request object".

"Get the host name from the request object." on uritools' ``SplitResult.gethost``: no
request anywhere in the module (its blind reviewer: "refers to a request object that
doesn't exist"). A summary's "the X object" (or instance) names a thing of the code: X is
a word the node may be described with (:func:`~.vocabulary.own_stems`: its module's and
class's identifiers, strings and comments), a name of its module written as one word
("the SegmentList object"), a general word, or says which one by its place ("the
current object", "the given instance").
"""

from __future__ import annotations

import ast
import re

from remora.code.docstring.vocabulary import GENERAL_STEMS, own_stems, stem
from remora.code.parsing import SourceNode, ast_tree

__all__ = ["unnamed_object"]

_NAMED = re.compile(r"\bthe ([a-z]+) (object|instance)s?\b", re.IGNORECASE)
# Words that say which object by its place, not what it is.
_WHICH = frozenset(
    stem(w)
    for w in (
        "current", "given", "same", "new", "original", "resulting", "returned", "underlying",
        "whole", "other", "calling", "wrapped", "passed", "specified", "provided", "existing",
        "corresponding", "actual", "default", "empty", "single", "this", "that",
    )
)  # fmt: skip


def _spelled_names(text: str) -> frozenset[str]:
    """The module's names as one word each (``SegmentList``: "segmentlist"), as a summary
    may write a class's name."""
    tree = ast_tree(text)
    if tree is None:
        return frozenset()
    names = {getattr(n, "name", None) or getattr(n, "id", None) for n in ast.walk(tree)}
    return frozenset(n.lower().replace("_", "") for n in names if isinstance(n, str))


def unnamed_object(node: SourceNode, summary: str) -> str:
    """Why ``summary`` speaks of an object the code never names ('' where it does not)."""
    own: frozenset[str] | None = None
    for found in _NAMED.finditer(summary):
        word = found[1].lower()
        if stem(word) in _WHICH | GENERAL_STEMS:
            continue
        own = own_stems(node) | _spelled_names(node.file.text) if own is None else own
        if stem(word) not in own and word not in own:
            return (
                f"it speaks of the {word} {found[2].lower()}, which the code never names; "
                f"say what {node.ref.full_name.split('.')[-1]} works on by the code's own names"
            )
    return ""
