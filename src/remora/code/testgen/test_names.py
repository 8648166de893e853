"""A test's name says the one behaviour it checks: ``test_add_when_amount_below_0_raises``.

The name is the code's name, the condition the arguments were chosen for (a
boundary the code tests: ``when_amount_below_0``, or the value itself where the node
tests that subject elsewhere too: :mod:`.claimed_ranges`), or, for arguments chosen for
nothing in particular, the branch the call left the code by (:mod:`.taken_branch`:
``when_hashid_is_invalid``, ``when_rows_is_empty``, ``when_key_is_missing``; none for a
call that ran the plain path), and what the test asserts: ``raises_value_error``,
``sets_limit_value`` (the attributes a method assigns; ``changes_items`` for
one it mutates in place, only where it reads otherwise than before the call;
``when_self_is_empty_leaves_items_unchanged`` where it found nothing to do), the items
it stored in or removed from its instance where that is a container (:mod:`.stored_items`:
``stores_beta``, ``removes_tea``, ``stores_items``; ``stores_beta_and_returns_default``
where the result fits too), ``returns_true``, ``returns_none``, ``returns_empty_tuple``,
``returns_default`` (the argument it hands back), else the result's kind:
``returns_string``, ``returns_dict``, ``returns_stock_item``. A value the call returned
is never spelled in the name (reviewers: "'returns_nvb', 'returns_15' say nothing";
``returns_none`` on ``== "None"`` says the opposite), nor a placeholder argument
(``when_hashid_is_other_space_hashid``);
a ``*args`` parameter is worded by its count (``when_given_2_positional_arguments``). A
procedure's test asserts no result, and its name says none. A ``**kwargs`` keyword the
code's keyed reads do not name is "unread" only while the call's outcome does not show it
stored or handed back (``when_kwargs_has_a_keyword`` where it does). A
method is named alone (``test_limit_...``) unless another class of its module has a
method of the same name (``test_stock_item_add_...``). A name already taken is told
apart by the arguments that differ, never by a number; a long condition loses whole
clauses, never half of one. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast
from remora.code.testgen.claimed_ranges import honest_condition
from remora.code.testgen.stored_items import shows_key, stored_words
from remora.code.testgen.taken_branch import branch_words, given_words
from remora.code.values import (
    CallTarget,
    first_parameter,
    is_self_attribute,
    label,
    snake_name,
    unread_keyword_words,
)

__all__ = ["assigned_attributes", "behaviour_name", "case_words", "node_words"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The arguments' reasons that say nothing about a condition (derived, not chosen).
_PLAIN_REASONS = {"typical", "varied_arguments", "doc", "as_called"}
_MAX_NAME = 72
# A name whose one condition does not fit in _MAX_NAME may run to this (a def line of 100).
_MAX_WHOLE = 92
# An argument's text longer than this, or of more than one word, is a placeholder
# ("sample hashid"), not a condition: it is not spelled out in the name.
_MAX_WORD = 12
# An empty result is named as such: a reviewer read "returns_its_value" on `assert result
# == ()` as the opposite of what it checks, and "returns_text" on `== ""` as some text.
_EMPTY_KINDS: dict[type, str] = {str: "string", bytes: "bytes", tuple: "tuple", list: "list"}
_EMPTY_KINDS[dict] = "dict"


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


def _vararg(function: Function | None) -> str | None:
    return function.args.vararg.arg if function is not None and function.args.vararg else None


def _kwarg(function: Function | None) -> str | None:
    return function.args.kwarg.arg if function is not None and function.args.kwarg else None


def _condition(why: str, row: dict[str, Any], function: Function | None, lines: set[int]) -> str:
    if why.startswith("model_"):
        return f"with_{why.removeprefix('model_')}"
    double = _kwarg(function)
    if double is not None and why == unread_keyword_words(double):
        given = (row.get("args") or {}).get(double)
        # "unread" is the code text's guess; a keyword the call stored or handed back was read.
        if isinstance(given, dict) and any(shows_key(row, key) for key in given):
            return f"when_{double}_has_a_keyword"
    star = _vararg(function)
    # A ``*args`` item's words (``values_has_a``) name a placeholder, not a condition.
    starred = star is not None and why.startswith(f"{star}_")
    if starred or why in _PLAIN_REASONS or why.endswith("_arguments"):
        words = branch_words(function, lines, row)
        if not words and starred:
            words = given_words(len((row.get("args") or {}).get(star) or ()))
        return f"when_{words}" if words else ""
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


def _readable(seen: dict[str, Any]) -> bool:
    return bool(seen.get("literal")) or isinstance(seen.get("length"), int)


def _same(seen: dict[str, Any], before: dict[str, Any] | None) -> bool:
    """Whether an attribute reads after the call as it read before it (the probe's
    ``state_before``): a test may not say the call changed it."""
    if not before:
        return False
    keys = ("repr", "literal", "length")
    return all(seen.get(k) == before.get(k) for k in keys) and _readable(seen)


def _all_empty(before: dict[str, Any]) -> bool:
    """Whether every attribute observed before the call was an empty collection."""
    for seen in before.values():
        if seen.get("length") == 0:
            continue
        try:
            value = python_ast.literal_eval(seen["repr"]) if seen.get("literal") else None
        except (ValueError, SyntaxError):
            return False
        if not isinstance(value, list | tuple | dict | set | str) or value:
            return False
    return bool(before)


def _state_words(
    row: dict[str, Any], assigned: set[str], owner_args: dict[str, Any], procedure: bool
) -> str:
    built = row.get("owner_args", owner_args)
    state = {name: seen for name, seen in (row.get("state") or {}).items() if _readable(seen)}
    before = row.get("state_before")
    if isinstance(before, dict):  # seen before the call: a change is what differs from it
        changed = [name for name, seen in state.items() if not _same(seen, before.get(name))]
    else:
        changed = [
            n for n, seen in state.items() if not (n in built and _unchanged(seen, built[n]))
        ]
    changed = changed[:2]
    if not changed:
        returned_none = (row.get("returned") or {}).get("repr") == "None"
        if state and (isinstance(before, dict) or procedure) and returned_none:
            # a procedure that found nothing to do: the test pins that it left the state be
            return f"leaves_{'_and_'.join(snake_name(n) for n in list(state)[:2])}_unchanged"
        return ""
    # A property read for a private attribute the method assigns (``_title``) says ``sets``.
    verb = "sets" if all({name, f"_{name}"} & assigned for name in changed) else "changes"
    return f"{verb}_{'_and_'.join(snake_name(name) for name in changed)}"


def _one_word(text: str) -> bool:
    return 0 < len(text) <= _MAX_WORD and text.isalnum() and text.isascii()


def _kind(type_name: str) -> str:
    """A result's kind in a name: ``string`` for ``str`` (as ``returns_empty_string``)."""
    return "string" if type_name == "str" else snake_name(type_name)


