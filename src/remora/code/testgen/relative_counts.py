"""A count the test did not make is asserted as the change the call made to it.

asteval's ``Interpreter()`` starts with 48 node handlers, one for each name of a table in
another module; ``set_nodehandler("")`` adds one. ``assert len(interpreter.node_handlers)
== 49`` pins the table's size as much as the method: blind reviewers edited all three such
tests ("the magic counts 48/49 are brittle", "breaks as soon as a node type is added")
and asked for a comparison "against the length before the call". So where an attribute
the call changed held more items before it than a reader takes in at a glance
(:data:`MANY`) and is asserted by its length alone, the test counts it first and asserts
the difference (or that there is none)::

    handlers_before = len(interpreter.node_handlers)
    interpreter.set_nodehandler("")
    assert len(interpreter.node_handlers) == handlers_before + 1

Read from the probe's row (``state``, ``state_before``: ``{repr, literal, length?}``);
nothing runs here.
"""

from __future__ import annotations

from typing import Any

from remora.code.values import snake_name
from remora.code.values.free_names import free_name
from remora.code.values.value_asserts import counted

__all__ = ["MANY", "relative_counts"]

# More items than this before the call: a count the test's set-up does not show.
MANY = 10


# What an observed value is asserted by before its length (value_asserts.value_assert).
_SHOWN = ("literal", "constructed", "with_functions", "items", "each_items", "each_repr", "parts")


def _only_counted(seen: dict[str, Any] | None) -> bool:
    """Whether an observed value would be asserted by its length alone."""
    return seen is not None and counted(seen) and not any(seen.get(key) for key in _SHOWN)


def relative_counts(
    instance: str, state: dict[str, Any], before: dict[str, Any]
) -> tuple[list[str], list[str], dict[str, Any]]:
    """(the lines that count before the call, the asserts of the change after it, the
    rest of ``state`` for the usual asserts) for the attributes of ``instance`` the call
    changed whose length before it passed :data:`MANY`."""
    counts: list[str] = []
    asserts: list[str] = []
    rest: dict[str, Any] = {}
    taken = {instance}  # the test's names: its instance, the counts already taken
    for attribute, seen in state.items():
        earlier = before.get(attribute)
        if earlier is None or not (_only_counted(seen) and _only_counted(earlier)):
            rest[attribute] = seen
            continue
        old, new = int(earlier["length"]), int(seen["length"])
        if old <= MANY:
            rest[attribute] = seen
            continue
        # ``node_handlers``: ``handlers_before``; a reader's (``read()``) without its call
        words = snake_name(attribute.removesuffix("()")).split("_")[-1]
        name = free_name(f"{words}_before", taken)
        taken.add(name)
        where = f"{instance}.{attribute}"
        change = f" + {new - old}" if new > old else f" - {old - new}" if new < old else ""
        counts.append(f"{name} = len({where})")
        asserts.append(f"assert len({where}) == {name}{change}")
    return counts, asserts, rest
