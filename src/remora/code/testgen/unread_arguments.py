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
- where there is neither, the call keeps it.

A list of made-up items the call uses is asked about again with each item a stand-in: one
it only holds, concatenates or hands back (``nxt + base``) reads none of them; one it
sorts or parses does. A call that still passes a made-up value it reads then gives no test
(:func:`made_up_left`): of the test changes of five projects' blind reviews
that showed one, none was merged as is and most were rejected ("feeds it only strings",
"has no directory parts"). Dropping them costs the branches only a placeholder reached;
a node without a test costs a maintainer nothing. An argument the search did not make up
(the project's own value, a boundary) stays, read or not.

An argument the search gave a parameter that has a default, though the call's words do
not name it (``register_scheme("", uses_netloc=None, query_plus_is_space=None)`` for
``when_uses_netloc_is_none``), is left out where the call without it has the same outcome,
in the same run: a blind reviewer asked to "drop the extra argument".

A method's instance built with a made-up value (``AnsiToWin32(wrapped="sample
wrapped")``) is built again, in the same run, with a stand-in there (a list's items one
by one): where that changes the outcome, or the items are used for more than what a
collection holds, the test pins what the instance made of a placeholder and is dropped
(:func:`made_up_owner`); one the instance only stores (``Basket(owner="sample owner")``
for ``add``) stays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.probes import probe_argument_sets
from remora.code.values import (
    CallTarget,
    Candidate,
    node_function,
    observed_attributes,
    parameter_of,
    project_class_lookup,
)
from remora.code.values.argument_fit import excluded_value
from remora.code.values.derived_sets import made_up

__all__ = [
    "USES_KEY",
    "made_up_arguments",
    "made_up_left",
    "made_up_owner",
    "same_outcome",
    "settle_unread",
    "without_made_up",
]
_STAND_IN = {"__unread__": True}
# A settled row's made-up arguments the call read: ``{parameter: [the stand-in's uses]}``.
USES_KEY = "made_up_uses"
# A settled row's constructor parameters whose made-up value the outcome depends on.
OWNER_USES_KEY = "made_up_owner_uses"
# Uses that hold a value without reading what it says: hashing and equality (a key held, a
# name compared), its class (``isinstance``), its place in an f-string (a message), a
# stored value's repr where a test reads it back. ``str(value)`` is a read: the text is
# what a sort key or a parser goes on to work on (natsort's os_sorted sorted its
# placeholders' text).
_CARRIED = frozenset(
    {"hash", "==", "!=", "repr", "__format__"}
    | {"attribute __class__", "attribute __hash__", "attribute __eq__", "attribute __ne__"}
)
_SIMPLE = (bool, int, float, str)
# The receiver's names: a module-level function taking one is a method of a class elsewhere.
_RECEIVERS = frozenset({"self", "cls"})


def made_up_arguments(
    target: CallTarget, args: dict[str, Any], misfit: Callable[[str, Any], bool]
) -> list[str]:
    """The call's arguments worth asking about: made up by the search, or one ``misfit``
    says the node's code excludes; never a ``*args``/``**kwargs`` one."""
    plain = {
        str(p["name"])
        for p in target["parameters"]
        if p["kind"] not in ("var_positional", "var_keyword")
    }
    return [
        name
        for name, value in args.items()
        if name in plain and (made_up(name, value) or misfit(name, value))
    ]


def made_up_left(row: dict[str, Any]) -> list[str]:
    """The parameters (each with what the call did with it) to which a settled call
    (:func:`settle_unread`) still passes a made-up value that it reads for what it says:
    it does more with it than store, hash, compare, type-check or show it
    (``separator.join(parts)``, ``text.endswith(suffix)``, iterating over a placeholder
    "table"). Blind reviewers rejected or rewrote every test they saw
    that pinned what code does with a placeholder; a key a store holds, or a name it keeps
    and shows, is a placeholder a test may show; a made-up mapping is none (``{"alpha":
    ..., "beta": ...}`` stored as a parser's token: "not tokens at all"), its keys are no
    name a reader recognises. A made-up ``self`` or ``cls`` of a module-level function
    (a plugin's renderer, attached to a class elsewhere) is one read or not: "a fake
    'sample self'"."""
    uses: dict[str, list[str]] = row.get(USES_KEY) or {}
    return [
        f"{name} ({', '.join(uses.get(name) or ['given'])})"
        for name, value in (row.get("args") or {}).items()
        if made_up(name, value)
        and (
            name in _RECEIVERS
            or (name in uses and (isinstance(value, dict) or not set(uses[name]) <= _CARRIED))
        )
    ]


