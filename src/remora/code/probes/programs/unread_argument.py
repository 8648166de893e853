"""A stand-in argument that tells whether the call used it: each use is recorded.

Sent ahead of :mod:`remora.code.probes.programs.call_arguments`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A set's value ``{"__unread__":
true}`` is built as an :class:`Unread`: the host asks whether a kept call's made-up
argument plays any part in what the call does
(:mod:`remora.code.testgen.unread_arguments`) by calling it again with that argument
replaced by one. Passing it, binding it, storing it or putting it in a container is no
use; any operation on it is: reading or setting an attribute (``isinstance`` reads its
``__class__``), comparing, hashing, truth, length, iteration, indexing, calling it,
turning it into text or a number, arithmetic, a ``with``, copying or pickling it. While
the probe watches (:func:`watching`: the call, the reading of what it returned and of
the instance's state after it, so an argument stored where a test would assert it is
used), a use is recorded (:func:`take_uses`) and raises :class:`UnreadArgumentUsed`,
except those that only hold it as a value (its hash, an equality, its class): they are
recorded and answered by identity, and the call goes on to show what it does next;
outside, for the probe's own bookkeeping (a returned value compared with the
arguments), it compares by identity, hashes by id and reads as ``<unread argument>``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

# The operations besides attributes, equality, hashing, truth and text (those need a
# neutral answer outside a watch): each is a use.
_OPERATIONS = (
    "__lt__", "__le__", "__gt__", "__ge__", "__len__", "__length_hint__", "__iter__",
    "__next__", "__reversed__", "__contains__", "__getitem__", "__setitem__", "__delitem__",
    "__call__", "__format__", "__bytes__", "__int__", "__float__", "__complex__", "__index__",
    "__round__", "__trunc__", "__floor__", "__ceil__", "__neg__", "__pos__", "__abs__",
    "__invert__", "__enter__", "__exit__", "__aenter__", "__aexit__", "__await__",
    "__aiter__", "__anext__", "__fspath__", "__copy__", "__deepcopy__", "__reduce__",
    "__reduce_ex__", "__getstate__", "__dir__",
)  # fmt: skip
_ARITHMETIC = (
    "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod", "pow",
    "lshift", "rshift", "and", "xor", "or",
)  # fmt: skip
_WATCH: dict[str, Any] = {"on": False, "uses": []}


class UnreadArgumentUsed(Exception):
    """An :class:`Unread` argument was used while the probe watched."""


def _used(operation: str) -> None:
    if _WATCH["on"]:
        _WATCH["uses"].append(operation)
        raise UnreadArgumentUsed(f"the argument was used: {operation}")


def _held(operation: str) -> None:
    """A use that only holds the argument as a value (its hash, an equality, its class):
    recorded, and the call goes on with the stand-in's own answer (by identity), so what
    it does next with the argument is recorded too."""
    if _WATCH["on"]:
        _WATCH["uses"].append(operation)


_HELD_ATTRIBUTES = frozenset({"__class__", "__hash__", "__eq__", "__ne__"})


@contextlib.contextmanager
def watching() -> Iterator[None]:
    """Record (and refuse) each use of an :class:`Unread` argument while it lasts."""
    before = _WATCH["on"]
    _WATCH["on"] = True
    try:
        yield
    finally:
        _WATCH["on"] = before


def take_uses() -> list[str]:
    """The uses recorded since the last call, in order; the record starts afresh."""
    uses = list(_WATCH["uses"])
    _WATCH["uses"].clear()
    return uses


class Unread:
    """Stands for an argument: any use of it while the probe watches is recorded."""

    __slots__ = ()

    def __getattribute__(self, name: str) -> Any:
        (_held if name in _HELD_ATTRIBUTES else _used)(f"attribute {name}")
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        _used(f"setting attribute {name}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        _used(f"deleting attribute {name}")
        object.__delattr__(self, name)

    def __eq__(self, other: object) -> bool:
        _held("==")
        return self is other

    def __ne__(self, other: object) -> bool:
        _held("!=")
        return self is not other

    def __hash__(self) -> int:
        _held("hash")
        return id(self)

    def __bool__(self) -> bool:
        _used("truth")
        return True

    def __repr__(self) -> str:
        _used("repr")
        return "<unread argument>"

    def __str__(self) -> str:
        _used("str")
        return "<unread argument>"


def _operation(name: str) -> Callable[..., Any]:
    def use(self: Unread, *args: Any) -> Any:
        _used(name)
        return NotImplemented

    use.__name__ = name
    return use


for _name in (
    *_OPERATIONS,
    *(f"__{prefix}{op}__" for op in _ARITHMETIC for prefix in ("", "r", "i")),
):
    setattr(Unread, _name, _operation(_name))