def _handed_back(value: Any, args: dict[str, Any]) -> str | None:
    """The one argument a result equals (``setdefault`` returning ``default``), where that
    cannot be chance: a text or a collection, not a number, a flag or ``None``."""
    if not isinstance(value, str | bytes | list | tuple | dict | set) or not value:
        return None
    same = [name for name, given in args.items() if type(given) is type(value) and given == value]
    return same[0] if len(same) == 1 else None


def _outcomes(
    row: dict[str, Any], assigned: set[str], owner_args: dict[str, Any], procedure: bool = False
) -> list[str]:
    """What the test asserts, fullest first (``stores_beta_and_returns_default``, then
    ``stores_beta``: the name takes the first that fits); none where a procedure's test
    would assert nothing a name can say. A procedure's test asserts no result: its name
    says none (``returns_none`` there named what it never checks)."""
    raised = row.get("raised")
    if raised:
        return [f"raises_{snake_name(raised['type'])}"]
    state = _state_words(row, assigned, owner_args, procedure)
    stored = stored_words(row.get("contents"))
    if stored and state.startswith("leaves_"):
        state = ""  # its items changed: the call did not leave the instance be
    changes = "_and_".join(words for words in (state, stored) if words)
    if procedure or state:
        return [changes] if changes else []
    result = _result_words(row)
    return [f"{stored}_and_{result}", stored] if stored else [result]


def _result_words(row: dict[str, Any]) -> str:
    """What the test asserts of the result, in words that never spell the value it pins
    (``returns_nvb`` says nothing; ``returns_none`` for the text ``"None"`` says the
    opposite)."""
    returned = row.get("returned") or {}
    if returned.get("literal"):
        value = python_ast.literal_eval(returned["repr"])
        if value is None or isinstance(value, bool):
            return f"returns_{label(value)}"
        if type(value) in _EMPTY_KINDS and not value:  # "returns_its_value" read as the input
            return f"returns_empty_{_EMPTY_KINDS[type(value)]}"
        argument = _handed_back(value, row.get("args") or {})
        if argument is not None:
            return f"returns_{snake_name(argument)}"
        return f"returns_{_kind(type(value).__name__)}"  # a dict subclass's too: a dict
    return f"returns_{_kind(str(returned.get('type') or 'value'))}"


