"""A checked argument set as :func:`remora.code.probes.calls.check_argument_sets` reports it."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = ["CheckedSet", "checked_set"]


class CheckedSet(TypedDict):
    """A set checked: its ``args`` by name (None when they could not be read), whether it is
    ``ok`` and why not (``reason``); a method's ``owner_args`` when the set named them; what
    the call ``returned`` or ``raised`` as the call probe reports it."""

    name: str
    args: dict[str, Any] | None
    ok: bool
    reason: str
    owner_args: NotRequired[dict[str, Any]]
    returned: NotRequired[dict[str, Any]]
    raised: NotRequired[dict[str, Any]]


def checked_set(row: dict[str, Any]) -> CheckedSet:
    """A probed row as a check reports it (the probe's ``state`` is for the test agent)."""
    found: CheckedSet = {
        "name": row["name"],
        "args": row["args"],
        "ok": row["ok"],
        "reason": row["reason"],
    }
    if "owner_args" in row:
        found["owner_args"] = row["owner_args"]
    if "returned" in row:
        found["returned"] = row["returned"]
    if "raised" in row:
        found["raised"] = row["raised"]
    return found