def made_up_owner(row: dict[str, Any]) -> list[str]:
    """The constructor parameters to which the test's set-up passes a made-up value that
    plays a part in the outcome (:func:`settle_unread` built the instance again with a
    stand-in there: ``AnsiToWin32(wrapped="sample wrapped")``, whose method answered as
    it did only because a string has no ``.closed``, a blind reviewer found). One the
    instance only stores (``Basket(owner="sample owner")`` for ``add``) is none."""
    return list(row.get(OWNER_USES_KEY) or [])


def without_made_up(
    rows: dict[str, dict[str, Any]], chosen: list[str], candidates: dict[str, Candidate]
) -> tuple[list[str], list[str]]:
    """The chosen calls that pass no made-up value they read (:func:`made_up_left`) on an
    instance built with none (:func:`made_up_owner`), and for each other a line saying
    what it passed."""
    kept: list[str] = []
    dropped: list[str] = []
    for name in chosen:
        if left := made_up_left(rows[name]):
            dropped.append(f"{candidates[name].why}: passes made-up {', '.join(left)}")
        elif owner := made_up_owner(rows[name]):
            dropped.append(f"{candidates[name].why}: its instance gets made-up {', '.join(owner)}")
        else:
            kept.append(name)
    return kept, dropped


def _misfit(context: CodeContext, target: CallTarget) -> Callable[[str, Any], bool]:
    """Whether the node's annotations or uses exclude a value for a parameter."""
    params = [parameter_of(p) for p in target["parameters"]]
    function = node_function(context)
    lookup = project_class_lookup(context)
    module = python_ast.parse(context.node_file_text())

    def excludes(name: str, value: Any) -> bool:
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
    return (
        bool(row.get("ok")),
        returned,
        (raised.get("type"), raised.get("module"), raised.get("message")),
        row.get("state"),
        row.get("contents"),
    )


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
        if key != own and isinstance(value, _SIMPLE) and not made_up(name, value):
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


