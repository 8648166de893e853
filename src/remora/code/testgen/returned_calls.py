"""A returned callable's test: it is called as its users call it, and that is asserted.

The probe calls a callable object a node returned (a query, a predicate, a transform)
with a value of the kind it takes, a document holding the key it reads where it reads
one (:mod:`remora.code.probes.programs.returned_calls`), and reports each call kept: its
argument's literal text, what it returned, the argument as the call left it where it
changed. The test writes those calls after ``result = ...``:

- ``assert result({'name': 'a'}) is True`` beside ``assert result({'name': 'other'}) is False``;
- a transform: ``document = {'count': 0}``, ``result(document)``,
  ``assert document == {'count': 1}``.

Its name says what the callable does (:func:`call_words`): ``matches_a_value_in_items``
(the match holds an item of the ``items`` argument), ``matches_rhs`` (the argument
itself), ``matches_a_document_with_name`` (it held the key, the non-match not),
``changes_count`` (a transform; ``changes_field`` where the key is the ``field``
argument's value), never the values.
"""

from __future__ import annotations

from typing import Any

from remora import python_ast
from remora.code.values import Imports, snake_name, value_assert

__all__ = ["call_lines", "call_words"]


def _value(text: str) -> Any:
    return python_ast.literal_eval(text)


def call_lines(returned: dict[str, Any], imports: Imports) -> list[str]:
    """The calls of ``result`` the probe kept, each with its asserts."""
    lines: list[str] = []
    for call in returned.get("calls") or []:
        argument = str(call["argument"])
        if "changed" not in call:
            line = value_assert(f"result({argument})", call["returned"], imports)
            lines += [line] if line is not None else []
            continue
        name = "document" if isinstance(_value(argument), dict) else "value"
        lines.append(f"{name} = {argument}")
        line = None
        if call["returned"].get("repr") != "None":
            line = value_assert(f"result({name})", call["returned"], imports)
        lines.append(line if line is not None else f"result({name})")
        lines.append(f"assert {name} == {call['changed']}")
    return lines


def _matched(argument: Any, given: dict[str, Any]) -> str | None:
    """What a matching argument holds of the node's call: ``rhs`` (an argument itself) or
    ``a_value_in_items`` (an item of one), read from its one value where it is a document."""
    values = list(argument.values()) if isinstance(argument, dict) else [argument]
    if len(values) != 1:
        return None
    value = values[0]
    for name, passed in given.items():
        if type(passed) is type(value) and passed == value:
            return snake_name(name)
    for name, passed in given.items():
        if isinstance(passed, list | tuple | set | frozenset) and any(
            type(item) is type(value) and item == value for item in passed
        ):
            return f"a_value_in_{snake_name(name)}"
    return None


def _key_words(key: Any, given: dict[str, Any]) -> str | None:
    """A document's key in a name: the argument it is the value of (``field`` for
    ``increment(field="count")``'s ``"count"``), else the key where it is a name."""
    same = [name for name, passed in given.items() if type(passed) is type(key) and passed == key]
    if same:
        return snake_name(same[0])
    return snake_name(key) if isinstance(key, str) and key.isidentifier() else None


def call_words(row: dict[str, Any]) -> str | None:
    """A name's words for the calls of a returned callable; None when it has none."""
    calls: list[dict[str, Any]] = (row.get("returned") or {}).get("calls") or []
    if not calls:
        return None
    given: dict[str, Any] = row.get("args") or {}
    changed = [call for call in calls if "changed" in call]
    if changed:
        before = _value(str(changed[0]["argument"]))
        after = _value(str(changed[0]["changed"]))
        if isinstance(before, dict) and isinstance(after, dict):
            keys = [k for k in after if k not in before or before[k] != after[k]]
            words = _key_words(keys[0], given) if len(keys) == 1 else None
            if words is not None:
                return f"returns_a_function_that_changes_{words}"
        return "returns_a_function_that_changes_its_argument"
    results = [_value(str(call["returned"]["repr"])) for call in calls]
    matches = [call for call, result in zip(calls, results, strict=True) if result is True]
    if len(matches) != 1 or len(calls) != 2 or not any(result is False for result in results):
        return "returns_a_callable"
    argument = _value(str(matches[0]["argument"]))
    what = _matched(argument, given)
    if what is not None:
        return f"returns_a_predicate_matching_{what}"
    other = _value(str(next(c for c in calls if c is not matches[0])["argument"]))
    if isinstance(argument, dict) and other == {} and len(argument) == 1:
        words = _key_words(next(iter(argument)), given)
        if words is not None:
            return f"returns_a_predicate_matching_a_document_with_{words}"
    return "returns_a_predicate"
