"""One sample value per builtin kind, where a kind, not an annotation, says what to try:
``isinstance(x, int)``, ``if x:``, ``p.append(...)``, an attribute the class calls.

Two variants, each with one role:

- :data:`TYPICAL`: a true value of the kind (``1``, ``"a"``, ``[1]``, :data:`DICT_SAMPLE`,
  :data:`CALLABLE_SAMPLE`): the value ``isinstance(x, K)`` asks for, the set side of
  ``if x:``, and a parameter whose use says its kind (:func:`used_sample`).
- :data:`EMPTY`: the kind's false value (``0``, ``""``, ``[]``, ``{}``): the other side of
  ``if x:``.

A value from an annotation follows the parameter's name too
(:func:`remora.code.values.derived_sets.sample_value`); these are the kind's alone.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["CALLABLE_SAMPLE", "DICT_SAMPLE", "EMPTY", "TYPICAL", "sample", "used_sample"]

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
    "bool": True,
    "list": [1],
    "dict": DICT_SAMPLE,
    "callable": CALLABLE_SAMPLE,
    "NoneType": None,  # ``isinstance(x, NoneType)``: the kind's one value
}
EMPTY: dict[str, Any] = {"int": 0, "float": 0.0, "str": "", "bool": False, "list": [], "dict": {}}


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
