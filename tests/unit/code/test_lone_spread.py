"""A call giving a combining ``*args`` fewer than two items is no candidate (issue 56:
more-itertools' ``interleave("zz")``, ``unique_to_each("a")``, rejected by blind
reviewers as pinning nothing)."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.testgen.lone_spread import lone_spread
from remora.code.testgen.no_op_calls import shows_nothing

SOURCE = """\
from itertools import chain, zip_longest


def interleave(*iterables):
    return chain.from_iterable(zip(*iterables))


def unique_to_each(*iterables):
    pool = [list(it) for it in iterables]
    return [[x for x in p if sum(x in q for q in pool) == 1] for p in pool]


def nth_product(index, *args):
    pools = list(map(tuple, reversed(args)))
    return tuple(pool[index % len(pool)] for pool in pools)


def raise_(exception, *args):
    raise exception(*args)


def tagged(tag, *values):
    return [tag, *values]


class Shelf:
    def minus(self, *groups):
        gone = set().union(*map(set, groups))
        return [label for label in self.labels if label not in gone]


class Gap:
    gap_cost = 1

    def maximum(self, *sequences):
        return min(map(len, sequences))

    def minimum(self, *sequences):
        return -max(map(len, sequences)) * self.gap_cost


def only_one(*values):
    if len(values) != 1:
        raise TypeError("one value")
    return values[0] * 2
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(SOURCE)
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _row(args: dict[str, Any], raised: dict[str, str] | None = None) -> dict[str, Any]:
    return {"args": args, "returned": {"repr": "[]", "literal": True}, "raised": raised}


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("interleave", {"iterables": ["zz"]}),
        ("interleave", {}),
        ("unique_to_each", {"iterables": ["a"]}),
        ("nth_product", {"index": 0, "args": ["a"]}),
        # textdistance: a method returning their combination (Gotoh().maximum("a") == 1)
        ("maximum", {"sequences": ["a"]}),
        ("minimum", {"sequences": ["a"]}),
    ],
)
def test_a_combining_spread_given_fewer_than_two_items_shows_nothing(
    name: str, args: dict[str, Any]
) -> None:
    assert lone_spread(_row(args), _function(name))
    assert shows_nothing(_row(args), _function(name), None, True)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("interleave", {"iterables": ["ab", "cd"]}),  # two: interleaved
        ("unique_to_each", {"iterables": ["ab", "bc", "cd"]}),
        ("raise_", {"exception": "ValueError", "args": ["bad"]}),  # handed on whole
        ("tagged", {"tag": "t", "values": [1]}),  # put in a display, not combined
        ("only_one", {"values": [3]}),  # counted, not combined
        ("minus", {"groups": [["a"]]}),  # a method: combined with its instance
    ],
)
def test_two_items_or_a_spread_handed_on_stays(name: str, args: dict[str, Any]) -> None:
    assert not lone_spread(_row(args), _function(name))


def test_a_raise_is_an_outcome_of_its_own() -> None:
    row = _row({"iterables": ["a"]}, raised={"type": "TypeError"})
    assert not lone_spread(row, _function("interleave"))
