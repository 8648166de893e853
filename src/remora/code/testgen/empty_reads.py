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
"""

from __future__ import annotations

from typing import Any

from remora.code.testgen.empty_results import is_empty

__all__ = ["EMPTY_READ_REASON", "reads_empty_start"]

EMPTY_READ_REASON = (
    "a read of an instance built with nothing gives the empty value of its type "
    "(its empty start, not the node's behaviour)"
)


def _holds_nothing(value: Any) -> bool:
    """``None``, or an empty text or JSON collection (a set written ``{"__set__": []}``, a
    tuple ``{"__tuple__": []}``)."""
    if isinstance(value, dict) and set(value) in ({"__set__"}, {"__tuple__"}):
        return not next(iter(value.values()))
    return value is None or (isinstance(value, str | list | dict) and not value)


def reads_empty_start(row: dict[str, Any], owner_args: dict[str, Any] | None) -> bool:
    """Whether a method's probed call (``row``) read the empty start of an instance built
    from ``owner_args`` (None: with no argument): no argument of its own, nothing raised
    or changed, an empty value returned."""
    if row.get("args") or row.get("raised") or row.get("contents"):
        return False
    if not all(_holds_nothing(v) for v in (owner_args or {}).values()):
        return False
    if (row.get("state") or {}) != (row.get("state_before") or {}):
        return False
    return is_empty(row.get("returned") or {})
