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
  measured with coverage.py (:mod:`remora.code.probes.coverage_probe`), or sits at a
  constant the code compares with or just outside it (``code <= 0x3FF``: 1023 and
  1024), chosen by greedy set cover; a single set is not offered.

A callable without parameters has nothing to vary: no set. A class's sets are
its constructor's arguments, each kept for what its parameterless methods and
properties then do (its instance is what varies them); two instances at least.

A function's or a method's sets are a table of its cases, offered only when asked
(``tables``: the operation's ``argument_tables`` option) and only of three rows or
more. The test agent searches the same values for the same node with the same
cover, so its tests reach the cases such a table would: beside them a table only
repeats them (blind reviewers rejected every function table offered beside the
test agent's tests, and every table of one or two rows, as heavier than the test).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.code.context import CodeContext
from remora.code.probes import (
    context_units,
    node_span,
    probe_argument_sets,
    raise_is_behaviour,
)
from remora.code.samples.instance_sets import MIN_INSTANCES, select_instances
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
    caller_frame_reason,
    greedy_cover,
    host_candidates,
    is_instance_method,
    public_caller,
)
from remora.code.values.filled_instances import is_filled

__all__ = ["MIN_INSTANCES", "MIN_TABLE_ROWS", "TABLES_OFF", "select_sets"]

# A function's table: fewer rows vary nothing a test would not say (a class's instances:
# MIN_INSTANCES).
MIN_TABLE_ROWS = 3
TABLES_OFF = (
    "its cases are the test operation's: its tests reach them from the same value search "
    "(operations.sample_data.options.argument_tables: true writes them as a table)"
)


def _plain(target: CallTarget) -> str:
    """Why sets of this signature cannot be passed as ``**arguments``, or ''. A set is a
    mapping of names (a fixture's ``Name(**sample["args"])``, a table's ``**args`` or
    ``Owner(**owner)`` column), which no positional-only parameter takes: a method's
    instance too is built from one."""
    kinds = {p["kind"] for p in target["parameters"]}
    if "positional_only" in kinds or "var_positional" in kinds:
        return "it takes positional-only or *args parameters"
    owner = target["owner_parameters"] if is_instance_method(target) else []
    if any(p["kind"] == "positional_only" for p in owner):
        return "its class's constructor takes positional-only parameters"
    return ""


async def select_sets(
    context: CodeContext,
    target: CallTarget,
    extra: Sequence[Candidate] = (),
    *,
    tables: bool = False,
) -> Selection:
    """The sets to offer for the run's node (a class; a function or a method only with
    ``tables``); ``extra`` (the model's) are tried after the project's own and the
    derived ones."""
    selection = Selection([])
    caller = public_caller(context.node_file_text(), str(target["qualname"]))
    if target["reason"]:
        selection.reason = target["reason"]
    elif target["kind"] != "class" and not tables:
        selection.reason = TABLES_OFF
    elif caller is not None:
        selection.reason = f"a private helper: {caller}, the public code that calls it, is sampled"
    elif frame := caller_frame_reason(context.node_file_text(), str(target["qualname"])):
        selection.reason = frame
    elif target["kind"] != "class" and not [
        p for p in target["parameters"] if not p["kind"].startswith("var_")
    ]:  # a class's instance varies by the calls that fill it too
        selection.reason = "it takes no arguments: nothing to vary"
    elif _plain(target):
        selection.reason = _plain(target)
    if selection.reason:
        return selection
    span = node_span(context)
    # A table row builds its instance from constructor arguments alone, never filled first.
    found = [c for c in host_candidates(context, target) if not is_filled(c.owner_args)]
    candidates = [*found, *extra]
    if target["kind"] == "class":
        instances = await select_instances(context, target, candidates, span, selection)
        return _enough_instances(instances)
    sets = sound_candidates(context, target, candidates, selection)
    if not sets:
        selection.reason = "no argument set has a source in the project"
        return selection
    rows, measured = await probe_argument_sets(
        context, sets, coverage=span.spec(), timeout_s=SAMPLE_CALL_TIMEOUT_S
    )
    edges = {c.why for c in candidates if c.edge}
    gains: dict[str, frozenset[Any]] = {}
    usable: dict[str, KeptSet] = {}
    for row in rows:
        pinned, returns, raises = pinned_outcome(row, target["module"])
        if not pinned or not raise_is_behaviour(context, target, row):
            selection.drop("a call that fails or returns nothing a test can write")
            continue
        units = context_units(measured, row["name"]) | {("outcome", *outcome_key(row))}
        why = str(row["name"]).rsplit(":", 1)[0]
        units |= {("boundary", why)} if why in edges else set()  # 0x3FF and 0x400 both
        gains[row["name"]] = frozenset(units)
        owner = row.get("owner_args")
        usable[row["name"]] = KeptSet(row["name"], row["args"], owner, returns, raises)
    chosen = greedy_cover(gains, (), MAX_SETS)
    selection.kept = _in_order([usable[name] for name in chosen], target)
    if not selection.kept:
        selection.reason = "no set could be called and pinned"
    return _enough(selection, MIN_TABLE_ROWS)


def _in_order(kept: list[KeptSet], target: CallTarget) -> list[KeptSet]:
    """The sets by their arguments' values (9, 10, 19, 20: a table a reader scans), as the
    cover chose them when those do not compare (a number beside a string or a missing one)."""
    names = [p["name"] for p in target["parameters"]]
    try:
        return sorted(kept, key=lambda k: [k.args.get(n) for n in names])
    except TypeError:
        return kept


def _enough_instances(selection: Selection) -> Selection:
    """A class's instances built from constructor arguments alone only when there are
    :data:`MIN_INSTANCES` (one says what its test would say alone); a filled instance is
    its own fixture, the state the project builds (:func:`_enough`'s reason otherwise)."""
    filled = [k for k in selection.kept if is_filled(k.args)]
    plain = _enough(Selection([k for k in selection.kept if not is_filled(k.args)]), MIN_INSTANCES)
    selection.kept = [*plain.kept, *filled]
    if not selection.kept and plain.reason:
        selection.reason = plain.reason
    return selection


def _enough(selection: Selection, least: int) -> Selection:
    """No fixture of fewer than ``least`` sets: the sets that return and those that raise
    become fixtures of their own (sample_fixtures), and one with fewer cases varies too
    little; a test says the same more plainly (blind reviewers rejected every such
    fixture)."""
    returning = [k for k in selection.kept if k.raises is None]
    raising = [k for k in selection.kept if k.raises is not None]
    kept = [k for group in (returning, raising) if len(group) >= least for k in group]
    if selection.kept and not kept:
        selection.reason = (
            f"fewer than {least} sets of one kind of outcome: a fixture of so few cases "
            "varies nothing a test would not say"
        )
    selection.kept = kept
    return selection
