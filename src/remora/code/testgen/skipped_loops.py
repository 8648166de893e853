"""No test that returns from a node without running one of its loops (issue 56).

A node whose body is built around a loop (``for production in self.Productions:``,
``for row in data:``) does its work there; a call that returns without running the loop's
body pins the path around it: an empty table's ``"\\n"``, the first sets of a grammar
without productions, the rule functions of a module that has none. Blind reviewers
rejected such tests ("the degenerate output for an empty table", "the propagation
through nonterminals, the point of the method, is never exercised"). So where the calls
kept for a node's tests that return (not raise), taken together, never ran the first
statement of one of the loops among the node's own statements, those calls give no test.
A call that raises stays: an error raised before the loop is a contract of its own
(``token()`` before ``input()``). Of the test changes of eight projects' blind reviews
whose node has such a loop, none of the ten that left one unrun was merged as is (five
rejected), against two of ten that ran every one. Read from the probe's coverage and
:mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

__all__ = ["without_skipped_loops"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _unrun_loop(function: Function, ran: set[int]) -> int | None:
    """The line of the first loop among the function's own statements whose body did not
    run, or None."""
    loops = (s for s in function.body if isinstance(s, ast.For | ast.AsyncFor | ast.While))
    return next((loop.lineno for loop in loops if loop.body[0].lineno not in ran), None)


def without_skipped_loops(
    function: Function | None,
    chosen: list[str],
    rows: Mapping[str, Mapping[str, Any]],
    gains: Mapping[str, frozenset[Any]],
) -> tuple[list[str], list[str]]:
    """(the chosen calls kept, why the others are dropped): the returning calls go where
    together they never ran one of the node's own loops."""
    if function is None:
        return chosen, []
    returning = [name for name in chosen if not rows[name].get("raised")]
    ran = {line for name in returning for kind, line, _ in gains.get(name, ()) if kind == "line"}
    line = _unrun_loop(function, ran) if returning else None
    if line is None:
        return chosen, []
    why = f"returns without running the loop at line {line}, the node's work"
    return [n for n in chosen if n not in returning], [f"{n}: {why}" for n in returning]
