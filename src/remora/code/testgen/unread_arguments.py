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
- where there is neither, the call stays as it is: blind reviewers marked such a test "edit"
  (worth pinning, the value to be changed), not "reject", and dropping it lost real tests
  (half the branches of a module the search had covered whole).

An argument the search did not make up (the project's own value, a boundary) stays,
read or not; so does a made-up one the call reads.
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

__all__ = ["made_up_arguments", "same_outcome", "settle_unread"]
_STAND_IN = {"__unread__": True}
_SIMPLE = (bool, int, float, str)


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


def _misfit(context: CodeContext, target: CallTarget) -> Callable[[str, Any], bool]:
    """Whether the node's annotations or uses exclude a value for a parameter."""
    params = [parameter_of(p) for p in target["parameters"]]
    function = node_function(context)
    lookup = project_class_lookup(context)
    module = python_ast.parse(context.node_file_text())

    def excludes(name: str, value: Any) -> bool:
        return excluded_value(function, params, {name: value}, lookup, module) is not None

    return excludes


def same_outcome(row: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two probed calls did the same: neither used a stand-in argument, and each
    returned the same value or raised the same exception, leaving the same state."""
    if row.get("unread_used") or other.get("unread_used"):
        return False
    return _outcome(row) == _outcome(other)


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
    default, ``{"value": V}`` with another call's value for it that is not made up, or
    None when there is neither."""
    defaults = {str(p["name"]): p.get("default") for p in target["parameters"]}
    if defaults.get(name) is not None:
        return {}
    for key, candidate in candidates.items():
        value = candidate.args.get(name)
        if key != own and isinstance(value, _SIMPLE) and not made_up(name, value):
            return {"value": value}
    return None


def _with(args: dict[str, Any], name: str, replacement: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in args.items() if k != name}
    return {**rest, name: replacement["value"]} if replacement else rest


async def settle_unread(
    context: CodeContext,
    target: CallTarget,
    candidates: dict[str, Candidate],
    rows: dict[str, dict[str, Any]],
    chosen: list[str],
) -> dict[str, dict[str, Any]]:
    """The rows of the chosen calls with each made-up argument they never read replaced
    (or left out) where something replaces it: one probe run for them all."""
    misfit = _misfit(context, target)
    sets: list[dict[str, Any]] = []
    asked: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for name in chosen:
        args = rows[name].get("args") or {}
        owner = candidates[name].owner_args
        extra = {"owner_args": owner} if owner is not None else {}
        # The candidate's own arguments carry the marks; the row's are what was passed.
        for param in made_up_arguments(target, candidates[name].args, misfit):
            replacement = _replacement(target, param, name, candidates)
            if replacement is None:
                continue  # nothing better to pass: the call stays, its behaviour pinned
            asked.setdefault(name, []).append((param, replacement))
            sets.append({"name": f"{name}/{param}/unread", "args": {**args, param: _STAND_IN}})
            sets.append({"name": f"{name}/{param}/as", "args": _with(args, param, replacement)})
            for added in sets[-2:]:
                added.update(extra)
    settled: dict[str, dict[str, Any]] = {}
    if not sets:
        return settled
    text = context.node_file_text()
    observe = observed_attributes(target, node_function(context), text)
    probed, _ = await probe_argument_sets(context, sets, observe=observe)
    by_name = {str(row["name"]): row for row in probed}
    for name, params in asked.items():
        row, args = rows[name], dict(rows[name].get("args") or {})
        for param, replacement in params:
            if not same_outcome(by_name[f"{name}/{param}/unread"], row):
                continue  # the call reads it (or the probe could not tell): it stays
            if same_outcome(by_name[f"{name}/{param}/as"], row):
                args = _with(args, param, replacement)
            # else its identity counts (``b is None`` with b=None its default): it stays
        if args != row.get("args"):
            settled[name] = {**row, "args": args}
    return settled
