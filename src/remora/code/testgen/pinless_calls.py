"""Why a probed call's test would pin no behaviour, though the call ran and returned.

Restatements of the set-up: a reader of an instance built empty, or a procedure that
changed nothing of it (:mod:`remora.code.testgen.empty_reads`), a procedure whose only
effect is its arguments stored as passed, a one-line reader handing back a constructor
argument as passed, and a returned object holding only the call's arguments and the
node's defaults (:mod:`remora.code.testgen.stored_arguments`). The search drops such a
call with the reason (:mod:`remora.code.testgen.test_search`).
"""

from __future__ import annotations

from typing import Any

from remora.code.testgen.empty_reads import (
    EMPTY_READ_REASON,
    UNCHANGED_START_REASON,
    changes_nothing_of_empty_start,
    reads_empty_start,
)
from remora.code.testgen.stored_arguments import (
    HANDED_BACK_REASON,
    READ_BACK_REASON,
    STORED_REASON,
    Function,
    reads_back_argument,
    returns_arguments_only,
    stores_arguments_only,
)

__all__ = ["pinless_reason"]


def pinless_reason(
    row: dict[str, Any],
    function: Function | None,
    owner_args: dict[str, Any] | None,
    procedure: bool,
    on_instance: bool,
    constants: dict[str, Any] | None = None,
) -> str | None:
    """Why the test of the call ``row`` (on an instance built from ``owner_args`` where
    ``on_instance``) would restate its set-up rather than pin what ``function`` does; None
    where it would not. ``constants``: what the instance's constructor sets attributes
    to (:func:`~remora.code.testgen.stored_arguments.constructor_constants`)."""
    if on_instance and reads_empty_start(row, owner_args):
        return EMPTY_READ_REASON
    if on_instance and procedure and changes_nothing_of_empty_start(row, owner_args):
        return UNCHANGED_START_REASON
    if function is None:
        return None
    if procedure and stores_arguments_only(row, function):
        return STORED_REASON
    if on_instance and reads_back_argument(row, function, owner_args, constants):
        return READ_BACK_REASON
    if not procedure and returns_arguments_only(row, function):
        return HANDED_BACK_REASON
    return None
