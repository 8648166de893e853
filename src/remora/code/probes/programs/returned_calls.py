"""Call a callable a call returned (a query, a predicate, a transform), as its users do.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). A method that returns a callable
object (``Query().name.one_of(["a", "b"])`` gives a query a table calls with each
document; ``increment("count")`` a function that changes the document it is given) has
nothing a test can compare its result with: its behaviour is what the result does when
called. :func:`returned_calls` calls it with one argument of the kind it takes:

- a mapping where it reads one (a document): first a recording dict, which says the keys
  it looks up (``value["name"]``, ``.get``, ``in``), then dicts holding such a key with
  each value the call itself was given (an argument, an item of one, that item in a
  one-item list) and then with a few plain ones (another text, ``0``, ``1``), and the
  dict without it;
- else those values themselves.

Each such call is made on a copy of the value, under the call's time limit. It keeps,
in the order tried, the first call that returns something other than ``None`` or changes
its argument; where it changed none, the first one after it whose outcome differs too (a
match and a non-match; a non-match given a value of the match's own type first:
``"other"`` beside ``"a"``), each with the argument's literal text, what it returned and the
argument as the call left it where it changed; none where every call gave the same (a
predicate true of anything it was given pins nothing it tests) or gave its argument back
(``Schema.infer("a")`` gives a validator of strings: ``result("a") == "a"`` beside
``result("other") == "other"`` would pass were it an identity function; blind reviewers
rejected it three times). Calls that raise are left
out, as are arguments and results without a literal form: a test writes each call.
"""

from __future__ import annotations

import collections.abc
import contextlib
import copy
import inspect
import signal
import types
import typing
from collections.abc import Callable
from typing import Any

from remora.code.probes.programs.returned_values import equals, observed_value

MAX_KEYS = 3  # looked up by the returned callable, the first ones it read
MAX_CALLS = 2  # kept: one outcome and one that differs from it
MAX_TRIED = 16  # calls tried, each under the call's own time limit
# Plain values a document's key is given after the call's own ones: another text, numbers.
PLAIN_VALUES: tuple[Any, ...] = ("other", 0, 1)
# Callables whose calls are no behaviour of the node: types, modules, the builtins'.
_NOT_CALLED = (
    type,
    types.ModuleType,
    types.BuiltinFunctionType,
    types.BuiltinMethodType,
    types.MethodWrapperType,
)


class _Recording(dict):  # type: ignore[type-arg]
    """An empty dict that notes each key looked up in it."""

    def __init__(self) -> None:
        super().__init__()
        self.read: list[Any] = []

    def _note(self, key: Any) -> None:
        if key not in self.read:
            self.read.append(key)

    def __getitem__(self, key: Any) -> Any:
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._note(key)
        return super().__contains__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._note(key)
        return super().get(key, default)


