"""A test's name states the condition its arguments were chosen for only where it decided.

The value search chooses a call for a condition (a boundary, ``len(value) == 16``; the
truthy side of ``if not value``), and the test is named for it:
``test_visa_when_value_of_length_16_returns_validation_error``. But ``visa`` checks
``card_number(value) and len(value) == 16 and ...``, and sixteen ``a``'s fail the digits
before the length is looked at: the test passes for another reason than its name says
(validators 0.35.0, blind reviewers rejected 17 such names of 32 tests). Where another
call the search made, chosen for another condition, ran the very same lines and arcs of
the node and ended the same way (the same exception class; a returned value of the same
class, its literal too where it has one; the same state left in its instance), the
condition changed nothing the test can see: the name says what the exit branch says
instead (:mod:`.taken_branch`), or only the outcome. Read from the probe's rows and
coverage; nothing runs here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from remora.code.values import Candidate

__all__ = ["PLAIN_REASON", "deciding_reason"]

# A reason that names no condition: the test's name takes its exit branch's words.
PLAIN_REASON = "typical_arguments"


def _ending(row: dict[str, Any]) -> tuple[str, ...] | None:
    """How the call ended, as a test sees it: the raised class, or the returned value's
    class (and literal), with what the call left in its instance and the test's functions
    (None: it did not end in a way a test pins)."""
    raised, returned = row.get("raised"), row.get("returned")
    left = json.dumps(
        [row.get(key) for key in ("state", "contents", "functions")], sort_keys=True, default=str
    )
    if raised:
        return ("raised", str(raised.get("type")), left)
    if isinstance(returned, dict):
        literal = str(returned.get("repr")) if returned.get("literal") else ""
        return ("returned", str(returned.get("type")), literal, left)
    return None


def deciding_reason(
    name: str,
    candidates: Mapping[str, Candidate],
    rows: Mapping[str, dict[str, Any]],
    units: Mapping[str, frozenset[Any]],
) -> str:
    """The reason call ``name`` was made for (its candidate's ``why``), or
    :data:`PLAIN_REASON` where a call made for another reason on the same instance ran the
    same ``units`` and ended the same way."""
    why = candidates[name].why
    ending = _ending(rows[name])
    if ending is None or why == PLAIN_REASON or name not in units:
        return why
    owner = json.dumps(rows[name].get("owner_args"), sort_keys=True, default=str)
    for other, row in rows.items():
        made_for = candidates[other].why if other in candidates else why
        if other == name or made_for == why or other not in units:
            continue
        # Only a call on the same instance: one built otherwise is its own condition.
        same_owner = json.dumps(row.get("owner_args"), sort_keys=True, default=str) == owner
        if same_owner and units[other] == units[name] and _ending(row) == ending:
            return PLAIN_REASON
    return why
