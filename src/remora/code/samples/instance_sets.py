"""A class's sample sets: its constructor's arguments, each kept for what its parameterless
methods and properties then return (the instance is what varies them).

The instances come from the value search (:func:`remora.code.values.owner_candidates`, in
each state a member branches on); each member is called on each instance in the command
sandbox, under coverage, and the instances that reach the most, with a value a test can
write for every member asserted, are kept.
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
    owner_candidates,
    project_class_lookup,
)

__all__ = ["MAX_MEMBERS", "instance_labels", "instance_members", "select_instances"]

MAX_MEMBERS = 4


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
    base = next((c.args for c in candidates), {})
    lookup = project_class_lookup(context)
    as_owner: CallTarget = {
        **target,
        "kind": "method",
        "method_kind": "instance",
        "owner": target["qualname"],
        "owner_parameters": target["parameters"],
    }
    for member in members:  # the instance in each state a member branches on
        candidates += owner_candidates(as_owner, member, text, {}, base, lookup)
    instances = [Candidate(c.owner_args or c.args, c.why) for c in candidates]
    sets = sound_candidates(context, {**target, "kind": "class"}, instances, selection)
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
    observed = {
        name: {a: pinned_outcome(outcomes[a][name], target["module"])[1] for a in assertable}
        for name in chosen
    }
    labels = instance_labels(observed)
    for name in chosen:
        label = f"{labels[name]}:{name.rsplit(':', 1)[-1]}" if labels else name
        selection.kept.append(KeptSet(label, by_name[name]["args"], observed=observed[name]))
    selection.members = [m.name for m in members if m.name in assertable]
    selection.properties = [m.name for m in members if m.decorator_list]
    return selection
