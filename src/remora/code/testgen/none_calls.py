"""A call given ``None`` where the node never tells ``None`` apart.

``fake_isbn(None, author=None, publisher=None, sid=None) == "None663243286"``: each ``None``
went through ``"%s" %`` formatting as the text "None", and a blind reviewer rejected the
test: it "locks in a value for input that never happens". A call of two or more arguments,
each ``None``, is no candidate unless the node compares one of those parameters with
``None`` (``is None``, ``== None``) or tests its truth (``if not title``, ``title or ""``),
where ``None`` is a case it handles.

A single ``None``, among other arguments or alone, for an unannotated parameter whose
default is not ``None`` and that the node never compares with ``None`` nor tests for
truth (:func:`~remora.code.values.untold_nones.untold_none`) is a value the node's uses
exclude, asked about as a made-up one is (:mod:`remora.code.testgen.unread_arguments`):
where the call never reads it, another call's value replaces it, or it stays as nothing;
where the call reads it, handing it on as it is to other code
(``self._stack.append(item)``, ``encoder.encode(obj)``) or to a builtin (``str(val)``),
the call gives no test: it reaches that code's most trivial path, if any. Blind
reviewers rejected ``dumps(None) == "null"`` and ``encode(None) == "null"`` ("pins
nothing Hjson-specific"), ``str_coerce(None) == "None"`` ("only restates Python's
built-in behaviour"), and asked for a real value in place of ``push(None)`` and
``make_template_name(None)``: of the test changes of eight projects' reviews that passed
a ``None`` straight to the node, 2 in 18 were merged as is (one raised on it, one held
it among four other cases). A call that raises is not asked (its error is the contract:
``coerce_pattern(None)``'s ``ValueError``); an annotated parameter's ``None`` is
:func:`~remora.code.values.argument_fit.excluded_value`'s to judge. Read with
:mod:`ast`; nothing runs here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from remora.code.values.untold_nones import Function, handles_none

__all__ = ["unhandled_nones"]


def unhandled_nones(row: Mapping[str, Any], function: Function) -> bool:
    """Whether the probed call gave ``None`` for each of its two or more arguments and the
    node handles ``None`` for none of them."""
    args = row.get("args") or {}
    if len(args) < 2 or any(value is not None for value in args.values()):
        return False
    return not handles_none(function, set(args))
