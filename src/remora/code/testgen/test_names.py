"""A test's name says the one behaviour it checks: ``test_add_when_amount_below_0_raises``.

The name is the code's name, the condition the arguments were chosen for (a
boundary the code tests: ``when_amount_below_0``, or the value itself where the node
tests that subject elsewhere too: :mod:`.claimed_ranges`; none for the typical
arguments), and what the test asserts: ``raises_value_error``,
``sets_limit_value`` (the attributes a method assigns; ``changes_items`` for
one it mutates in place), ``returns_true``, ``returns_11th``, ``returns_text``
(a string that is not one word; left out where a condition says more:
``test_quote_when_text_has_number_sign``), ``returns_stock_item``. A method is named
alone (``test_limit_...``) unless another class of its module has a method of
the same name (``test_stock_item_add_...``). Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast
from remora.code.testgen.claimed_ranges import honest_condition
from remora.code.values import CallTarget, first_parameter, is_self_attribute, label, snake_name

__all__ = ["assigned_attributes", "behaviour_name", "case_words", "node_words"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The arguments' reasons that say nothing about a condition (derived, not chosen).
_PLAIN_REASONS = {"typical", "varied_arguments", "doc", "as_called"}
_MAX_NAME = 72
# A returned string longer than this is not spelled out in the name.
_MAX_WORD = 16
# Outcomes that name no behaviour (reviewers: "'returns_text' says nothing"): left out of
# a name that has a condition to say instead.
_VACUOUS = frozenset({"returns_text", "returns_its_value"})


def node_words(target: CallTarget, module_text: str) -> str:
    """The code's name in a test name: a method alone unless its name is ambiguous."""
    if target["kind"] != "method":
        return snake_name(target["qualname"])
    try:
        tree = python_ast.parse(module_text)
    except SyntaxError:
        return snake_name(target["qualname"])
    owners = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(
            isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == target["name"]
            for item in node.body
        )
    ]
    return snake_name(target["name"] if len(owners) <= 1 else target["qualname"])


def assigned_attributes(function: Function | None) -> set[str]:
    """The attributes a method assigns outright (``self.x = ...``, ``self.x += ...``), as
    against those it changes in place (``self.items.append(...)``)."""
    self_name = first_parameter(function) if function is not None else None
    if function is None or self_name is None:
        return set()
    names: set[str] = set()
    for node in ast.walk(function):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        names |= {
            t.attr
            for t in targets
            if isinstance(t, ast.Attribute) and is_self_attribute(t, self_name)
        }
    return names


def _condition(why: str, row: dict[str, Any], function: Function | None) -> str:
    if why.startswith("model_"):
        return f"with_{why.removeprefix('model_')}"
    if why in _PLAIN_REASONS or why.endswith("_arguments"):
        return ""
    honest = honest_condition(why, row, function)
    return f"when_{honest}" if honest else ""


def _unchanged(seen: dict[str, Any], before: Any) -> bool:
    """Whether an attribute observed after the call holds what the instance was built with."""
    if not seen.get("literal"):
        return False
    try:
        return bool(python_ast.literal_eval(seen["repr"]) == before)
    except (ValueError, SyntaxError):
        return False


def _state_words(row: dict[str, Any], assigned: set[str], owner_args: dict[str, Any]) -> str:
    built = row.get("owner_args", owner_args)
    changed = [
        name
        for name, seen in (row.get("state") or {}).items()
        if (seen.get("literal") or isinstance(seen.get("length"), int))
        and not (name in built and _unchanged(seen, built[name]))
    ][:2]
    if not changed:
        return ""
    verb = "sets" if all(name in assigned for name in changed) else "changes"
    return f"{verb}_{'_and_'.join(snake_name(name) for name in changed)}"


def _one_word(text: str) -> bool:
    return 0 < len(text) <= _MAX_WORD and text.replace("_", "").isalnum() and text.isascii()


def _outcome(row: dict[str, Any], assigned: set[str], owner_args: dict[str, Any]) -> str:
    raised = row.get("raised")
    if raised:
        return f"raises_{snake_name(raised['type'])}"
    state = _state_words(row, assigned, owner_args)
    returned = row.get("returned") or {}
    if state:
        return state
    if returned.get("literal"):
        value = python_ast.literal_eval(returned["repr"])
        if isinstance(value, str) and not _one_word(value):
            return "returns_text"  # its words would make a sentence of punctuation names
        words = label(value)
        return f"returns_{words}" if words and words != "value" else "returns_its_value"
    return f"returns_{snake_name(str(returned.get('type') or 'value'))}"


def behaviour_name(
    node: str,
    row: dict[str, Any],
    why: str,
    used: set[str],
    assigned: set[str],
    owner_args: dict[str, Any] | None = None,
    function: Function | None = None,
) -> str:
    """``test_<node>[_<condition>]_<outcome>`` for a probed call (``row``), unique in
    ``used`` (and added to it); ``assigned``: the attributes the method sets outright;
    ``owner_args``: what its instance is built with, unless the row says (an attribute
    still holding its value there is no change to name); ``function``: the node's ``def``,
    whose tests of the subject say whether a range the condition claims holds
    (:mod:`.claimed_ranges`)."""
    built = {**row, "owner_args": row.get("owner_args", owner_args or {})}
    condition = _condition(why, built, function)
    outcome = _outcome(row, assigned, owner_args or {})
    if condition and outcome in _VACUOUS:  # the condition says more than "returns_text"
        outcome = ""
    parts = [part for part in (f"test_{node}", condition, outcome) if part]
    name = "_".join(parts)
    if len(name) > _MAX_NAME and condition:  # the condition gives way first
        room = max(_MAX_NAME - len(f"test_{node}__{outcome}"), 8)
        cut = condition[: room + 1]
        cut = cut.rsplit("_", 1)[0] if len(cut) > room else cut  # whole words only
        name = f"test_{node}_{cut}_{outcome}"
    base, number = name, 2
    while name in used:
        name, number = f"{base}_{number}", number + 1
    used.add(name)
    return name


def case_words(case: Any) -> str:
    """What a model's case claims, as a test name's words (``raises_value_error``,
    ``returns_11th``); ``returns_expected_value`` for a value without a literal form."""
    if not isinstance(case, dict):
        return "case"
    if "raises" in case:
        return f"raises_{snake_name(str(case['raises']).strip())}"
    expected = case.get("expected")
    try:
        value = python_ast.literal_eval(expected) if isinstance(expected, str) else expected
        python_ast.literal_eval(repr(value))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return "returns_expected_value"
    return _outcome({"returned": {"repr": repr(value), "literal": True}}, set(), {})
