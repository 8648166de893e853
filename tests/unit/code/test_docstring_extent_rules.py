"""Summaries refused for what they say of which items and how many (a position the code
never picks, one item where the body repeats by a count), for naming a thing on code that
returns nothing, for a place a removal takes from that the code never names, and for words
of no subject; each beside a summary of the same code that passes."""

from __future__ import annotations

import ast

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, SourceNode, locate, parse

ORCHARD = """\
class Orchard:
    def __init__(self, trees):
        self.trees = list(trees)
        self.baskets = {}

    def without(self, *others):
        skipped = set().union(*others)
        return Orchard(t for t in self.trees if t not in skipped)

    def youngest(self):
        return self.trees[-1]

    def oldest_ripe(self):
        for tree in self.trees:
            if tree.ripe:
                return tree
        return None

    def plant(self, count):
        for _ in range(count):
            self.trees.append(Sapling())

    def rotate(self, tree):
        self.trees.remove(tree)
        self.trees.append(tree)

    def fallow(self):
        for tree in self.trees:
            tree.bare = True
        self.baskets.clear()

    def prune(self, *branches, **tools):
        for tree in self.trees:
            tree.cut(branches, **tools)

    def crate(self, *apples):
        return [a for a in apples if a.ripe]

    def newest_first(self):
        return self.trees[::-1]

    def ranked(self, reverse=False):
        return sorted(self.trees, key=lambda tree: tree.age, reverse=reverse)

    def discard(self, tree):
        at = self.trees.index(tree)
        del self.trees[at]

    def picked(self, at):
        return self.trees.pop(at)


class SortedOrchard(Orchard):
    def copy(self):
        return type(self)(self.trees)
"""


def node(name: str) -> SourceNode:
    short = name.rsplit(".", 1)[-1]
    line = next(
        d.lineno
        for d in ast.walk(ast.parse(ORCHARD))
        if isinstance(d, ast.FunctionDef | ast.ClassDef) and d.name == short
    )
    return locate(parse(ORCHARD, "farm/orchard.py"), NodeRef("method", name, line))


def refusal(name: str, summary: str) -> str:
    _, refused = check_pieces(node(name), Pieces(summary=summary), ())
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # Every tree is filtered alike: no first one is kept apart.
        ("Orchard.without", "Return an orchard of the trees of all others except the first.", True),
        ("Orchard.without", "Return an orchard of the trees found in none of the others.", False),
        ("Orchard.youngest", "Return the last tree planted.", False),  # an index
        ("Orchard.oldest_ripe", "Return the first ripe tree.", False),  # a loop left early
        ("Orchard.without", "Return the trees not in the first argument.", False),  # signature
    ],
)
def test_a_position_needs_code_that_picks_one(name: str, summary: str, refused: bool) -> None:
    reason = refusal(name, summary)
    assert bool(reason) == refused, reason
    assert ("but the code picks no position" in reason) == refused, reason


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # sortedcontainers' ``discard`` ("the last occurrence") finds the first, by bisect_left.
        ("Orchard.discard", "Remove the last occurrence of the tree.", True),
        ("Orchard.discard", "Remove the first occurrence of the tree.", False),
        ("Orchard.youngest", "Return the first tree planted.", True),  # [-1]
        ("Orchard.oldest_ripe", "Return the last ripe tree.", True),  # a loop left early
        # pop(at) takes either end: both stand.
        ("Orchard.picked", "Remove and return the last tree.", False),
        ("Orchard.picked", "Remove and return the first tree.", False),
    ],
)
def test_a_position_is_the_end_the_code_picks(name: str, summary: str, refused: bool) -> None:
    reason = refusal(name, summary)
    assert ("but the code picks the" in reason) == refused, reason


@pytest.mark.parametrize(
    ("summary", "refused"),
    [
        ("Plant a sapling at the end of the orchard.", True),
        ("Plant a sapling at the end of the rows.", False),  # a plural, however loose
        ("Plant count saplings.", False),  # the parameter named
        ("Plant new saplings in the orchard.", False),  # a plural
        ("Plant the given number of young trees.", False),  # a count
    ],
)
def test_a_repeat_count_is_not_spoken_of_as_one(summary: str, refused: bool) -> None:
    reason = refusal("Orchard.plant", summary)
    assert reason.startswith("it speaks of one item, but the body repeats count times") == refused
    assert bool(reason) == refused, reason


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # bidict's ``values`` ("the keys … in reverse order"): no code of its own orders.
        ("Orchard.crate", "Return the ripe apples in reverse order.", True),
        ("Orchard.crate", "Return the ripe apples sorted by weight.", True),
        ("Orchard.crate", "Invert the order of the ripe apples.", True),  # bidict's inverted
        ("Orchard.newest_first", "Invert the order of the trees.", False),
        ("Orchard.newest_first", "Return the trees in reverse order.", False),  # [::-1]
        ("Orchard.ranked", "Return the trees sorted by age.", False),  # sorted()
        ("Orchard.ranked", "Return the trees by age, reversed when asked.", False),  # reverse=
        # The class's name says it: "the sorted orchard" of a SortedOrchard.
        ("SortedOrchard.copy", "Return a copy of the sorted orchard sharing its trees.", False),
        ("Orchard.crate", "Return the sorted apples of the orchard.", True),
    ],
)
def test_an_order_needs_code_that_makes_it(name: str, summary: str, refused: bool) -> None:
    reason = refusal(name, summary)
    assert bool(reason) == refused, reason
    assert ("but the code neither sorts nor reverses" in reason) == refused, reason


def test_a_noun_phrase_on_code_that_returns_nothing_describes_other_code() -> None:
    reason = refusal("Orchard.rotate", "An orchard of trees kept in planting order.")
    assert reason.startswith("it names a thing ('An' …), but rotate returns nothing")
    assert refusal("Orchard.rotate", "FIFO queue of the trees.").startswith("it names a thing")
    # What a function returns may be named; a participle before a clause is no noun phrase.
    assert refusal("Orchard.crate", "A list of the ripe apples given.") == ""
    assert refusal("Orchard.rotate", "Moved to the back of the trees, the tree waits.") == ""
    assert refusal("Orchard.rotate", "Move the tree to the back of the trees.") == ""


def test_where_a_removal_takes_from_is_named_by_the_code() -> None:
    invented = "Empty the orchard by removing all trees from the walled garden."
    reason = refusal("Orchard.fallow", invented)
    assert reason.startswith("it says the code removes something from 'walled', 'garden'")
    assert refusal("Orchard.fallow", "Mark every tree bare and empty the baskets.") == ""
    # The class's own words, and general ones, may say where.
    assert refusal("Orchard.rotate", "Remove the tree from the orchard and append it.") == ""
    assert refusal("Orchard.rotate", "Remove the tree from the list and put it back.") == ""


def test_words_of_no_subject_and_the_variadic_parameters_add_nothing() -> None:
    vacuous = "Prune the state of the object with the given positional and keyword arguments."
    assert refusal("Orchard.prune", vacuous).startswith("it restates the name 'prune'")
    assert refusal("Orchard.prune", "Prune the branches of the tools.").startswith(
        "it restates the name 'prune'"
    )
    assert refusal("Orchard.prune", "Cut the given branches off every tree with the tools.") == ""
