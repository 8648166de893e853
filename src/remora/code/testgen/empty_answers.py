"""A value read from an empty instance is the empty answer: no test of its own (issue 56).

An instance built with nothing in it answers as every reader of an empty store answers:
``BidictBase().copy() == BidictBase()``, the inverse of an empty one, an order-sensitive
equality decided by the lengths alone. Blind reviewers rejected each such test ("copying
an empty bidict pins almost nothing"; "never reaches the order comparison"). They merged
the ones where the empty instance is the case the code tells apart, and the name says so:
``popitem`` on an empty one raising, ``pop`` handing back its default,
``has_receivers_for`` "when receivers is empty", and ``send_async`` returning ``[]`` with
no receiver beside its test of one connected. So a test is an empty answer when its
instance held no item (a container's ``len``) or every attribute of it observed before the
call was an empty collection, the call only returned a value (no raise, nothing it changed
or called), not one of its own arguments, and its name states no condition (``when_…``,
``after_…``); such tests are written only beside one that is not: the empty case of a
behaviour the others pin. So is a call given only empty collections that gives back
and keeps only empty ones (``find_conflicts([], [])`` returning ``[]``: "none of the
conflict rules run", a reviewer rejected it), or only empty texts beside zeros and
``None`` that gives back nothing (mistune's ``parse_link("", 0) == (None, None)``: "only
the empty-string case", four such tests rejected), unless its name states the condition; and
an instance built with no arguments whose collections are all empty is an empty one
whatever its other settings (``PathLimit().path_is_limit(...)`` is False: "every answer
trivially False"). So is a call of a function without a branch (no ``if``, loop,
``try``, ``and``/``or``) given only empty collections or texts that gives back text made of
the function's own string constants alone, whatever its name says: ``"\\n".join(rows) +
"\\n"`` given ``[]`` returns the ``"\\n"`` it writes around any rows, and no case of its
own ("never checks that the hardblank is turned into a space, the method's whole
purpose"; "joining an empty list gives '\\n' is trivial", two pyfiglet tests rejected). So
is a call that returned ``None`` from a function that returns a value
on another path: a parser's tests that each hand it something it
does not parse (``"#a"``, ``"rgba"`` for a colour) pin only its refusals, never what it
parses ("only the empty-string failure case; parsing a real link is never tested"); its
condition in the name does not change that. Read from the probe's row, the name and the
function's syntax tree; nothing runs here.
"""

from __future__ import annotations

import ast
from typing import Any

from remora import python_ast
from remora.code.testgen.empty_results import returns_values
from remora.code.testgen.no_op_calls import returns_an_input

