"""A sample set kept, why others were not, and the candidates made into sound probe sets.

:func:`sound_candidates` turns the value search's candidates into sets to probe: every
string with a source in the project (:mod:`remora.code.values.sourced_strings`), the
defaults left out (a set of defaults alone carries nothing, nor one of falsy values
standing in for them), the project's own usage first,
each set once. Nor is a set kept that gives a ``None`` the code neither declares nor tells
apart (:func:`~remora.code.values.untold_nones.untold_none`: ``start_line=None`` stored
for a reader that counts lines), or that holds, where the project's usage did not give it,
the list or dict the value search tries for a kind (``lines=[1]``, ``{"a": 1, "b": 0}``):
a fixture is data a test suite reuses, and blind reviewers rejected mistletoe's
``FileWrapper(lines=[1], start_line=None)`` ("an integer as a line").
:func:`pinned_outcome` says whether a probed call's outcome is one a test
can write; :func:`outcome_key` groups outcomes coarsely enough that two sets with one
behaviour share one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.values import (
    CallTarget,
    Candidate,
    contains_function,
    falsy_stand_ins,
    is_instance_method,
    node_function,
    owner_arguments,
    project_strings,
    unsourced,
    without_defaults,
)
from remora.code.values.constructor import own_init
from remora.code.values.filled_instances import constructor_arguments, given_values
from remora.code.values.kind_samples import TYPICAL
from remora.code.values.untold_nones import Function, untold_none

__all__ = [
    "MAX_SETS",
    "SAMPLE_CALL_TIMEOUT_S",
    "KeptSet",
    "Selection",
    "outcome_key",
    "pinned_outcome",
    "sound_candidates",
]

MAX_SETS = 6
# A set whose call takes longer has no place in a test suite (issue 51: a 7-second delay).
SAMPLE_CALL_TIMEOUT_S = 2.0
# Usage the project shows first: its own calls, its docstrings' examples, the instances
# its code and docs build and fill (:mod:`remora.code.values.built_instances`).
_USAGE_FIRST = ("as_called", "doc", "as_built", "as_documented")


@dataclass
class KeptSet:
    """A set kept: its arguments (defaults left out), a method's owner arguments, and
    what the call did: ``returns`` (a literal value) or ``raises`` (an exception's name
    and module); a class's set carries ``observed``: each member's literal value."""

    name: str
    args: dict[str, Any]
    owner_args: dict[str, Any] | None = None
    returns: Any = None
    raises: tuple[str, str] | None = None
    observed: dict[str, Any] = field(default_factory=dict)


@dataclass
class Selection:
    """The kept sets, the members a class's test asserts, and why sets were left out."""

    kept: list[KeptSet]
    members: list[str] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)
    reason: str = ""

    def drop(self, why: str) -> None:
        self.dropped[why] = self.dropped.get(why, 0) + 1


def outcome_key(row: dict[str, Any]) -> tuple[str, ...]:
    """What kind of outcome a call had, coarse enough that two sets with one behaviour
    share it: the exception's type, or the returned type (a bool or None by value, a
    container or string by whether it is empty)."""
    raised = row.get("raised")
    if raised:
        return ("raises", str(raised["type"]))
    returned = row.get("returned") or {}
    kind = str(returned.get("type", ""))
    if kind in ("bool", "NoneType"):
        return ("returns", str(returned.get("repr")))
    if returned.get("literal") and kind in ("str", "list", "tuple", "dict", "set"):
        empty = returned.get("repr") in ("''", '""', "[]", "()", "{}", "set()")
        return ("returns", kind, "empty" if empty else "some")
    return ("returns", kind)


