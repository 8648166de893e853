"""A read of an instance built with nothing pins its empty start, not the node (issue 56).

``Cache(capacity=None).length == 0``, ``Registry().names == []``: a property, or a method
called with no argument, on an instance whose constructor was given nothing (no
argument, or only ``None`` and empty values), that gives the empty value of its type
(``0``, ``""``, an empty collection) and changes nothing. Any reader of an empty store
gives that: the test would pass for most bodies a maintainer could write, and says
nothing of what the node is for. Blind reviewers rejected such tests as trivial ("an
empty cache has length 0"). ``None`` and the booleans are no empty value here:
``read()`` giving ``None``, not ``{}``, before anything was written is a choice the code
makes, and a reviewer named it worth a test.

A procedure given nothing on such an instance that changes nothing of it (no attribute,
no item, nothing called or raised; it returns ``None`` or the instance) pins no more:
``Decoder().reset()`` leaving the buffer ``[]`` that the constructor's own ``reset()``
left (:func:`changes_nothing_of_empty_start`); a reviewer of latexcodec rejected it as
proving nothing, one of texttable a fresh table's ``reset()`` returning itself.
"""

from __future__ import annotations

from typing import Any

from remora.code.testgen.empty_results import is_empty

__all__ = [
    "EMPTY_READ_REASON",
    "UNCHANGED_START_REASON",
    "changes_nothing_of_empty_start",
    "reads_empty_start",
]

EMPTY_READ_REASON = (
    "a read of an instance built with nothing gives the empty value of its type "
    "(its empty start, not the node's behaviour)"
)

UNCHANGED_START_REASON = (
    "a call given nothing on an instance built with nothing changed nothing and gave "
    "nothing back: the test would restate its set-up"
)


def _holds_nothing(value: Any) -> bool:
    """``None``, or an empty text or JSON collection (a set written ``{"__set__": []}``, a
    tuple ``{"__tuple__": []}``)."""
    if isinstance(value, dict) and set(value) in ({"__set__"}, {"__tuple__"}):
        return not next(iter(value.values()))
    return value is None or (isinstance(value, str | list | dict) and not value)


def _built_with_nothing(row: dict[str, Any], owner_args: dict[str, Any] | None) -> bool:
    """No argument of the call's own, nothing raised or changed in its items, and an
    instance built from nothing but ``None`` and empty values."""
    if row.get("args") or row.get("raised") or row.get("contents"):
        return False
    return all(_holds_nothing(v) for v in (owner_args or {}).values())


def changes_nothing_of_empty_start(row: dict[str, Any], owner_args: dict[str, Any] | None) -> bool:
    """Whether a procedure's probed call (``row``) on an instance built from ``owner_args``
    was given nothing, changed no attribute read before and after it, and returned
    ``None`` or its instance."""
    if not _built_with_nothing(row, owner_args):
        return False
    if "state" not in row or row.get("state") != row.get("state_before"):
        return False
    returned = row.get("returned") or {}
    return bool(returned.get("is_instance")) or returned.get("repr") == "None"


def reads_empty_start(row: dict[str, Any], owner_args: dict[str, Any] | None) -> bool:
    """Whether a method's probed call (``row``) read the empty start of an instance built
    from ``owner_args`` (None: with no argument): no argument of its own, nothing raised
    or changed, an empty value returned."""
    if not _built_with_nothing(row, owner_args):
        return False
    if (row.get("state") or {}) != (row.get("state_before") or {}):
        return False
    return is_empty(row.get("returned") or {})
