"""One round of the test search: candidates run under coverage, the rows worth a test kept.

A row is kept when its call pinned some behaviour (:func:`~remora.code.probes.pins_behaviour`)
that a test can assert, its set-up did not fail on its own, it made no files and pins more
than what any call would (:mod:`.pinless_calls`, :mod:`.no_op_calls`); each kept row comes
with the line and branch units it covered, for :mod:`.test_search`'s greedy choice.
"""

from __future__ import annotations

from typing import Any

from remora.code.context import CodeContext
from remora.code.probes import (
    Coverage,
    Span,
    context_units,
    node_call_target,
    pins_behaviour,
    probe_argument_sets,
    setup_reason,
    unusable_reason,
)
from remora.code.testgen.made_files import made_files_reason
from remora.code.testgen.no_op_calls import hands_on_an_input, shows_nothing
from remora.code.testgen.observed_asserts import is_procedure, pins_something
from remora.code.testgen.pinless_calls import pinless_reason
from remora.code.testgen.shadowed_builtins import same_as_builtin
from remora.code.testgen.stored_arguments import constructor_constants
from remora.code.values import (
    Candidate,
    node_function,
    observed_attributes,
    owner_arguments,
)

__all__ = ["run_round"]


async def run_round(
    context: CodeContext,
    candidates: list[Candidate],
    span: Span,
    prefix: str,
    setups: dict[str, int] | None = None,
    unusable: list[str] | None = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, frozenset[Any]], Coverage | None]:
    """The candidates' rows worth a test by name, the units each covered, the round's
    coverage; ``setups`` counts, by its words, the calls dropped for a failure of their own
    set-up (:func:`~remora.code.probes.own_raises.setup_reason`), for files they left
    (:mod:`.made_files`) or for a test that would pin no behaviour (:mod:`.pinless_calls`);
    ``unusable`` gets the names of those an instance built unusable ended."""
    sets: list[dict[str, Any]] = [
        {"name": f"{prefix}{i}", "args": c.args}
        | ({"owner_args": c.owner_args} if c.owner_args is not None else {})
        for i, c in enumerate(candidates)
    ]
    text = context.node_file_text()  # a helper's changes are the method's (method_state)
    observe = observed_attributes(node_call_target(context), node_function(context), text)
    rows, measured = await probe_argument_sets(context, sets, coverage=span.spec(), observe=observe)
    if measured is None:  # the rows say why (a module the node's imports lack)
        return {str(row["name"]): row for row in rows}, {}, None
    procedure = is_procedure(context)
    target = node_call_target(context)
    function = node_function(context)
    # ``escape("sample s") == "sample s"``: an identity would pass it too (no_op_calls).
    hands_on = function is None or hands_on_an_input(function)
    owner = owner_arguments(context, target) if target["kind"] == "method" else None
    built_with = {s["name"]: s.get("owner_args", owner) for s in sets}
    on_instance = owner is not None and target["method_kind"] in ("instance", "property")
    constants = constructor_constants(text, str(target["owner"])) if on_instance else {}
    usable: dict[str, dict[str, Any]] = {}
    for row in rows:
        if not (pins_behaviour(row) and pins_something(row, procedure)):
            continue
        why = made_files_reason(context, row) or setup_reason(context, target, row)
        setup = why or pinless_reason(
            row, function, built_with[row["name"]], procedure, on_instance, constants
        )
        if setup is not None:
            if setups is not None:
                setups[setup] = setups.get(setup, 0) + 1
            if unusable is not None and unusable_reason(context, target, row) is not None:
                unusable.append(row["name"])
            continue
        if not shows_nothing(row, function, owner, hands_on) and not same_as_builtin(target, row):
            usable[row["name"]] = row  # not same_as_builtin: `len("abc") == 3` is its value
    gains = {name: frozenset(context_units(measured, name)) for name in usable}
    return usable, gains, Coverage.of(measured)