async def settle_unread(
    context: CodeContext,
    target: CallTarget,
    candidates: dict[str, Candidate],
    rows: dict[str, dict[str, Any]],
    chosen: list[str],
    owner_args: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """The rows of the chosen calls with each made-up argument they never read replaced
    (or left out) where something replaces it, and the uses of those they read under
    :data:`USES_KEY`; for a method, the made-up values of its instance's constructor
    (the call's own ``owner_args``, else the node's) that its outcome depends on, under
    :data:`OWNER_USES_KEY`: one probe run for them all."""
    misfit = _misfit(context, target)
    sets: list[dict[str, Any]] = []
    asked: dict[str, list[tuple[str, dict[str, Any] | None]]] = {}
    for name in chosen:
        args = rows[name].get("args") or {}
        owner = candidates[name].owner_args
        extra = {"owner_args": owner} if owner is not None else {}
        # The candidate's own arguments carry the marks; the row's are what was passed.
        for param in made_up_arguments(target, candidates[name].args, misfit):
            replacement = _replacement(target, param, name, candidates)
            asked.setdefault(name, []).append((param, replacement))
            calls = [{"name": f"{name}/{param}/unread", "args": {**args, param: _STAND_IN}}]
            if isinstance(args.get(param), list) and args[param]:  # its items stood in too
                items = [_STAND_IN] * len(args[param])
                calls.append({"name": f"{name}/{param}/items", "args": {**args, param: items}})
            if replacement is not None:
                calls.append(
                    {"name": f"{name}/{param}/as", "args": _with(args, param, replacement)}
                )
            sets += [{**call, **extra} for call in calls]
        for param in _extra_arguments(target, candidates[name], asked.get(name, [])):
            asked.setdefault(name, []).append((param, None))
            sets.append({"name": f"{name}/{param}/left", "args": _with(args, param, {}), **extra})
    owned = _owner_sets(rows, chosen, candidates, owner_args)
    sets += [call for tries in owned.values() for _, _, call in tries]
    settled: dict[str, dict[str, Any]] = {}
    if not sets:
        return settled
    text = context.node_file_text()
    observe = observed_attributes(target, node_function(context), text)
    probed, _ = await probe_argument_sets(context, sets, observe=observe)
    by_name = {str(row["name"]): row for row in probed}
    for name, params in asked.items():
        row, args = rows[name], dict(rows[name].get("args") or {})
        uses: dict[str, list[str]] = {}
        for param, replacement in params:
            if (left := by_name.get(f"{name}/{param}/left")) is not None:
                args = _with(args, param, {}) if same_outcome(left, row, calls=True) else args
                continue
            unread = by_name[f"{name}/{param}/unread"]
            held = by_name.get(f"{name}/{param}/items")
            if not same_outcome(unread, row) and held is not None:
                # A list of made-up items the call only holds, joins or hands back (``nxt +
                # base``) reads none of them; one it sorts or parses does.
                used = held.get("unread_used") or ([] if held.get("ok") else ["an error"])
                uses.update({param: list(used)} if used else {})
            elif not same_outcome(unread, row):
                # The call reads it (or failed on the stand-in, a use no operation shows).
                uses[param] = list(unread.get("unread_used") or ["a different outcome"])
            elif replacement is not None and same_outcome(
                by_name[f"{name}/{param}/as"], row, calls=True
            ):
                args = _with(args, param, replacement)
            # else unread but nothing replaces it, or its identity counts (``b is None``
            # with b=None its default): it stays
        if args != row.get("args") or uses:
            settled[name] = {**row, "args": args, USES_KEY: uses}
    for name, tries in owned.items():
        read = [
            p for p, items, call in tries if _owner_read(by_name[call["name"]], rows[name], items)
        ]
        if read:
            settled[name] = {**settled.get(name, rows[name]), OWNER_USES_KEY: read}
    return settled


def _owner_sets(
    rows: dict[str, dict[str, Any]],
    chosen: list[str],
    candidates: dict[str, Candidate],
    owner_args: dict[str, Any] | None,
) -> dict[str, list[tuple[str, bool, dict[str, Any]]]]:
    """Per chosen call whose instance is built with made-up values, the same call on an
    instance built with a stand-in for each of them (a list's items standing in one by
    one: labels a shelf only holds are elements), with the parameter it stands for and
    whether its items stood in."""
    owned: dict[str, list[tuple[str, bool, dict[str, Any]]]] = {}
    for name in chosen:
        owner = candidates[name].owner_args
        owner = owner_args if owner is None else owner
        if not isinstance(owner, dict) or "__expression__" in owner:
            continue
        args = rows[name].get("args") or {}
        for param, value in owner.items():
            if made_up(param, value):
                items = isinstance(value, list)
                built = {**owner, param: [_STAND_IN] * len(value) if items else _STAND_IN}
                call = {"name": f"{name}/owner {param}/unread", "args": args, "owner_args": built}
                owned.setdefault(name, []).append((param, items, call))
    return owned


def _owner_read(probed: dict[str, Any], row: dict[str, Any], items: bool) -> bool:
    """Whether the instance built with stand-ins shows that the outcome of ``row`` depends
    on them: a value in their place gives another outcome (or none); ``items`` in their
    place were used for more than what they hold (hashed, compared: elements of a
    collection), or the instance could not be built on them."""
    if not items:
        return not same_outcome(probed, row)
    uses = set(probed.get("unread_used") or ())
    return not probed.get("ok") or not uses <= _CARRIED
