"""The outcomes a node's kept tests must show, each held to by a mutant that returns one value.

A predicate's tests show both of its outcomes (:mod:`remora.code.testgen.boolean_results`):
its body replaced by ``return True`` and by ``return False``. Another node's that returns
values show the call doing something (:mod:`remora.code.testgen.empty_results`): its body
replaced by ``return`` of what a call that did nothing gives (``[]``, ``0``, the ``acc``
it hands back). A kept set (with the file's other tests) that passes on one of them keeps
no test, and ``dropped`` says why
(:meth:`remora.code.testgen.mutation_check.MutationOutcome.one_outcome`). The test search
sends first the call of an outcome its chosen calls lack: the other boolean, a result
that is neither ``None`` nor empty (:func:`other_outcome_first`). A node whose tests saw
only booleans returned is held to both as a predicate is, whatever its code's shape.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from remora.code.testgen.boolean_results import returns_booleans
from remora.code.testgen.empty_results import (
    gives_nothing,
    nothing_results,
    returns_values,
    yields,
)

__all__ = [
    "EMPTY_KIND",
    "OUTCOME_KIND",
    "other_outcome_first",
    "outcome_results",
    "unshown_reason",
]

# The kind of a predicate's mutants whose whole body is ``return True`` or ``return False``.
OUTCOME_KIND = "outcome"
# The kind of another node's whose whole body returns an empty value (``return []``).
EMPTY_KIND = "empty"
_SOMETHING = "something"

Function = ast.FunctionDef | ast.AsyncFunctionDef


def outcome_results(function: Function, observed: Iterable[str] = ()) -> tuple[str, list[str]]:
    """The kind and the values (as source) of the node's whole-body ``return`` mutants:
    ``True`` and ``False`` for a predicate, or for a node whose every value its tests saw
    returned is a boolean (``scheme_is_valid(None, ...)`` is True: what its code returns
    is another function's answer), else what a call that did nothing gives (``observed``:
    the builtin type names of the values its tests saw returned)."""
    seen = list(observed)
    if returns_booleans(function) or (seen and set(seen) == {"bool"}):
        return OUTCOME_KIND, ["True", "False"]
    return EMPTY_KIND, nothing_results(function, seen)


def unshown_reason(kind: str, description: str) -> str:
    """Why a set of tests that all pass on the mutant (``description``) of ``kind`` pins
    too little."""
    if kind == OUTCOME_KIND:
        missing = "the node returns a boolean and no test shows the other outcome"
    else:
        missing = "no test shows the call doing something"
    return f"{missing}: all pass with {description}"


def _outcome(row: Mapping[str, Any], predicate: bool) -> str | None:
    """A probed call's outcome: ``"True"``/``"False"`` for a predicate's; for another
    node's, ``"something"`` unless it did nothing a test sees (returned ``None`` or an
    empty value); None for a raise."""
    if row.get("raised"):
        return None
    if predicate:
        shown = (row.get("returned") or {}).get("repr")
        return shown if shown in ("True", "False") else None
    return None if gives_nothing(row) else _SOMETHING


def _saw_only_booleans(rows: Mapping[str, Mapping[str, Any]], chosen: list[str]) -> bool:
    """Whether every chosen call that returned gave back a boolean (at least one did)."""
    shown = [
        (rows[name].get("returned") or {}).get("repr")
        for name in chosen
        if name in rows and not rows[name].get("raised")
    ]
    return bool(shown) and all(value in ("True", "False") for value in shown)


def other_outcome_first(
    function: Function | None,
    names: Iterable[str],
    rows: Mapping[str, Mapping[str, Any]],
    chosen: Iterable[str],
) -> list[str]:
    """``names`` (probed calls, in the search's order) with first, for a predicate, the
    first one of each boolean outcome none of ``chosen`` gave, and for another node that
    returns values, the first that did something (:func:`gives_nothing`) where none of
    ``chosen`` did: that call goes to the mutation check before the others the room
    leaves."""
    ordered = list(names)
    if function is None:
        return ordered
    chosen = list(chosen)
    predicate = returns_booleans(function) or _saw_only_booleans(rows, chosen)
    if not (predicate or returns_values(function) or yields(function)):
        return ordered
    have = {_outcome(rows[name], predicate) for name in chosen if name in rows}
    first: list[str] = []
    for name in ordered:
        outcome = _outcome(rows[name], predicate) if name in rows else None
        if outcome is not None and outcome not in have:
            have.add(outcome)
            first.append(name)
    return [*first, *(name for name in ordered if name not in first)]