def _fitted(node: str, condition: str, outcome: str) -> str | None:
    """The name with as many of the condition's clauses (``a_and_b``) as fit, whole; None
    where not even the first fits: a clause cut short (``when_self_shelf_has``) says
    nothing a reader can follow."""
    clauses = condition.removeprefix("when_").split("_and_")
    for count in range(len(clauses), 0, -1):
        kept = "_and_".join(clauses[:count])
        words = f"when_{kept}" if condition.startswith("when_") else kept
        name = "_".join(p for p in (f"test_{node}", words, outcome) if p)
        if len(name) <= _MAX_NAME or (count == 1 and len(name) <= _MAX_WHOLE):
            return name
    return None


def _argument_words(name: str, value: Any, star: str | None) -> str:
    """A call's argument as a condition: ``key_is_b``, ``items_is_empty``, ``items_has_2_items``,
    ``given_2_positional_arguments`` (``*args``); "" for a value whose words say nothing
    (an object, a placeholder text of several words)."""
    if name == star and isinstance(value, list | tuple):
        return given_words(len(value))
    if isinstance(value, list | tuple | set | frozenset | dict):
        return f"{name}_is_empty" if not value else f"{name}_has_{label(list(value))}"
    if isinstance(value, str) and value and not _one_word(value):
        return ""
    words = label(value)
    return "" if words in ("value", "text") else f"{snake_name(name)}_is_{words}"


def behaviour_name(
    node: str,
    row: dict[str, Any],
    why: str,
    used: set[str],
    assigned: set[str],
    owner_args: dict[str, Any] | None = None,
    function: Function | None = None,
    named: dict[str, dict[str, Any]] | None = None,
    lines: set[int] | None = None,
    procedure: bool = False,
) -> str | None:
    """``test_<node>[_<condition>]_<outcome>`` for a probed call (``row``), unique in
    ``used`` (and added to it); ``assigned``: the attributes the method sets outright;
    ``owner_args``: what its instance is built with, unless the row says (an attribute
    still holding its value there is no change to name); ``function``: the node's ``def``,
    whose tests of the subject say whether a range the condition claims holds
    (:mod:`.claimed_ranges`). A name already taken is told apart by the call's arguments
    (``when_key_is_b``), never by a number: those whose words differ from the arguments of
    the test that took it (``named``: name -> its arguments, filled here; any argument for
    a name the test file had); ``lines``: those the call ran (:mod:`.taken_branch`);
    ``procedure``: whether the test asserts no result. None where nothing tells it apart
    (the test would repeat, by its name, one already there) or it asserts nothing to name."""
    built = {**row, "owner_args": row.get("owner_args", owner_args or {})}
    condition = _condition(why, built, function, lines or set())
    outcomes = _outcomes(row, assigned, owner_args or {}, procedure)
    if not outcomes:
        return None
    outcome = outcomes[-1]
    # The result beside the items stored only where the whole name stays short.
    if len("_".join(p for p in (f"test_{node}", condition, outcomes[0]) if p)) <= _MAX_NAME:
        outcome = outcomes[0]
    if outcome.startswith("leaves_") and not condition:  # unchanged, but under what?
        if not _all_empty(row.get("state_before") or {}):
            return None  # "drop leaves items unchanged" would say drop never changes them
        condition = "when_self_is_empty"
    name = _fitted(node, condition, outcome) if condition else f"test_{node}_{outcome}"
    if name is None:
        name = f"test_{node}_{outcome}"
    args, star = row.get("args") or {}, _vararg(function)
    named = {} if named is None else named
    other = named.get(name)
    # A parameter the condition already words (``key_is_missing``) tells nothing more.
    clauses = condition.removeprefix("when_").split("_and_")
    worded = {n for n in args if any(clause.startswith(f"{n}_") for clause in clauses)}
    told = [
        words
        for n, v in args.items()
        if n not in worded
        and (words := _argument_words(n, v, star))
        and (other is None or n not in other or words != _argument_words(n, other[n], star))
    ]
    current = condition
    for extra in told:
        if name not in used:
            break
        current = f"{current}_and_{extra}" if current else f"when_{extra}"
        name = _fitted(node, current, outcome) or name
    if name in used:
        return None
    used.add(name)
    named[name] = dict(args)
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
    return _result_words({"returned": {"repr": repr(value), "literal": True}})
