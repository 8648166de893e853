"""Comparisons in a summary: which one a comparison dunder computes, and whether a
predicate's summary says its comparison the right way round (``a <= b`` is not "above").

Read from the code with ``ast`` (the one comparison a predicate returns, its two sides'
names) and from the summary's words (claims.py tokenises it)."""

from __future__ import annotations

import ast

from remora.code.docstring.behaviour import BodyFacts, body_facts
from remora.code.docstring.facts import name_words
from remora.code.docstring.vocabulary import stem
from remora.code.parsing import SourceNode

__all__ = ["COMPARISONS", "comparison_summary", "inverted", "wrong_comparison"]

# What each comparison dunder computes (the data model's "rich comparison" methods).
COMPARISONS = {
    "__lt__": "less than",
    "__le__": "less than or equal to",
    "__gt__": "greater than",
    "__ge__": "greater than or equal to",
    "__eq__": "equal to",
    "__ne__": "not equal to",
}
_NEGATIONS = frozenset({"not", "no", "never", "isn", "aren", "doesn", "don", "nothing"})
_LESS = frozenset({"below", "less", "fewer", "under", "lower", "smaller", "beneath"})
_GREATER = frozenset({"above", "greater", "more", "over", "exceed", "exceeds", "higher", "larger"})
_SAME = frozenset({"equal", "equals", "same", "match", "matches", "identical"})
_DIFFER = frozenset({"differ", "differs", "different", "unequal", "distinct"})
_OPS: dict[type[ast.cmpop], str] = {
    ast.Lt: "less",
    ast.LtE: "less",
    ast.Gt: "greater",
    ast.GtE: "greater",
    ast.Eq: "same",
    ast.Is: "same",
    ast.In: "same",
    ast.NotEq: "differ",
    ast.IsNot: "differ",
    ast.NotIn: "differ",
}
_OPPOSITE = {"less": "greater", "greater": "less", "same": "differ", "differ": "same"}


def _stated_comparison(tokens: list[str]) -> str:
    """The comparison dunder a summary's words state ('' when none)."""
    words = set(tokens)
    negated = bool(words & _NEGATIONS)
    if "equal" in words and words & _LESS:
        return "__le__"
    if "equal" in words and words & _GREATER:
        return "__ge__"
    if words & _LESS or "before" in words:
        return "__lt__"
    if words & _GREATER or "after" in words:
        return "__gt__"
    if words & _DIFFER or (words & _SAME and negated):
        return "__ne__"
    if words & _SAME:
        return "__eq__"
    return ""


def comparison_summary(node: SourceNode) -> str:
    """The summary of a comparison dunder from the table ('' for any other node)."""
    name = node.ref.full_name.rsplit(".", 1)[-1]
    if node.ref.node_type != "method" or name not in COMPARISONS:
        return ""
    parameters = body_facts(node).parameters
    if len(parameters) != 2:
        return ""
    return f"Return whether this instance is {COMPARISONS[name]} ``{parameters[1]}``."


def wrong_comparison(name: str, tokens: list[str]) -> str:
    stated = _stated_comparison(tokens)
    if stated == name:
        return ""
    wanted = COMPARISONS[name]
    if not stated:
        return f"it does not say which comparison {name} is; it is '{wanted}'"
    return f"it says '{COMPARISONS[stated]}', but {name} is '{wanted}'"


def _sides(comparison: ast.Compare) -> tuple[set[str], set[str]]:
    def words(expression: ast.expr) -> set[str]:
        found = set()
        for item in ast.walk(expression):
            if isinstance(item, ast.Name) and item.id != "self":
                found |= name_words(item.id)
            elif isinstance(item, ast.Attribute):
                found |= name_words(item.attr)
        return {stem(w) for w in found}

    left, right = words(comparison.left), words(comparison.comparators[0])
    return left - right, right - left


def inverted(facts: BodyFacts, tokens: list[str]) -> str:
    """Why the summary says the opposite of the one comparison the predicate returns."""
    if len(facts.returned) != 1:
        return ""
    returned = facts.returned[0]
    negated = isinstance(returned, ast.UnaryOp) and isinstance(returned.op, ast.Not)
    compared = returned.operand if isinstance(returned, ast.UnaryOp) and negated else returned
    if not isinstance(compared, ast.Compare) or len(compared.ops) != 1:
        return ""
    sense = _OPS.get(type(compared.ops[0]), "")
    if negated and sense:
        sense = _OPPOSITE[sense]
    words = set(tokens)
    stemmed = [stem(t) for t in tokens]
    if sense in ("less", "greater"):
        said = [s for s, group in (("less", _LESS), ("greater", _GREATER)) if words & group]
        if len(said) != 1:
            return ""
        stated = said[0]
        left, right = _sides(compared)
        at_left = [i for i, s in enumerate(stemmed) if s in left]
        at_right = [i for i, s in enumerate(stemmed) if s in right]
        if not at_left or not at_right:
            return ""
        if at_right[0] < at_left[0]:
            stated = _OPPOSITE[stated]  # "the level exceeds the quantity"
    elif sense in ("same", "differ"):
        if words & _SAME:
            stated = "same"
        elif words & _DIFFER:
            stated = "differ"
        else:
            return ""
    else:
        return ""
    if len(words & _NEGATIONS) % 2:
        stated = _OPPOSITE[stated]
    if stated == sense:
        return ""
    code = ast.unparse(returned)
    return f"it says the opposite of what it returns ({code}); say it the right way round"