__all__ = ["all_empty", "empty_answer", "without_lone_empty_answers"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# A name that states the case it tests: a condition, or the set-up the instance had.
_CONDITIONS = ("_when_", "_after_")


def _empty(value: Any) -> bool:
    return isinstance(value, list | tuple | dict | set | str) and not value


def _literal(seen: dict[str, Any]) -> Any:
    """An observed value (``{repr, literal}``) as a value; None where it has no literal."""
    try:
        return python_ast.literal_eval(seen["repr"]) if seen.get("literal") else None
    except (ValueError, SyntaxError):
        return None


def all_empty(before: dict[str, Any]) -> bool:
    """Whether every attribute observed before the call was an empty collection."""
    if not before:
        return False
    return all(seen.get("length") == 0 or _empty(_literal(seen)) for seen in before.values())


def _nothing(value: Any) -> bool:
    """An empty collection or text, None, or a zero position or count."""
    return _empty(value) or value is None or (type(value) is int and value == 0)


def _empty_in_empty_out(row: dict[str, Any]) -> bool:
    """Whether the call was given only empty collections or texts (beside zeros and Nones)
    and gave back (and kept) nothing: ``find_conflicts([], [])`` returning ``[]``, its loop
    never entered; ``parse_link("", 0)`` returning ``(None, None)``, nothing scanned."""
    args = list((row.get("args") or {}).values())
    if not any(_empty(value) for value in args) or not all(_nothing(v) for v in args):
        return False
    returned = row.get("returned") or {}
    answer = _literal(returned)
    items = answer if isinstance(answer, tuple) and answer else (answer,)
    if returned and returned.get("repr") != "None" and not all(_nothing(i) for i in items):
        return False
    return all(_empty(_literal(seen)) for seen in (row.get("state") or {}).values())


def _default_and_empty(before: dict[str, Any], built: Any) -> bool:
    """Whether the instance was built with no arguments and every collection it was seen to
    hold is empty, whatever its other settings (``PathLimit()``: no limits, a final key)."""
    if built != {}:
        return False
    sizes = [seen["length"] for seen in before.values() if isinstance(seen.get("length"), int)]
    values = [_literal(seen) for seen in before.values()]
    sizes += [len(v) for v in values if isinstance(v, list | tuple | dict | set)]
    return bool(sizes) and not any(sizes)


def empty_answer(
    row: dict[str, Any], name: str, owner_args: Any = None, function: Function | None = None
) -> bool:
    """Whether the test ``name`` of the probed call ``row`` pins only what an empty
    instance answers (one built with nothing, or with no arguments and nothing in its
    collections: ``owner_args``, the node's, where the row has none of its own), what
    any call given only empty collections gives back, or the ``None`` of a call the node
    (``function``) refused (see the module)."""
    if _refused_call(row, function) or _only_own_text(row, function):
        return True
    if any(condition in name for condition in _CONDITIONS) or row.get("raised"):
        return False
    if row.get("contents") or row.get("functions"):
        return False
    if _empty_in_empty_out(row):
        return True
    if returns_an_input(row, None):
        return False
    state, before = row.get("state") or {}, row.get("state_before") or {}
    if any(seen != before.get(attribute) for attribute, seen in state.items()):
        return False  # it changed its instance: that is a behaviour on an empty one too
    if row.get("size_before") == 0 or all_empty(before):
        return True
    return _default_and_empty(before, row.get("owner_args", owner_args))


def _refused_call(row: dict[str, Any], function: Function | None) -> bool:
    """Whether the call returned ``None`` where ``function`` returns a value on another
    path (see the module)."""
    returned = row.get("returned") or {}
    if row.get("raised") or returned.get("repr") != "None" or function is None:
        return False
    return returns_values(function)


# What makes a function's path depend on its input: with none, every input takes one path.
_BRANCHES = (
    ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.BoolOp, ast.Match,
    ast.comprehension, ast.Assert,
)  # fmt: skip


def _only_own_text(row: dict[str, Any], function: Function | None) -> bool:
    """Whether a function without a branch, given only empty collections or texts, gave
    back text made of its own string constants alone (see the module)."""
    args = list((row.get("args") or {}).values())
    if function is None or row.get("raised") or not args or not all(map(_empty, args)):
        return False
    answer = _literal(row.get("returned") or {})
    if not isinstance(answer, str) or not answer:
        return False
    if any(isinstance(node, _BRANCHES) for node in ast.walk(function)):
        return False
    constants = {
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value
    }
    for constant in sorted(constants, key=len, reverse=True):
        answer = answer.replace(constant, "")
    return not answer


def without_lone_empty_answers(
    pieces: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[str]]:
    """(the test pieces, none where every one is an empty answer; each left out with its
    reason). ``"empty_answer"`` marks a piece, and is taken off here."""
    alone = all(piece["empty_answer"] for piece in pieces)
    kept = [{k: v for k, v in p.items() if k != "empty_answer"} for p in pieces]
    if not alone:
        return kept, []
    why = (
        "what an empty instance or a refused call answers (nothing, None), and no test of "
        "what it gives otherwise beside it"
    )
    return [], [f"{piece['name']}: {why}" for piece in kept]
