"""No test whose made-up argument plays no part in what it pins (issue 56).

``power(a=10**6, b="sample b")`` pins the ``ValueError`` the check on ``a`` raises
first: ``b`` is never read, a reader sees a nonsense value, and were the checks
reordered the test would fail with a ``TypeError`` instead: it passes for another
reason than its name says. So each kept call's argument the search made up (the
placeholder :func:`~remora.code.values.derived_sets.made_up` says it gave that
parameter), or one of a kind the node's annotations or uses exclude
(:func:`~remora.code.values.argument_fit.excluded_value`), is called again in the same
sandboxed probe, all of them in one run, replaced by a stand-in that records any use of
it (:mod:`remora.code.probes.programs.unread_argument`: passing or storing it is none;
reading, comparing, printing it is, and so is a stored one the test would assert).
Where nothing used it and the outcome is the same (the value returned, or the
exception's type and message, and the state and items a test asserts),
the argument plays no part on this path:

- a parameter with a default is left out of the call; one without gets the first simple
  value of another of the search's calls for it that is not made up (derived from the
  code's use of it, or the project's own), each where the call so made gives the same
  outcome too, in the same run (else the stand-in missed a read no operation shows,
  ``b is None``, and the argument stays);
- where there is neither, the call keeps it (and shows it: see below).

The made-up constructor arguments of the call's instance (``Line("sample value", "+")``
for ``is_added``, which reads only the type) are asked about the same way, all at once:
where none is used (their stand-ins) and the call gives the same outcome with each given
the empty value of its kind (``""``, ``[]``, ``{}``), the test builds ``Line("", "+")``:
the method does not look at them, and an empty value says so where a placeholder reads
as data.

A call that still shows a made-up value then, in its arguments or in its instance's
constructor (``Grammar(terminals=["sample terminal", "other terminal"])``,
``AnsiToWin32(wrapped="sample wrapped")``), read or not, gives no test
(:func:`without_made_up`). Of the test changes of five projects' blind reviews that
passed one the call read, none was merged as is ("feeds it only strings", "has no
directory parts"); of those of six projects that showed one at all (``"sample level"``,
``s={"sample n": "sample s"}``), one in nineteen was, against one in four of the rest
("its values are nonsense"). Dropping them costs the branches only a placeholder reached; a node
without a test costs a maintainer nothing. An argument the search did not make up (the
project's own value, a boundary) stays, read or not; a made-up one that nothing can
replace is not asked about (its call is dropped whatever the answer).

A ``None`` for a parameter the node neither declares nor tells apart
(:func:`~remora.code.values.untold_nones.untold_none`) is asked about the same way; one
the call reads (``str_coerce(None) == "None"``, ``dumps(None) == "null"``) gives no test
either, unless the call raised.

The dict kind's sample ``{"a": 1, "b": 0}`` counts as made up where the code wants keys
of its own (:mod:`remora.code.testgen.invented_values`).

Of a raised message whose test matches its fixed words (:mod:`.message_words`), only
those count: ``sender=None`` formatted into "Signal cannot be None (receiver=None
sender=None)" changes nothing ``match="Signal cannot be None"`` reads.

An argument the search gave a parameter that has a default, though the call's words do
not name it (``register_scheme("", uses_netloc=None, query_plus_is_space=None)`` for
``when_uses_netloc_is_none``), is left out where the call without it has the same outcome,
in the same run: a blind reviewer asked to "drop the extra argument".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.probes import probe_argument_sets
from remora.code.python_floor import floor_of
from remora.code.testgen.invented_values import invented
from remora.code.testgen.message_words import with_fixed_words
from remora.code.values import (
    CallTarget,
    Candidate,
    node_function,
    observed_attributes,
    parameter_of,
    project_class_lookup,
)
from remora.code.values.argument_fit import excluded_value
from remora.code.values.untold_nones import Function, untold_none

__all__ = [
    "USES_KEY",
    "made_up_arguments",
    "same_outcome",
    "settle_unread",
    "without_made_up",
]
_STAND_IN = {"__unread__": True}
# A settled row's made-up arguments the call read: ``{parameter: [the stand-in's uses]}``.
USES_KEY = "made_up_uses"
_SIMPLE = (bool, int, float, str)
# The kinds of made-up constructor argument emptied (settle_unread): "", [], {}.
_EMPTIED = (str, list, dict)
# A stand-in's uses that only make text of it (``%r`` in a raised message).
_TEXT_USES = frozenset({"repr", "str", "__format__"})
# The receiver's names: a module-level function taking one is a method of a class elsewhere.
_RECEIVERS = frozenset({"self", "cls"})


def made_up_arguments(
    target: CallTarget,
    args: dict[str, Any],
    misfit: Callable[[str, Any], bool],
    function: Function | None = None,
) -> list[str]:
    """The call's arguments worth asking about: made up by the search for ``function``'s
    parameters (:func:`invented`), or one ``misfit`` says the node's code excludes; never
    a ``*args``/``**kwargs`` one."""
    plain = {
        str(p["name"])
        for p in target["parameters"]
        if p["kind"] not in ("var_positional", "var_keyword")
    }
    return [
        name
        for name, value in args.items()
        if name in plain and (invented(name, value, function) or misfit(name, value))
    ]


def _shown_made_up(
    row: dict[str, Any], owner_args: dict[str, Any] | None, function: Function | None
) -> list[str]:
    """The parameters, of the call (of ``function``) and of its instance's constructor,
    given a made-up value (:func:`invented`) that the test would show, each with what the
    call did with it where :func:`settle_unread` saw it read."""
    uses: dict[str, list[str]] = row.get(USES_KEY) or {}
    given = [(p, v, function) for p, v in (row.get("args") or {}).items()]
    given += [(p, v, None) for p, v in (owner_args or {}).items()]
    return [
        f"{name} ({', '.join(uses[name])})" if name in uses else name
        for name, value, code in given
        if invented(name, value, code)
    ]


def without_made_up(
    rows: dict[str, dict[str, Any]],
    chosen: list[str],
    candidates: dict[str, Candidate],
    owner_args: dict[str, Any] | None = None,
    function: Function | None = None,
) -> tuple[list[str], list[str]]:
    """The chosen calls that show no made-up value, passed or given to the instance they
    are made on (the call's own ``owner_args``, else the node's), nor a ``None`` they read
    that ``function`` never tells apart, and for each other a line saying what it
    showed."""
    kept: list[str] = []
    dropped: list[str] = []
    for name in chosen:
        owner = candidates[name].owner_args
        given = owner_args if owner is None else owner
        given = rows[name].get("owner_args", given)  # emptied by settle_unread
        if shown := _shown_made_up(rows[name], given, function):
            dropped.append(f"{candidates[name].why}: shows made-up {', '.join(shown)}")
        elif read := _read_nones(function, rows[name]):
            dropped.append(f"{candidates[name].why}: reads the None given for {', '.join(read)}")
        else:
            kept.append(name)
    return kept, dropped


def _read_nones(function: Function | None, row: dict[str, Any]) -> list[str]:
    """The parameters given a ``None`` that :func:`settle_unread` saw read where the node
    never tells ``None`` apart (:func:`~remora.code.values.untold_nones.untold_none`); none
    where the call raised."""
    if function is None or row.get("raised"):
        return []
    uses = row.get(USES_KEY) or {}
    given = (row.get("args") or {}).items()
    return [p for p, v in given if v is None and p in uses and untold_none(function, p)]


def _misfit(context: CodeContext, target: CallTarget) -> Callable[[str, Any], bool]:
    """Whether the node's annotations or uses exclude a value for a parameter."""
    params = [parameter_of(p) for p in target["parameters"]]
    function = node_function(context)
    lookup = project_class_lookup(context)
    module = python_ast.parse(context.node_file_text())

    def excludes(name: str, value: Any) -> bool:
        if value is None and function is not None and untold_none(function, name):
            return True  # ``str_coerce(None)``: a None the node never tells apart
        return excluded_value(function, params, {name: value}, lookup, module) is not None

    return excludes


