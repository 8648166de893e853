"""The argument sets worth offering as sample data: sound, sourced, each reaching its own case.

One value search with the test agent (:func:`remora.code.values.host_candidates.host_candidates`:
the project's own calls and doctests, the constants the code compares against,
annotations and constructor rules), the project's own usage tried first. A set
is kept only when

- it binds to the real signature and its call finishes within two seconds
  (``SAMPLE_CALL_TIMEOUT_S``), returning a value a test can write, or raising an exception with the
  code's own ``raise`` (a branch of the code, not an error the set caused: a
  ``KeyError`` from a dict the set left short, a ``TypeError`` of a misfit);
- every string in it has a source in the project (:mod:`remora.code.values.sourced_strings`);
- it is not the defaults alone (arguments equal to their literal defaults are
  left out of the set; one left empty carries nothing);
- and it reaches a line, a branch or an outcome no other kept set reaches,
  measured with coverage.py (:mod:`remora.code.probes.coverage_probe`) and chosen by
  greedy set cover; a single set is not offered.

A callable without parameters has nothing to vary: no set. A class's sets are
its constructor's arguments, each kept for what its parameterless methods and
properties then do (its instance is what varies them).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.import_paths import root_paths
from remora.code.probes import (
    Span,
    context_units,
    node_span,
    probe_argument_sets,
    raise_is_behaviour,
    run_program,
)
from remora.code.values import (
    Candidate,
    greedy_cover,
    host_candidates,
    literal_default,
    owner_arguments,
    owner_candidates,
    project_class_lookup,
    project_strings,
    public_caller,
    unsourced,
)

__all__ = [
    "KeptSet",
    "Selection",
    "instance_members",
    "outcome_key",
    "pinned_outcome",
    "select_sets",
]

MAX_SETS = 6
# A set whose call takes longer has no place in a test suite (issue 51: a 7-second delay).
SAMPLE_CALL_TIMEOUT_S = 2.0
MAX_MEMBERS = 4
# Usage the project shows first: its own calls, its docstrings' examples.
_USAGE_FIRST = ("as_called", "doc")


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
    if not returned.get("literal") or returned.get("is_instance"):
        return False, None, None
    return True, python_ast.literal_eval(str(returned["repr"])), None


def _defaults(parameters: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for p in parameters:
        known, value = literal_default(p.get("default"))
        if known:
            found[str(p["name"])] = value
    return found


def _trimmed(args: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if k not in defaults or defaults[k] != v}


def _usage_first(candidates: list[Candidate]) -> list[Candidate]:
    first = [c for c in candidates if c.why in _USAGE_FIRST]
    return first + [c for c in candidates if c.why not in _USAGE_FIRST]


def _plain(target: dict[str, Any]) -> str:
    """Why sets of this signature cannot be passed as ``**arguments``, or ''."""
    kinds = {p["kind"] for p in target["parameters"]}
    if "positional_only" in kinds or "var_positional" in kinds:
        return "it takes positional-only or *args parameters"
    return ""


def _sound_candidates(
    context: CodeContext, target: dict[str, Any], candidates: list[Candidate], selection: Selection
) -> list[dict[str, Any]]:
    """The candidates as probe sets: sourced, not the defaults alone, each once."""
    strings = project_strings(context)
    defaults = _defaults(target["parameters"])
    owner_defaults = _defaults(target.get("owner_parameters", []))
    var_keyword = {p["name"] for p in target["parameters"] if p["kind"] == "var_keyword"}
    sets: list[dict[str, Any]] = []
    seen: set[str] = set()
    # A method's set names the instance it is called on: the probe's, unless its own.
    instance = target["kind"] == "method" and target["method_kind"] == "instance"
    derived_owner = owner_arguments(context, target) if instance else None
    for candidate in _usage_first(candidates):
        args = _trimmed(candidate.args, defaults)
        owner = candidate.owner_args if candidate.owner_args is not None else derived_owner
        if var_keyword & set(args):
            selection.drop("passes **kwargs as a parameter")
            continue
        if not args:
            selection.drop("the defaults alone")
            continue
        values = [*args.values(), *((owner or {}).values())]
        if any(unsourced(v, strings) is not None for v in values):
            selection.drop("a string the project never uses")
            continue
        key = json.dumps([args, owner], sort_keys=True, default=repr)
        if key in seen:
            continue
        seen.add(key)
        row: dict[str, Any] = {"name": f"{candidate.why}:{len(sets)}", "args": args}
        if owner is not None:
            row["owner_args"] = _trimmed(owner, owner_defaults)
        sets.append(row)
    return sets


async def select_sets(
    context: CodeContext, target: dict[str, Any], extra: Sequence[Candidate] = ()
) -> Selection:
    """The sets to offer for the run's node (a function, a method or a class); ``extra``
    (the model's) are tried after the project's own and the derived ones."""
    selection = Selection([])
    caller = public_caller(context.node_file_text(), str(target["qualname"]))
    if target["reason"]:
        selection.reason = target["reason"]
    elif caller is not None:
        selection.reason = f"a private helper: {caller}, the public code that calls it, is sampled"
    elif not [p for p in target["parameters"] if not p["kind"].startswith("var_")]:
        selection.reason = "it takes no arguments: nothing to vary"
    elif _plain(target):
        selection.reason = _plain(target)
    if selection.reason:
        return selection
    span = node_span(context)
    candidates = [*host_candidates(context, target), *extra]
    if target["kind"] == "class":
        return _enough(await _select_instances(context, target, candidates, span, selection))
    sets = _sound_candidates(context, target, candidates, selection)
    if not sets:
        selection.reason = "no argument set has a source in the project"
        return selection
    rows, measured = await probe_argument_sets(
        context, sets, coverage=span.spec(), timeout_s=SAMPLE_CALL_TIMEOUT_S
    )
    gains: dict[str, frozenset[Any]] = {}
    usable: dict[str, KeptSet] = {}
    for row in rows:
        pinned, returns, raises = pinned_outcome(row, target["module"])
        if not pinned or not raise_is_behaviour(context, target, row):
            selection.drop("a call that fails or returns nothing a test can write")
            continue
        units = context_units(measured, row["name"]) | {("outcome", *outcome_key(row))}
        gains[row["name"]] = frozenset(units)
        owner = row.get("owner_args")
        usable[row["name"]] = KeptSet(row["name"], row["args"], owner, returns, raises)
    chosen = greedy_cover(gains, (), MAX_SETS)
    selection.kept = [usable[name] for name in chosen]
    if not selection.kept:
        selection.reason = "no set could be called and pinned"
    return _enough(selection)


def _enough(selection: Selection) -> Selection:
    """No sample data of one set: a fixture with a single case varies nothing, and a
    test says the same more plainly (blind reviewers rejected every such fixture)."""
    if len(selection.kept) == 1:
        selection.kept = []
        selection.reason = "one set alone: a fixture of one case varies nothing (a test says it)"
    return selection


def instance_members(module_text: str, qualname: str) -> list[ast.FunctionDef]:
    """The class's public methods and properties that take no argument, in order."""
    tree = python_ast.parse(module_text)
    scope: list[ast.stmt] = tree.body
    found: ast.ClassDef | None = None
    for part in qualname.split("."):
        found = next((s for s in scope if isinstance(s, ast.ClassDef) and s.name == part), None)
        if found is None:
            return []
        scope = found.body
    members: list[ast.FunctionDef] = []
    for statement in scope:
        if not isinstance(statement, ast.FunctionDef) or statement.name.startswith("_"):
            continue
        decorators = [ast.unparse(d) for d in statement.decorator_list]
        if any(d not in ("property",) for d in decorators):
            continue  # static, class, cached or other wrapped methods
        arguments = statement.args
        if len(arguments.args) == 1 and not (
            arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.posonlyargs
        ):
            members.append(statement)
    return members[:MAX_MEMBERS]


async def _member_rows(
    context: CodeContext,
    target: dict[str, Any],
    member: str,
    sets: list[dict[str, Any]],
    span: Span,
) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    """Each instance set's outcome of one member, by set name, and the coverage."""
    request = {
        "module": target["module"],
        "qualname": f"{target['qualname']}.{member}",
        "kind": "method",
        "owner": target["qualname"],
        "owner_args": {},
        "paths": root_paths(context),
        "sets": [{"name": s["name"], "args": {}, "owner_args": s["args"]} for s in sets],
        "call": True,
        "observe": [],
        "timeout_s": SAMPLE_CALL_TIMEOUT_S,
    }
    run = await run_program(context, "call_probe", request, coverage=span.spec())
    if run.report is None or "error" in run.report:
        return {}, None
    rows = {}
    for entry, outcome in zip(sets, run.report["outcomes"], strict=True):
        ok = bool(outcome.get("binds")) and bool(outcome.get("called"))
        rows[entry["name"]] = {**outcome, "ok": ok, "reason": "" if ok else "not called"}
    return rows, run.coverage


async def _select_instances(
    context: CodeContext,
    target: dict[str, Any],
    candidates: list[Candidate],
    span: Span,
    selection: Selection,
) -> Selection:
    text = context.node_file_text()
    members = instance_members(text, target["qualname"])
    if not members:
        selection.reason = "no method or property without arguments reads its instance"
        return selection
    base = next((c.args for c in candidates), {})
    lookup = project_class_lookup(context)
    as_owner = {**target, "kind": "method", "method_kind": "instance"}
    as_owner |= {"owner": target["qualname"], "owner_parameters": target["parameters"]}
    for member in members:  # the instance in each state a member branches on
        candidates += owner_candidates(as_owner, member, text, {}, base, lookup)
    instances = [Candidate(c.owner_args or c.args, c.why) for c in candidates]
    sets = _sound_candidates(context, {**target, "kind": "class"}, instances, selection)
    if not sets:
        selection.reason = "no constructor set has a source in the project"
        return selection
    outcomes: dict[str, dict[str, dict[str, Any]]] = {}
    gains: dict[str, set[Any]] = {s["name"]: set() for s in sets}
    for member in members:
        rows, measured = await _member_rows(context, target, member.name, sets, span)
        outcomes[member.name] = rows
        for name in gains:
            gains[name] |= context_units(measured, name)
    # Members asserted, and the instances they are asserted on: each member, most often
    # literal first, joins while some instance gives every member joined a literal value.
    literal = {
        m.name: {
            s["name"]
            for s in sets
            if (found := pinned_outcome(outcomes[m.name].get(s["name"], {}), target["module"]))[0]
            and found[2] is None
        }
        for m in members
    }
    usable = {s["name"] for s in sets}
    assertable: list[str] = []
    for name in sorted(literal, key=lambda m: -len(literal[m])):
        if usable & literal[name]:
            usable &= literal[name]
            assertable.append(name)
    if not assertable:
        selection.reason = "none of its methods gives a value a test can write"
        return selection
    gains = {name: units for name, units in gains.items() if name in usable}
    for name in gains:
        for asserted in assertable:
            row = outcomes[asserted][name]
            gains[name].add(("outcome", asserted, *outcome_key(row)))
    chosen = greedy_cover({k: frozenset(v) for k, v in gains.items()}, (), MAX_SETS)
    by_name = {s["name"]: s for s in sets}
    for name in chosen:
        observed = {a: pinned_outcome(outcomes[a][name], target["module"])[1] for a in assertable}
        selection.kept.append(KeptSet(name, by_name[name]["args"], observed=observed))
    selection.members = [m.name for m in members if m.name in assertable]
    selection.properties = [m.name for m in members if m.decorator_list]
    return selection
