"""What a test asserts of its instance after the call: what the call changed in it.

The probe reports the attributes a method may change (every one it or a method of its
class it calls assigns: :func:`~remora.code.values.method_state.observed_attributes`)
before and after the call. A method that renders, parses or dispatches may assign
dozens (pyfiglet's ``handleNewLine``: ten); asserting each after a call that changed two
writes lines that say only "and these stayed as the constructor left them", which hide
the two that say what the call did (pyfiglet's ``add_char_to_product`` test asserted
``blankMarkers == []`` and ``iterator == 0`` beside the widths it set). So where the
probe saw the state before the call, only the attributes that read otherwise after it
are asserted; where none does and the call returned None (a call that found nothing to
do), the first two, which its name says it left unchanged (:mod:`.outcome_words`). A call
that returned a value and changed nothing has that value to assert: its instance's
attributes, as the constructor left them, are not (bracex's ``expand`` test asserted
``expanding is False`` beside the expansion, a flag the call set and released). Read from
the probe's row; nothing runs here.
"""

from __future__ import annotations

from typing import Any

from remora.code.testgen.relative_counts import relative_counts
from remora.code.values import CallRender, contents_asserts, state_asserts

__all__ = ["changed_state", "readable", "reads_the_same", "returned_none", "state_lines"]

# Those a name says a call left as they were (outcome_words: ``leaves_a_and_b_unchanged``).
_UNCHANGED_NAMED = 2
_READ = ("repr", "literal", "length")


def reads_the_same(seen: dict[str, Any], before: dict[str, Any] | None) -> bool:
    """Whether an attribute reads after the call as it read before it (``before``: the
    probe's ``state_before`` of it)."""
    return bool(before) and all(seen.get(key) == (before or {}).get(key) for key in _READ)


def returned_none(row: dict[str, Any]) -> bool:
    """Whether the probed call returned None: the one whose unchanged state a test pins,
    and its name says so (``leaves_items_unchanged``)."""
    return (row.get("returned") or {}).get("repr") == "None"


def readable(seen: dict[str, Any]) -> bool:
    """Whether a test can assert an observed value: it has a literal form, or a length."""
    return bool(seen.get("literal")) or isinstance(seen.get("length"), int)


def changed_state(state: dict[str, Any], before: Any, returned_none: bool) -> dict[str, Any]:
    """The observed attributes (``state``) that read otherwise than ``before`` the call,
    or, where none does and the call returned None, the first two; all of them where
    nothing was seen before."""
    if not isinstance(before, dict):
        return state
    changed = {n: seen for n, seen in state.items() if not reads_the_same(seen, before.get(n))}
    if changed or not returned_none:
        return changed
    named = [n for n, seen in state.items() if readable(seen)]
    return {name: state[name] for name in named[:_UNCHANGED_NAMED]}


def state_lines(render: CallRender, row: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(the counts taken before the call, the asserts of what it changed in its instance:
    its attributes, counted ones by their change (:mod:`.relative_counts`), and its
    items)."""
    if not render.instance:
        return [], []
    before = row.get("state_before")
    state = changed_state(row.get("state") or {}, before, returned_none(row))
    counts, after, rest = relative_counts(render.instance, state, before or {})
    after += state_asserts(render.instance, rest, render)
    if contents := row.get("contents"):
        after += contents_asserts(render.instance, contents, render)
    return counts, after
