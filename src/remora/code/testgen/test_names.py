"""A test's name says the one behaviour it checks: ``test_add_when_amount_below_0_raises``.

The name is the code's name, the condition the arguments were chosen for (a boundary the
code tests: ``when_amount_below_0``, or the value itself where the node tests that
subject elsewhere too: :mod:`.claimed_ranges`), or, for arguments chosen for nothing in
particular (a model's call too: its reason spells every argument), the branch the call
left the code by (:mod:`.taken_branch`: ``when_hashid_is_invalid``,
``when_rows_is_empty``, ``when_key_is_missing``, ``when_start_and_end_are_given``; for a
raise that none of these words, its message's verdict (:mod:`.message_conditions`:
``when_digit_is_invalid``, not the arguments that happened to reach it); for a call
that ran the plain path, its arguments off their default, or all of them where the
name would say nothing else (:func:`_off_default`); ``by_default`` for one that passes
no argument to parameters with defaults; for an instance the project's code or docs
build, what they filled it with: ``when_holding_2_entries``, ``after_add_rows``), and
what the test
asserts (:mod:`.outcome_words`: ``raises_value_error``, ``sets_limit_value``,
``stores_key``, ``returns_default``, ``returns_stored_value``;
``stores_key_and_returns_default`` where the whole name stays short;
``when_self_is_empty_leaves_items_unchanged`` where a procedure found nothing to do).
Neither a value the call returned, a key it handed over (``stores_zz``:
``stores_given_key``) nor a placeholder argument (``when_hashid_is_other_space_hashid``)
is spelled in the name; a parameter of one or two letters is worded by what the code
does with it (:mod:`.parameter_words`: ``when_key_is_missing_returns_default``, not
``when_k_is_missing_returns_d``); a ``*args`` parameter is worded by its items' lengths
where they differ (``when_iterables_differ_in_length``), else by their count
(``when_given_2_positional_arguments``), and a call that gives it nothing says so
(``when_given_no_iterables``, not ``by_default``). A procedure's test asserts no result,
and its name says none. A ``**kwargs`` keyword the code's keyed reads do not name is
"unread" only while the call's outcome does not show it stored or handed back
(``when_kwargs_has_a_keyword`` where it does). A method is named alone
(``test_limit_...``) unless another class of its module has a method of the same name
(``test_stock_item_add_...``). A name already taken is told apart by the arguments that
differ, never by a number (a model's call that nothing else tells apart keeps its
reason's words rather than be lost); a long condition loses whole clauses, never half of
one. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from remora import python_ast
from remora.code.testgen.claimed_ranges import honest_condition
from remora.code.testgen.empty_answers import all_empty
from remora.code.testgen.empty_results import yields
from remora.code.testgen.message_conditions import message_condition
from remora.code.testgen.outcome_words import outcome_words
from remora.code.testgen.parameter_words import in_words, parameter_words, state_words
from remora.code.testgen.stored_items import shows_key
from remora.code.testgen.taken_branch import branch_words, given_words
from remora.code.values import CallTarget, first_parameter, label, snake_name, unread_keyword_words
from remora.code.values.filled_instances import CALLS_KEY, is_item_assignment
from remora.code.values.parameters import function_parameters

__all__ = ["behaviour_name", "node_words"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# The arguments' reasons that say nothing about a condition (derived, not chosen).
_PLAIN_REASONS = {"typical", "varied_arguments", "doc", "as_called"}
# An instance built and filled as the project's code or docs do (:mod:`.built_instances`):
# where it came from is no condition (blind reviewers: "'when_as_documented' is a
# meaningless name"); what it holds is.
_BUILT_REASONS = {"as_built", "as_documented"}
# A model's call: its reason spells its arguments (``model_month_sample_month_year_2``).
_MODEL = "model_"
# An instance given the test's own function first (``after_connect``: filled_instances).
_AFTER = "after_"
_MAX_NAME = 72
# A name whose one condition does not fit in _MAX_NAME may run to this (a def line of 100).
_MAX_WHOLE = 92
# An argument's text longer than this, or of more than one word, is a placeholder
# ("sample hashid"), not a condition: it is not spelled out in the name.
_MAX_WORD = 12
# A generator's drained items named as what it yields (``yields_texts``): "returns_list" read
# as a claim that it returns a list (a blind reviewer: "wrong because expand is a generator").
_GENERATED = {"returns_list": "yields_items", "returns_empty_list": "yields_nothing"}
# A predicate's answer (or a look-up's None) named with no condition reads as its answer
# to everything (``test_key_is_valid_xml_returns_false``, ``test_lookup_returns_none``:
# blind reviewers, "the names don't say which input"), and a name of neither condition
# nor outcome says nothing ("the vague name test_encode", "test_parse is an empty name":
# the commonest of their name edits): all the arguments say what it was asked; another
# call's, those off their default.
_ANSWERS = frozenset({"returns_true", "returns_false", "returns_none"})


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


def _vararg(function: Function | None) -> str | None:
    return function.args.vararg.arg if function is not None and function.args.vararg else None


def _kwarg(function: Function | None) -> str | None:
    return function.args.kwarg.arg if function is not None and function.args.kwarg else None


def _condition(why: str, row: dict[str, Any], function: Function | None, lines: set[int]) -> str:
    double = _kwarg(function)
    if double is not None and why == unread_keyword_words(double):
        given = (row.get("args") or {}).get(double)
        # "unread" is the code text's guess; a keyword the call stored or handed back was read.
        if isinstance(given, dict) and any(shows_key(row, key) for key in given):
            return f"when_{double}_has_a_keyword"
    star = _vararg(function)
    # A ``*args`` item's words (``values_has_a``) name a placeholder, not a condition.
    starred = star is not None and why.startswith(f"{star}_")
    plain = why in _PLAIN_REASONS or why.endswith("_arguments") or why.startswith(_MODEL)
    if starred or plain:
        words = branch_words(function, lines, row)
        if not words and star is not None and starred:
            words = _star_words(star, (row.get("args") or {}).get(star) or ())
        return f"when_{words}" if words else ""
    if why.startswith(_AFTER):  # the instance's set-up call that took a test's function
        return why
    if why in _BUILT_REASONS:
        words = branch_words(function, lines, row)
        return f"when_{words}" if words else _filled_words(row)
    # A reason whose range the code does not bear out (a local's: ``port_int_below_0``)
    # leaves the branch the call took to say it (``port_below_0``: .taken_branch).
    honest = honest_condition(why, row, function) or branch_words(function, lines, row)
    return f"when_{honest}" if honest else ""


def _filled_words(row: dict[str, Any]) -> str:
    """What a built instance was given before the call: ``when_holding_2_entries`` (item
    sets of as many keys), ``after_add_rows`` (``_twice``, ``_3_times``: one method's
    calls); "" for calls of several methods, which no short words tell."""
    steps = (row.get("owner_args") or {}).get(CALLS_KEY) or []
    if not steps:
        return ""
    if all(is_item_assignment(step) for step in steps):
        keys = {repr(step["args"][0]) for step in steps}
        return "when_holding_an_entry" if len(keys) == 1 else f"when_holding_{len(keys)}_entries"
    methods = {step.get("method") for step in steps}
    if len(methods) != 1:
        return ""
    times = {1: "", 2: "_twice"}.get(len(steps), f"_{len(steps)}_times")
    return f"after_{snake_name(str(methods.pop()))}{times}"


def _star_words(star: str, items: list[Any] | tuple[Any, ...]) -> str:
    """A ``*args`` parameter's arguments as a condition: ``iterables_differ_in_length`` where
    they are lists or tuples of as many different lengths (the case of a function that
    walks several at once: which one runs out first), else how many there were."""
    lengths = {len(item) for item in items if isinstance(item, list | tuple)}
    if len(items) > 1 and len(lengths) == len(items):
        return f"{star}_differ_in_length"
    return given_words(len(items))


def _defaulted(function: Function | None) -> bool:
    """Whether the function has a parameter with a default: a call that passes none is
    its default case (blind reviewers: "checks the default mode", "by default returns the
    last item")."""
    if function is None:
        return False
    return bool(function.args.defaults) or any(d is not None for d in function.args.kw_defaults)


def _on_bare_instance(row: dict[str, Any], function: Function | None) -> bool:
    """Whether the call is a method's on an instance built with no argument."""
    if function is None or first_parameter(function) != "self":
        return False
    return not row.get("owner_args")


def _off_default(function: Function | None, args: dict[str, Any], *, every: bool) -> dict[str, Any]:
    """The arguments given a value other than their parameter's constant default: a mode
    the call asked for (``cdata=True``; ``test_dicttoxml`` for such a call read as the
    plain case, its blind reviewer: "named plain when it tests cdata"); with ``every``,
    those of parameters without a constant default too."""
    if function is None:
        return dict(args) if every else {}
    defaults = {p.name: p.default for p in function_parameters(function.args)}
    off: dict[str, Any] = {}
    for name, value in args.items():
        try:
            default = python_ast.literal_eval(defaults.get(name) or "")
        except (ValueError, SyntaxError):  # no default, or one that is no constant
            if every:
                off[name] = value
            continue
        if value != default or type(value) is not type(default):
            off[name] = value
    return off


def _filled(value: Any) -> bool:
    return isinstance(value, list | tuple | set | frozenset | dict) and bool(value)


def _one_word(text: str) -> bool:
    """A short word; a filler of one repeated character (``aaaaaaa``, chosen for its length)
    says nothing (a blind reviewer: "the name only repeats the input value")."""
    filler = len(text) > 2 and len(set(text)) == 1
    return 0 < len(text) <= _MAX_WORD and text.isalnum() and text.isascii() and not filler


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


def _argument_words(name: str, value: Any, star: str | None, word: str) -> str:
    """A call's argument as a condition: ``key_is_b``, ``items_is_empty``, ``items_has_2_items``,
    ``given_2_positional_arguments`` (``*args``); "" for a value whose words say nothing
    (an object, a placeholder text of several words). ``word``: the parameter's in a name."""
    if name == star and isinstance(value, list | tuple):
        return _star_words(word, value)
    if isinstance(value, list | tuple | set | frozenset | dict):
        return f"{word}_is_empty" if not value else f"{word}_has_{label(list(value))}"
    if isinstance(value, str) and value and not _one_word(value):
        return ""
    words = label(value)
    return "" if words in ("value", "text") else f"{word}_is_{words}"


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
    args, star = row.get("args") or {}, _vararg(function)
    renamed = parameter_words(function, args)  # ``k`` is the key, ``d`` the default
    condition = _condition(why, built, function, lines or set())
    if condition.startswith("when_"):
        spoken = in_words(condition.removeprefix("when_"), renamed)
        condition = f"when_{state_words(spoken, function)}"
    # a private attribute's words (``self._direction``) join with one underscore, not two
    condition = re.sub("_{2,}", "_", condition)
    outcomes = outcome_words(row, assigned, owner_args or {}, procedure, renamed)
    if not outcomes:
        return None
    if function is not None and yields(function):  # a generator's items, drained to a list
        outcomes = [
            _GENERATED.get(words, words.replace("returns_", "yields_", 1)) for words in outcomes
        ]
    outcome = outcomes[-1]
    # The result beside the items stored only where the whole name stays short.
    if len("_".join(p for p in (f"test_{node}", condition, outcomes[0]) if p)) <= _MAX_NAME:
        outcome = outcomes[0]
    word = {n: renamed.get(n, snake_name(n)) for n in args}
    if not condition and outcome.startswith("raises_"):  # "invalid digit": digit_is_invalid
        condition = message_condition(row)
    if not condition:  # what the call asked for, where nothing it ran says it
        asked = _off_default(function, args, every=outcome in _ANSWERS or not outcome)
        said = [
            w
            for n, v in asked.items()
            if n not in (star, _kwarg(function))  # a count of them says no case
            and not _filled(v)  # "when_graph_has_2_items" says no more than "test_x"
            and word[n] not in outcome.split("_")  # "returns_default" says ``d`` already
            and (w := _argument_words(n, v, star, word[n]))
        ]
        condition = f"when_{'_and_'.join(said)}" if said else ""
    if not condition and not args and star is not None:  # zip_broadcast(): nothing to zip
        condition = f"when_given_no_{renamed.get(star, snake_name(star))}"
    elif not condition and not args and _defaulted(function):  # peekitem(): its last item
        condition = "by_default"
    elif not condition and not args and outcome in _ANSWERS and _on_bare_instance(built, function):
        condition = "by_default"  # PatchedFile().is_added_file: "returns_false" reads "always"
    if outcome.startswith("leaves_") and not condition:  # unchanged, but under what?
        if not all_empty(row.get("state_before") or {}):
            return None  # "drop leaves items unchanged" would say drop never changes them
        condition = "when_self_is_empty"
    plain = "_".join(words for words in (f"test_{node}", outcome) if words)
    name = (_fitted(node, condition, outcome) if condition else None) or plain
    named = {} if named is None else named
    other = named.get(name)
    # A parameter the condition already words (``key_is_missing``) tells nothing more.
    clauses = condition.removeprefix("when_").split("_and_")
    worded = {n for n in args if any(clause.startswith(f"{word[n]}_") for clause in clauses)}
    told = [
        words
        for n, v in args.items()
        if n not in worded
        and (words := _argument_words(n, v, star, word[n]))
        and (
            other is None or n not in other or words != _argument_words(n, other[n], star, word[n])
        )
    ]
    current = condition
    for extra in told:
        if name not in used:
            break
        current = f"{current}_and_{extra}" if current else f"when_{extra}"
        name = _fitted(node, current, outcome) or name
    if name in used and why.startswith(_MODEL):  # its words, rather than lose what it covers
        name = _fitted(node, f"with_{why.removeprefix(_MODEL)}", outcome) or name
    if name in used:
        return None
    used.add(name)
    named[name] = dict(args)
    return name
