"""A summary about no subject the code names: "the current item", "based on a condition".

"Apply the operation to the current item." on an operation's ``apply(self, obj)``, where
nothing is "current"; "Group items in a list based on a condition." where the code names
no condition; "Convert a list of items into XML using the provided parameters.", where
all the parameters at once are none in particular; "Check if the item was removed." on a
diff line's ``is_removed``, where the code calls nothing an item or a collection. Blind
reviewers rejected or edited each kind ("vague", "filler", "says nothing", "wrong about
the object"). The summary is read as words; the code's
names come from its parameters and its own words (:mod:`.vocabulary`).
"""

from __future__ import annotations

import ast
import re

from remora.code.docstring.facts import word_tokens
from remora.code.docstring.restating import parameter_words
from remora.code.docstring.vocabulary import GENERAL_STEMS, matches_word, own_stems, stem
from remora.code.parsing import SourceNode, ast_tree

__all__ = ["vague_subject"]

# "the current item": a subject the code does not name (what is current?); a reader cannot
# tell what the sentence is about ("the current object" is the instance, as English says).
_VAGUE_SUBJECT = re.compile(r"\bthe current (item|element|value|entry|one)s?\b", re.IGNORECASE)
_CURRENT = re.compile(r"\bthe current (\w+)", re.IGNORECASE)
# "the collection", "the item", "all items": a container's words for what the code never
# calls one (unidiff's ``Line.is_removed`` "Check if the item was removed.", ``PatchSet.added``
# "... from all items in the collection."; boolean.py's ``Expression.symbols`` "from the
# collection": edits and rejects, "wrong about the object").
_CONTAINER_WORDS = re.compile(
    r"\b(?:the|this|each|every|all|all the) "
    r"(collection|container|items?|elements?|entries|entry)\b",
    re.IGNORECASE,
)
# ``SUBMODULE_FILE_MODE``: a constant's name, which a reader must look up (unidiff's
# "Return True if the file mode is SUBMODULE_FILE_MODE.", "repeats a constant's name
# instead of saying it means a git submodule entry"; and "Return `self.line_type ==
# LINE_TYPE_ADDED` if the line is added.", rejected: the code quoted back).
_CONSTANT_NAME = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b")
# "based on X", X up to the end of its phrase.
_BASED_ON = re.compile(r"\bbased on ([^,.;:]+)", re.IGNORECASE)
# "using the provided parameters": all of them at once, so none in particular (blind
# reviewers: "filler", "vacuous", "vague 'given parameters'": an edit or a reject each).
_ALL_PARAMETERS = re.compile(
    r"\b(?:using|with|from|by|according to|based on) the (?:provided|given|specified|passed|"
    r"supplied) (?:parameters|arguments|args|options|settings|inputs)\b",
    re.IGNORECASE,
)


def _unfounded_basis(node: SourceNode, summary: str) -> str:
    """Why ``summary``'s "based on ..." names nothing of the code ('' when it does): what
    a result is "based on" ("Group the items in the list based on a condition.") must be
    something the code names (a parameter, an attribute, a word of its own): a
    basis of general words, or of words the code never uses, names nothing (sqlparse's
    grouping functions, "based on a case-sensitive comparison", "based on a condition")."""
    found = _BASED_ON.search(summary)
    if found is None:
        return ""
    given = [w for words in parameter_words(node) for w in words]
    if any(matches_word(k, t) for t in word_tokens(found[1]) for k in given):
        return ""  # a parameter, even by a general word ("based on the key function")
    own = own_stems(node)
    if any(stem(t) in own - GENERAL_STEMS for t in word_tokens(found[1])):
        return ""
    return (
        f"it says the result is based on {found[1].strip()!r}, which the code never names; "
        "say what it reads to decide"
    )


def vague_subject(node: SourceNode, summary: str) -> str:
    """Why ``summary`` is about no subject the code names ('' when it is): a basis the code
    never names (:func:`_unfounded_basis`); "Apply the operation to the current item." on an
    operation's ``apply(self, obj)``, where nothing is "current" (blind reviewers: six
    rejects and an edit, no accept); "Return True if the version matches the current
    version." on ``match(self, version)``, where the version is the argument, not something
    the instance holds."""
    if basis := _unfounded_basis(node, summary):
        return basis
    if every := _ALL_PARAMETERS.search(summary):
        return (
            f"it speaks of {every[0].lower()!r}, which names none of them; say what it does "
            "with which argument, or leave that out"
        )
    if constant := _named_constant(node, summary):
        return (
            f"it names the constant {constant}, which a reader must look up; say what it stands for"
        )
    own = own_stems(node)
    for container in _CONTAINER_WORDS.finditer(summary):
        if stem(container[1].lower()) not in own:
            return (
                f"it speaks of {container[0].lower()!r}, which the code never names; say "
                "what it acts on by the code's own words"
            )
    found = _VAGUE_SUBJECT.search(summary)
    if found is None:  # "the current version" where ``version`` is an argument, not state
        given = {stem(w) for words in parameter_words(node) for w in words}
        found = next((m for m in _CURRENT.finditer(summary) if stem(m[1].lower()) in given), None)
    if found is None or stem("current") in own:
        return ""
    return (
        f"it speaks of {found[0].lower()!r}, which the code never names; say which "
        "argument or attribute it acts on"
    )


def _named_constant(node: SourceNode, summary: str) -> str:
    """The first upper-case name in ``summary`` that the node's module reads as a name
    (a constant it binds or imports; '' when none: an environment variable's name in a
    string is no constant of the code)."""
    names = _CONSTANT_NAME.findall(summary)
    tree = ast_tree(node.file.text) if names else None
    if tree is None:
        return ""
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return next((name for name in names if name in read), "")