def same_outcome(row: dict[str, Any], other: dict[str, Any], calls: bool = False) -> bool:
    """Whether two probed calls did the same: neither used a stand-in argument, and each
    returned the same value or raised the same exception, leaving the same state; with
    ``calls``, making the same calls of the test's own functions too (a value handed on to
    one is not read, but a test that asserts its calls shows it)."""
    if row.get("unread_used") or other.get("unread_used"):
        return False
    same = _outcome(row) == _outcome(other)
    return same and (not calls or row.get("functions") == other.get("functions"))


def _outcome(row: dict[str, Any]) -> tuple[Any, ...]:
    returned = {k: v for k, v in (row.get("returned") or {}).items() if k != "twin"}
    raised = row.get("raised") or {}
    # the words a test matches where it matches some (message_words), else the whole message
    message = raised.get("match") or raised.get("message")
    return (
        bool(row.get("ok")),
        returned,
        (raised.get("type"), raised.get("module"), message),
        row.get("state"),
        row.get("contents"),
    )


def _only_worded(unread: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether the stand-in was only turned into text on the way to a raise whose test
    matches the message's fixed words, which it is no part of."""
    uses = set(unread.get("unread_used") or ())
    return bool(uses) and uses <= _TEXT_USES and bool((row.get("raised") or {}).get("match"))


def _replacement(
    target: CallTarget, name: str, own: str, candidates: dict[str, Candidate]
) -> dict[str, Any] | None:
    """How the call ``own`` passes ``name`` instead: ``{}`` (left out) where it has a
    default, ``{"value": V}`` with another call's value for it that is not made up (for a
    module-level function's ``self`` or ``cls`` none there, ``None``: what the call never
    reads), or None when there is neither."""
    defaults = {str(p["name"]): p.get("default") for p in target["parameters"]}
    if defaults.get(name) is not None:
        return {}
    for key, candidate in candidates.items():
        value = candidate.args.get(name)
        if key != own and isinstance(value, _SIMPLE) and not invented(name, value, None):
            return {"value": value}
    return {"value": None} if name in _RECEIVERS else None


def _extra_arguments(
    target: CallTarget, candidate: Candidate, asked: list[tuple[str, Any]]
) -> list[str]:
    """The candidate's arguments for parameters with a default that its words do not name
    and that are not asked about as made up."""
    defaulted = {str(p["name"]) for p in target["parameters"] if p.get("default") is not None}
    taken = {param for param, _ in asked}
    return [
        name
        for name in candidate.args
        if name in defaulted and name not in taken and name not in candidate.why
    ]


def _with(args: dict[str, Any], name: str, replacement: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in args.items() if k != name}
    return {**rest, name: replacement["value"]} if replacement else rest


def _made_up_owner(owner: dict[str, Any] | None) -> list[str]:
    """The constructor arguments the search made up, where each has an empty value of its
    kind to take its place ([] where one has none: a number, an instance)."""
    if not owner or "__expression__" in owner:
        return []
    made_up = [p for p, v in owner.items() if p != "__calls__" and invented(p, v, None)]
    return [] if any(type(owner[p]) not in _EMPTIED for p in made_up) else made_up


async def settle_unread(
    context: CodeContext,
    target: CallTarget,
    candidates: dict[str, Candidate],
    rows: dict[str, dict[str, Any]],
    chosen: list[str],
    owner_args: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """The rows of the chosen calls with each made-up argument they never read replaced
    (or left out) where something replaces it, their instance's made-up constructor
    arguments emptied where that changes nothing (``owner_args``: the node's instance, for
    a call without its own), and the uses of those they read under :data:`USES_KEY`: one
    probe run for them all."""
    misfit = _misfit(context, target)
    function = node_function(context)
    sets: list[dict[str, Any]] = []
    asked: dict[str, list[tuple[str, dict[str, Any] | None]]] = {}
    emptied: dict[str, dict[str, Any]] = {}
    for name in chosen:
        args = rows[name].get("args") or {}
        owner = candidates[name].owner_args
        extra = {"owner_args": owner} if owner is not None else {}
        built = owner if owner is not None else owner_args
        if built and (made_up := _made_up_owner(built)):
            emptied[name] = {**built, **{p: type(built[p])() for p in made_up}}
            unread = {**built, **{p: _STAND_IN for p in made_up}}
            sets.append({"name": f"{name}/owner/unread", "args": args, "owner_args": unread})
            sets.append({"name": f"{name}/owner/empty", "args": args, "owner_args": emptied[name]})
        # The candidate's own arguments carry the marks; the row's are what was passed.
        for param in made_up_arguments(target, candidates[name].args, misfit, function):
            replacement = _replacement(target, param, name, candidates)
            if replacement is None and invented(param, args.get(param), function):
                continue  # it stays, shown: the call gives no test (without_made_up)
            asked.setdefault(name, []).append((param, replacement))
            calls = [{"name": f"{name}/{param}/unread", "args": {**args, param: _STAND_IN}}]
            if replacement is not None:
                calls.append(
                    {"name": f"{name}/{param}/as", "args": _with(args, param, replacement)}
                )
            sets += [{**call, **extra} for call in calls]
        for param in _extra_arguments(target, candidates[name], asked.get(name, [])):
            asked.setdefault(name, []).append((param, None))
            sets.append({"name": f"{name}/{param}/left", "args": _with(args, param, {}), **extra})
    settled: dict[str, dict[str, Any]] = {}
    if not sets:
        return settled
    text = context.node_file_text()
    observe = observed_attributes(target, node_function(context), text)
    probed, _ = await probe_argument_sets(context, sets, observe=observe)
    path = context.bound_node().file_path
    python2 = floor_of(context, path).python2  # a row with the words its test would match
    matched = partial(with_fixed_words, source=text, file_path=path, python2=python2)
    by_name = {str(row["name"]): matched(row) for row in probed}
    for name, plain in emptied.items():
        row = matched(rows[name])
        untouched = same_outcome(by_name[f"{name}/owner/unread"], row)
        if untouched and same_outcome(by_name[f"{name}/owner/empty"], row, calls=True):
            settled[name] = {**row, "owner_args": plain}
    for name, params in asked.items():
        row = matched(settled.get(name, rows[name]))
        args = dict(row.get("args") or {})
        uses: dict[str, list[str]] = {}
        for param, replacement in params:
            if (left := by_name.get(f"{name}/{param}/left")) is not None:
                args = _with(args, param, {}) if same_outcome(left, row, calls=True) else args
                continue
            unread = by_name[f"{name}/{param}/unread"]
            replaced = replacement is not None and same_outcome(
                by_name[f"{name}/{param}/as"], row, calls=True
            )
            if same_outcome(unread, row) or (replaced and _only_worded(unread, row)):
                if replaced and replacement is not None:
                    args = _with(args, param, replacement)
                # else unread but nothing replaces it, or its identity counts (``b is
                # None`` with b=None its default): it stays
            else:
                # The call reads it (or failed on the stand-in, a use no operation shows).
                uses[param] = list(unread.get("unread_used") or ["a different outcome"])
        if args != row.get("args") or uses:
            settled[name] = {**row, "args": args, USES_KEY: uses}
    return settled