def _one_parameter(value: Any) -> bool:
    """Whether the callable takes exactly one argument it needs, by position."""
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return False
    needed = [
        p
        for p in signature.parameters.values()
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    others = [p for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY]
    return len(needed) == 1 and all(p.default is not p.empty for p in others)


def _callable_annotation(annotation: Any) -> bool:
    """``Callable``, ``Callable[..., T]``, a ``TypeVar`` bound to one, or an optional one."""
    if isinstance(annotation, typing.TypeVar):
        return annotation.__bound__ is not None and _callable_annotation(annotation.__bound__)
    if annotation is collections.abc.Callable or typing.get_origin(annotation) is (
        collections.abc.Callable
    ):
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        parts = [a for a in typing.get_args(annotation) if a is not type(None)]
        return bool(parts) and all(_callable_annotation(a) for a in parts)
    return False


def _takes_a_callable(value: Any) -> bool:
    """Whether an annotation of the callable's parameters says it takes a function: a
    decorator (``def on(f: Handler)``), which a text or a number given in its place would
    only seem to decorate (a blind reviewer: "registering strings as handlers is
    nonsensical"). Annotations that do not resolve say nothing."""
    try:
        hints = typing.get_type_hints(value)
    except Exception:  # a name only a type checker imports, or no annotations to read
        return False
    hints.pop("return", None)
    return any(_callable_annotation(hint) for hint in hints.values())


def calls_returned(value: Any, receiver: Any) -> bool:
    """Whether a returned value is a callable object whose calls are the node's behaviour:
    one that takes one value, not a function."""
    if not callable(value) or value is receiver or isinstance(value, _NOT_CALLED):
        return False
    return _one_parameter(value) and not _takes_a_callable(value)


def _literal(value: Any) -> bool:
    return bool(observed_value(value)["literal"])


def _given_values(arguments: list[Any]) -> list[Any]:
    """The call's own literal values, each item of a collection one first, then that item
    in a one-item list, then the plain ones: in order, no two equal."""
    found: list[Any] = []
    for argument in arguments:
        if isinstance(argument, list | tuple | set | frozenset):
            items = list(argument)
            found += items + [[item] for item in items]
        found.append(argument)
    kept: list[Any] = []
    for candidate in [*found, *PLAIN_VALUES]:
        if _literal(candidate) and not any(
            type(candidate) is type(k) and equals(candidate, k) for k in kept
        ):
            kept.append(candidate)
    return kept


def _timed(function: Any, argument: Any, timeout_s: float) -> Any:
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        return function(argument)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _keys_read(function: Any, timeout_s: float) -> list[Any]:
    recording = _Recording()
    # Its outcome is not asked for: a missing key's KeyError is how most readers stop.
    with contextlib.suppress(Exception):
        _timed(function, recording, timeout_s)
    return [key for key in recording.read if type(key) in (str, int)][:MAX_KEYS]


def _candidates(function: Any, arguments: list[Any], timeout_s: float) -> list[Any]:
    values = _given_values(arguments)
    keys = _keys_read(function, timeout_s)
    if not keys:
        return values
    documents: list[Any] = [{key: value} for key in keys for value in values]
    return [*documents[: MAX_TRIED - 1], {}]


def _outcome(function: Any, argument: Any, timeout_s: float) -> dict[str, Any] | None:
    """The call on a copy of ``argument``: ``{argument, returned, changed?}``; None where it
    raised or gives nothing a test can compare."""
    given = copy.deepcopy(argument)
    try:
        result = _timed(function, given, timeout_s)
    except Exception:  # a value of a kind it does not take: no call a test writes
        return None
    returned = observed_value(result)
    if not returned["literal"]:
        return None
    outcome: dict[str, Any] = {"argument": repr(argument), "returned": returned}
    if not equals(given, argument) or type(given) is not type(argument):
        if not _literal(given):
            return None
        outcome["changed"] = repr(given)
    elif result is None:
        return None  # neither a result nor a change: nothing the call did shows
    return outcome


def _echoes(outcome: dict[str, Any]) -> bool:
    """Whether the call gave its argument back unchanged."""
    return "changed" not in outcome and outcome["returned"]["repr"] == outcome["argument"]


def _differs(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two calls' outcomes tell their arguments apart: two calls that each gave
    their argument back do not (an identity function would give both)."""
    if _echoes(one) and _echoes(other):
        return False
    return (one["returned"]["repr"], one.get("changed")) != (
        other["returned"]["repr"],
        other.get("changed"),
    )


def _key_type(argument: Any) -> tuple[type, ...]:
    """The types of the values a tried argument holds (a document's), or its own."""
    if isinstance(argument, dict):
        return tuple(type(v) for v in argument.values())
    return (type(argument),)


def returned_calls(
    value: Any,
    arguments: list[Any],
    timeout_s: float,
    context: Callable[[str], None],
    name: str,
) -> list[dict[str, Any]]:
    """The calls a test makes of a returned callable ``value`` (see the module), at most
    ``MAX_CALLS``; ``arguments``: the node's call's own. Tried under no coverage context;
    the kept calls are made again under ``name``'s, so what a set covers is what its test
    runs."""
    context("")
    try:
        kept = _kept(value, arguments, timeout_s)
    finally:
        context(name)
    calls = [_outcome(value, argument, timeout_s) for argument in kept]
    return [call for call in calls if call is not None]


def _kept(value: Any, arguments: list[Any], timeout_s: float) -> list[Any]:
    """The arguments of the calls kept (see the module), tried in order."""
    tried: list[tuple[Any, dict[str, Any]]] = []
    for candidate in _candidates(value, arguments, timeout_s)[:MAX_TRIED]:
        outcome = _outcome(value, candidate, timeout_s)
        if outcome is not None:
            tried.append((candidate, outcome))
    if not tried:
        return []
    first_argument, first = tried[0]
    if "changed" in first:  # a transform's one change shows it; a predicate needs two
        return [first_argument]
    others = [(a, o) for a, o in tried[1:] if _differs(first, o)]
    same_kind = [(a, o) for a, o in others if _key_type(a) == _key_type(first_argument)]
    kept = [first_argument, *[a for a, _ in (same_kind or others)[: MAX_CALLS - 1]]]
    # One outcome alone: whatever it is given, nothing tells it apart.
    return kept if len(kept) == MAX_CALLS else []
