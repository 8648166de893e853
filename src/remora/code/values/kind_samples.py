"""One sample value per builtin kind, where a kind, not an annotation, says what to try:
``isinstance(x, int)``, ``if x:``, ``p.append(...)``, an attribute the class calls.

Two variants, each with one role:

- :data:`TYPICAL`: a true value of the kind (``1``, ``"a"``, ``b"a"``, ``[1]``, :data:`DICT_SAMPLE`,
  :data:`CALLABLE_SAMPLE`): the value ``isinstance(x, K)`` asks for, the set side of
  ``if x:``, and a parameter whose use says its kind (:func:`used_sample`).
- :data:`EMPTY`: the kind's false value (``0``, ``""``, ``[]``, ``{}``): the other side of
  ``if x:``.

A value from an annotation follows the parameter's name too
(:func:`remora.code.values.derived_sets.sample_value`); these are the kind's alone.
:func:`moment` gives the standard library's ``datetime``, ``date`` and ``timedelta``,
built as one (``datetime.timedelta(seconds=90)`` in a test), for an annotation or an
``isinstance`` that names them.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = [
    "CALLABLE_SAMPLE",
    "DICT_SAMPLE",
    "EMPTY",
    "MOMENT_KINDS",
    "TYPICAL",
    "moment",
    "sample",
    "used_sample",
]

# A mapping holding a true and a false value: a loop over it runs, and what the code does
# with its values goes both ways.
DICT_SAMPLE: dict[str, Any] = {"a": 1, "b": 0}
# A parameter the code calls, or hands to map/filter or a key=: a builtin that takes any
# one argument, sent to the probe as this marker and written in a test as its name.
CALLABLE_SAMPLE: dict[str, Any] = {"__callable__": "str"}

TYPICAL: dict[str, Any] = {
    "int": 1,
    "float": 1.5,
    "str": "a",
    "bytes": {"__bytes__": "a"},  # unspelled_values.bytes_of(b"a")
    "bool": True,
    "list": [1],
    "dict": DICT_SAMPLE,
    "callable": CALLABLE_SAMPLE,
    "NoneType": None,  # ``isinstance(x, NoneType)``: the kind's one value
}
EMPTY: dict[str, Any] = {
    **{"int": 0, "float": 0.0, "str": "", "bytes": {"__bytes__": ""}},
    **{"bool": False, "list": [], "dict": {}},
}


def sample(kind: str, *, empty: bool = False) -> Any:
    """A fresh copy of the kind's typical value (its empty one with ``empty``): a caller
    may hand it to code that changes it. KeyError for a kind the table lacks."""
    return copy.deepcopy((EMPTY if empty else TYPICAL)[kind])


def used_sample(kind: str) -> Any:
    """The value for a parameter whose use says its kind (``p.get(k)``: a dict): the typical
    one, but an empty list. The uses that say a list (``append``, ``extend``, ``insert``)
    fill it, and an item of a kind nothing says (the typical ``1``) may be one the code
    cannot take (``", ".join(p)``); an empty list any such code takes."""
    return sample(kind, empty=kind == "list")


# (year, month, day, hour, minute) of the typical, the other and the edge moment, and the
# seconds of each duration: the edge one empty.
_MOMENTS = ((2024, 1, 31, 12, 0), (2023, 12, 1, 8, 30), (1970, 1, 1, 0, 0))
_DURATIONS = (90, 3600, 0)
MOMENT_KINDS = frozenset({"datetime", "date", "timedelta"})


def moment(kind: str, variant: int = 0) -> dict[str, Any]:
    """A ``datetime``, ``date`` or ``timedelta`` (:data:`MOMENT_KINDS`) built as one
    (``datetime.date(2024, 1, 31)`` in a test), never its ISO text: code annotated for a
    date calls its methods and compares it. ``variant`` 0 is the typical one, 1 another,
    2 the edge (the epoch, an empty duration)."""
    if kind == "timedelta":
        return {"__class__": "datetime.timedelta", "args": {"seconds": _DURATIONS[min(variant, 2)]}}
    year, month, day, hour, minute = _MOMENTS[min(variant, 2)]
    args: dict[str, Any] = {"year": year, "month": month, "day": day}
    if kind == "datetime":
        args |= {"hour": hour, "minute": minute}
    return {"__class__": f"datetime.{kind}", "args": args}
