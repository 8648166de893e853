"""A class's sample sets: its instances, each kept for what its readers then return.

The instances come from the value search the test agent uses: its constructor arguments
(:func:`remora.code.values.owner_candidates`, in each state a member branches on), and
instances with content, built and filled as the project's own code and doc examples do
(:func:`remora.code.values.built_instances.built_owners`) or filled through the class's
own public methods (:func:`remora.code.values.instance_search.filled_candidates`). Its
readers (public properties, and methods that take nothing and change nothing) are
called on each instance in the command sandbox, under coverage. Of the instances built
from constructor arguments alone, those that reach the most with a value a test can
write for every reader asserted are kept (a parametrized fixture of two or more); of the
filled ones, each that reaches a line, a branch or a reader's outcome no kept instance
reaches (a fixture of its own, :data:`MAX_FILLED` at most). A reader that gives None on
every instance asserts nothing: a procedure's answer.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.import_paths import root_paths
from remora.code.probes import Span, context_units, run_program
from remora.code.samples.kept_sets import (
    MAX_SETS,
    SAMPLE_CALL_TIMEOUT_S,
    KeptSet,
    Selection,
    outcome_key,
    pinned_outcome,
    sound_candidates,
)
from remora.code.values import (
    CallTarget,
    Candidate,
    greedy_cover,
    literal_default,
    owner_candidates,
    parameter_of,
    project_class_lookup,
)
from remora.code.values.built_instances import built_owners
from remora.code.values.filled_instances import constructor_arguments, is_filled
from remora.code.values.instance_search import filled_candidates
from remora.code.values.method_state import changed_attributes
from remora.code.values.own_contents import changes_own_items
from remora.code.values.unstable_sources import unstable_members

__all__ = [
    "MAX_FILLED",
    "MAX_MEMBERS",
    "MIN_INSTANCES",
    "instance_labels",
    "instance_members",
    "select_instances",
]

MAX_MEMBERS = 4
# Instances built from constructor arguments alone: fewer vary nothing a test would not say.
MIN_INSTANCES = 2
# Filled instances: each one is a fixture and a test of its own.
MAX_FILLED = 2
# A set's second call (:func:`_member_rows`), and what of the two outcomes must agree.
_AGAIN = "~again"
# A filled instance's twin: built with its constructor arguments, not filled.
_UNFILLED = "~unfilled"
_OUTCOME = ("returned", "raised")


def instance_members(module_text: str, qualname: str) -> list[ast.FunctionDef]:
    """The class's readers, in order: its public properties and methods that take no
    argument and change no public attribute of their instance (``clear()`` is no reader;
    ``draw()`` filling a private cache of widths is one), and whose value is not a clock's
    or a random source's."""
    tree = python_ast.parse(module_text)
    scope: list[ast.stmt] = tree.body
    found: ast.ClassDef | None = None
    for part in qualname.split("."):
        found = next((s for s in scope if isinstance(s, ast.ClassDef) and s.name == part), None)
        if found is None:
            return []
        scope = found.body
    methods = {s.name: s for s in scope if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
    members: list[ast.FunctionDef] = []
    unstable = unstable_members(methods)
    for statement in scope:
        if not isinstance(statement, ast.FunctionDef) or statement.name.startswith("_"):
            continue
        if changed_attributes(statement, methods) or changes_own_items(statement, methods):
            continue  # it changes its instance (clear, pop): no reader; a private cache may
        if statement.name in unstable:
            continue  # its value is a clock's (a fresh timer's "0 seconds"): nothing to pin
        decorators = [ast.unparse(d) for d in statement.decorator_list]
        if any(d not in ("property",) for d in decorators):
            continue  # static, class, cached or other wrapped methods
        arguments = statement.args
        if len(arguments.args) == 1 and not (
            arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.posonlyargs
        ):
            members.append(statement)
    return members[:MAX_MEMBERS]


def _slug(value: Any) -> str:
    text = str(value)
    sign = "minus_" if isinstance(value, int | float) and value < 0 else ""
    return sign + ("_".join(re.findall(r"[0-9A-Za-z]+", text)).lower() or "empty")


def instance_labels(observed: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each instance's id by the member value that tells it from the others: a flag's
    ``negative``/``not_negative``, else ``kind_square`` (a short string, then a number),
    the first member whose values all differ; {} when no member tells them all apart
    (the search's words stay)."""
    members = next(iter(observed.values()), {})
    rank = {bool: 0, str: 1, int: 2}
    shown = [m for m in members if type(members[m]) in rank and len(repr(members[m])) <= 24]
    for member in sorted(shown, key=lambda m: rank[type(members[m])]):
        values = [row.get(member) for row in observed.values()]
        if len({repr(v) for v in values}) < len(values) or len({type(v) for v in values}) > 1:
            continue
        if isinstance(values[0], bool):
            return {n: member if row[member] else f"not_{member}" for n, row in observed.items()}
        return {n: f"{member}_{_slug(row[member])}" for n, row in observed.items()}
    return {}


async def _member_rows(
    context: CodeContext,
    target: CallTarget,
    member: str,
    sets: list[dict[str, Any]],
    span: Span,
) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    """Each instance set's outcome of one member, by set name, and the coverage. Each set
    is called twice, on two instances built alike: an outcome that differs (a timestamp,
    an id) is no value a test can write."""
    again = [{**s, "name": f"{s['name']}{_AGAIN}"} for s in sets]
    request = {
        "module": target["module"],
        "qualname": f"{target['qualname']}.{member}",
        "kind": "method",
        "owner": target["qualname"],
        "owner_args": {},
        "paths": root_paths(context),
        "sets": [{"name": s["name"], "args": {}, "owner_args": s["args"]} for s in sets + again],
        "call": True,
        "observe": [],
        "timeout_s": SAMPLE_CALL_TIMEOUT_S,
    }
    run = await run_program(context, "call_probe", request, coverage=span.spec())
    if run.report is None or "error" in run.report:
        return {}, None
    outcomes = run.report["outcomes"]
    rows = {}
    first, second = outcomes[: len(sets)], outcomes[len(sets) :]
    for entry, outcome, repeated in zip(sets, first, second, strict=True):
        ok = bool(outcome.get("binds")) and bool(outcome.get("called"))
        same = [outcome.get(k) for k in _OUTCOME] == [repeated.get(k) for k in _OUTCOME]
        reason = "" if ok and same else "not called" if not ok else "differs from call to call"
        rows[entry["name"]] = {**outcome, "ok": ok and same, "reason": reason}
    return rows, run.coverage


def _instances(
    context: CodeContext,
    target: CallTarget,
    members: list[ast.FunctionDef],
    candidates: list[Candidate],
) -> list[Candidate]:
    """The instances to try, as constructor arguments (a filled one with its calls): the
    project's own filled ones first, then the search's, each once."""
    text = context.node_file_text()
    base = next((c.args for c in candidates), {})
    lookup = project_class_lookup(context)
    as_owner: CallTarget = {
        **target,
        "kind": "method",
        "method_kind": "instance",
        "owner": target["qualname"],
        "owner_parameters": target["parameters"],
    }
    parameters = [parameter_of(p) for p in target["parameters"]]
    built = built_owners(context, target["qualname"], parameters, lookup)
    filled = [Candidate({}, words, owner) for owner, words in built]
    for member in members:  # the instance in each state a member branches on, or filled
        candidates += owner_candidates(as_owner, member, text, {}, base, lookup)
        filled += filled_candidates(as_owner, member, text, {}, base, lookup)
    return [Candidate(c.owner_args or c.args, c.why) for c in [*filled, *candidates]]


async def select_instances(
    context: CodeContext,
    target: CallTarget,
    candidates: list[Candidate],
    span: Span,
    selection: Selection,
) -> Selection:
    text = context.node_file_text()
    members = instance_members(text, target["qualname"])
    if not members:
        selection.reason = "no method or property without arguments reads its instance"
        return selection
    instances = _instances(context, target, members, candidates)
    sets = sound_candidates(context, {**target, "kind": "class"}, instances, selection)
    if not sets:
        selection.reason = "no constructor set has a source in the project"
        return selection
    # Each filled instance beside its twin built alike but not filled: its test asserts
    # what the calls changed, not what any instance of the class gives.
    twins = [
        {"name": f"{s['name']}{_UNFILLED}", "args": constructor_arguments(s["args"])}
        for s in sets
        if is_filled(s["args"])
    ]
    outcomes: dict[str, dict[str, dict[str, Any]]] = {}
    units: dict[str, set[Any]] = {s["name"]: set() for s in sets}
    for member in members:
        rows, measured = await _member_rows(context, target, member.name, sets + twins, span)
        outcomes[member.name] = rows
        for name in units:
            units[name] |= context_units(measured, name)
    pinned = {
        m.name: {
            s["name"]: found[1]
            for s in sets + twins
            if (found := pinned_outcome(outcomes[m.name].get(s["name"], {}), target["module"]))[0]
            and found[2] is None
        }
        for m in members
    }
    # A reader that gives None on every instance is a procedure's answer: nothing to assert.
    pinned = {
        m: values for m, values in pinned.items() if any(v is not None for v in values.values())
    }
    plain = [s for s in sets if not is_filled(s["args"])]
    read_back = _read_back(target, plain, pinned)
    echoless = {m: values for m, values in pinned.items() if m not in read_back}
    covered = _plain_instances(target, plain, echoless, outcomes, units, selection)
    _filled_instances(sets, pinned, outcomes, units, covered, selection)
    if not selection.kept:
        selection.reason = "none of its methods gives a value a test can write"
    selection.properties = [m.name for m in members if m.decorator_list]
    return selection


def _read_back(
    target: CallTarget, sets: list[dict[str, Any]], pinned: dict[str, dict[str, Any]]
) -> set[str]:
    """The readers named as a constructor parameter that give, on every instance, the
    argument it was built with (or the parameter's default): ``version.major == 3`` for
    ``Version(major=3)`` reads back what the test wrote, it checks nothing."""
    defaults = {str(p["name"]): literal_default(p.get("default")) for p in target["parameters"]}
    found: set[str] = set()
    for member, values in pinned.items():
        if member not in defaults:
            continue
        known, default = defaults[member]
        given = [
            (s["args"].get(member, default), values[s["name"]])
            for s in sets
            if s["name"] in values and (member in s["args"] or known)
        ]
        if given and all(type(a) is type(b) and a == b for a, b in given):
            found.add(member)
    return found


def _plain_instances(
    target: CallTarget,
    sets: list[dict[str, Any]],
    pinned: dict[str, dict[str, Any]],
    outcomes: dict[str, dict[str, dict[str, Any]]],
    units: dict[str, set[Any]],
    selection: Selection,
) -> set[Any]:
    """The instances built from constructor arguments alone, kept into ``selection`` with
    the readers asserted on them; what they cover."""
    # Readers asserted, and the instances they are asserted on: each reader, most often
    # literal first, joins while MIN_INSTANCES instances give every reader joined a
    # literal value (a reader literal on one instance alone does not narrow the rest).
    usable = {s["name"] for s in sets}
    assertable: list[str] = []
    for name in sorted(pinned, key=lambda m: -len(set(pinned[m]) & usable)):
        if len(usable & set(pinned[name])) >= MIN_INSTANCES:
            usable &= set(pinned[name])
            assertable.append(name)
    if not assertable:
        return set()
    gains = {name: set(units[name]) for name in usable}
    for name in gains:
        for asserted in assertable:
            gains[name].add(("outcome", asserted, *outcome_key(outcomes[asserted][name])))
    chosen = greedy_cover({k: frozenset(v) for k, v in gains.items()}, (), MAX_SETS)
    by_name = {s["name"]: s for s in sets}
    ordered = [m for m in pinned if m in assertable]  # the class's order
    # A reader that gives one value on every instance kept varies nothing the fixture
    # varies: asserted only when no reader varies.
    ordered = [m for m in ordered if len({repr(pinned[m][n]) for n in chosen}) > 1] or ordered
    observed = {name: {a: pinned[a][name] for a in ordered} for name in chosen}
    labels = instance_labels(observed)
    for name in chosen:
        label = f"{labels[name]}:{name.rsplit(':', 1)[-1]}" if labels else name
        selection.kept.append(KeptSet(label, by_name[name]["args"], observed=observed[name]))
    selection.members = ordered
    if len(chosen) < MIN_INSTANCES:
        return set()  # not offered (sample_sets): a filled instance reaches past nothing
    return {unit for name in chosen for unit in gains[name]}


def _filled_instances(
    sets: list[dict[str, Any]],
    pinned: dict[str, dict[str, Any]],
    outcomes: dict[str, dict[str, dict[str, Any]]],
    units: dict[str, set[Any]],
    covered: set[Any],
    selection: Selection,
) -> None:
    """The filled instances, each with the readers whose literal value the calls that
    filled it changed (its unfilled twin gives another), that reach what no instance kept
    before them reaches, kept into ``selection``."""
    observed: dict[str, dict[str, Any]] = {}
    gains: dict[str, frozenset[Any]] = {}
    for entry in sets:
        name = entry["name"]
        if not is_filled(entry["args"]):
            continue
        twin = f"{name}{_UNFILLED}"
        observed[name] = {
            m: values[name]
            for m, values in pinned.items()
            if name in values and (twin not in values or values[twin] != values[name])
        }
        if observed[name]:
            read = {("outcome", m, *outcome_key(outcomes[m][name])) for m in observed[name]}
            gains[name] = frozenset(units[name] | read)
    by_name = {s["name"]: s for s in sets}
    for name in greedy_cover(gains, covered, MAX_FILLED):
        selection.kept.append(KeptSet(name, by_name[name]["args"], observed=observed[name]))