def pinned_outcome(row: dict[str, Any], module: str) -> tuple[bool, Any, tuple[str, str] | None]:
    """(whether a test can pin it, the literal returned, the exception raised)."""
    if not row.get("ok") or row.get("reason"):
        return False, None, None  # it did not bind, or raised TypeError on a misfit
    raised = row.get("raised")
    if raised:
        ours = raised["module"] in ("builtins", module)
        if raised.get("stated") and ours and not raised.get("environment"):
            return True, None, (str(raised["type"]), str(raised["module"]))
        return False, None, None  # the set caused it, the machine did, or time ran out
    returned = row.get("returned") or {}
    if not returned.get("literal") or returned.get("is_instance") or returned.get("capped"):
        return False, None, None  # a capped generator's items are not its whole value
    return True, python_ast.literal_eval(str(returned["repr"])), None


def _kind_stand_in(value: Any) -> bool:
    """Whether ``value`` is the list or dict the value search tries for a kind."""
    return value in (TYPICAL["list"], TYPICAL["dict"])


def _called_code(context: CodeContext, target: CallTarget) -> tuple[Function | None, ...]:
    """The definitions a set's values are given to: the call's (a class's: its
    ``__init__``), then the constructor of a method's instance; None where there is none."""
    text = context.node_file_text()
    if target["kind"] == "class":
        return own_init(text, str(target["qualname"])), None
    return node_function(context), own_init(text, str(target.get("owner") or ""))


def _untold_none(
    called: tuple[Function | None, ...], args: dict[str, Any], owner: dict[str, Any] | None
) -> bool:
    """Whether the set gives ``None`` to a parameter of the call or of the instance's
    constructor (``called``, as :func:`_called_code` gives them) that the code neither
    declares nor tells apart."""
    given = zip(called, (args, constructor_arguments(owner or {})), strict=True)
    return any(
        value is None and code is not None and untold_none(code, name)
        for code, values in given
        for name, value in values.items()
    )


def _usage_first(candidates: list[Candidate]) -> list[Candidate]:
    first = [c for c in candidates if c.why in _USAGE_FIRST]
    return first + [c for c in candidates if c.why not in _USAGE_FIRST]


def sound_candidates(
    context: CodeContext, target: CallTarget, candidates: list[Candidate], selection: Selection
) -> list[dict[str, Any]]:
    """The candidates as probe sets: sourced, not the defaults alone, each once."""
    strings = project_strings(context)
    var_keyword = {p["name"] for p in target["parameters"] if p["kind"] == "var_keyword"}
    sets: list[dict[str, Any]] = []
    seen: set[str] = set()
    # A method's set names the instance it is called on: the probe's, unless its own.
    instance = is_instance_method(target)
    derived_owner = owner_arguments(context, target) if instance else None
    called = _called_code(context, target)
    for candidate in _usage_first(candidates):
        args = without_defaults(candidate.args, target["parameters"])
        owner = candidate.owner_args if candidate.owner_args is not None else derived_owner
        if var_keyword & set(args):
            selection.drop("passes **kwargs as a parameter")
            continue
        if not args or falsy_stand_ins(args, target["parameters"]):
            selection.drop("the defaults alone")  # or in other falsy values: "" for None
            continue
        values = [*given_values(args), *given_values(owner or {})]
        if any(contains_function(v) for v in values):  # a test's function: no fixture's value
            selection.drop("a function the test defines")
            continue
        if any(unsourced(v, strings) is not None for v in values):
            selection.drop("a string the project never uses")
            continue
        if _untold_none(called, args, owner):
            selection.drop("a None the code never tells apart")
            continue
        if candidate.why not in _USAGE_FIRST and any(_kind_stand_in(v) for v in values):
            selection.drop("a kind's stand-in the project never uses")
            continue
        key = json.dumps([args, owner], sort_keys=True, default=repr)
        if key in seen:
            continue
        seen.add(key)
        row: dict[str, Any] = {"name": f"{candidate.why}:{len(sets)}", "args": args}
        if owner is not None:
            row["owner_args"] = without_defaults(owner, target.get("owner_parameters", []))
        sets.append(row)
    return sets
