"""Whether a rewrite keeps what the code does: the node called before and after, the same answers,
and those calls measured to have run every line and both sides of every branch it replaces.

A model's rewrite can pass every static check (it parses, the finding is gone,
no call or read is lost) and still change what the code does: E711's
``if x == None`` rewritten ``if x is not None``, UP031's ``'%s{2,}' % sep``
rewritten ``f'{sep}{2,}'``. For a function or method that can be called from
outside (a special method such as ``__str__`` on an instance), argument sets are
called in the command sandbox on the file as it was and as rewritten
(:func:`remora.code.probes.calls.probe_argument_sets`, the project read-only with the
workspace's edited files over it: a copy of the whole project per check was most
of a lint run's host time on SQLAlchemy; a call that writes into the project
raises there, and is not compared). The sets are the derived ones and the test
search's round one (:func:`remora.code.values.host_candidates.host_candidates`: each
boundary the code tests, a method's owner in each state it branches on), a
method's on owners built from each of its class's derived sets too, and the
derived ones again with every whole number given a fraction (the 0.5B model wrote
``"%d.%d" % (a, b)`` as ``f"{a}.{b}"``: the same text for whole numbers only). The rewrite
keeps what the code does only when every call that ran both times returned an
equal value (its repr, where the repr is a literal, a set's items in one order; else its
type), raised the same exception and left the instance's changed attributes equal.

Equal answers prove nothing about code no call ran: a ``__str__`` appending two
optional parts under their own ``if`` was rewritten as one f-string of the first
three, and a ``__repr__`` lost ``%r``'s quotes, because the one derived instance
reached neither ``if`` and held no string (issue 57). So the old code runs under
coverage.py in branch mode (:mod:`remora.code.probes.programs.coverage_support`), and
the rewrite is kept only when the compared calls ran every statement of the
replaced lines and took both sides of every branch there. Each call is made again with
each parameter that has a default left out: pyrsistent's ``pmap(initial={}, pre_size=0)``
was rewritten with ``initial=None``, which only ``pmap(pre_size=n)`` tells apart (a
blind reviewer found every record construction broken). A statement a call
raised from ran only up to the raise, so it does not count as run by that call
(:func:`~remora.code.probes.programs.raised_frames.left_through`): multipledispatch's
``"File: %s\\n\\n" % inspect.getsourcefile(func)`` lost its newlines as an f-string,
and every call had raised inside that line. A rewrite no call
could check (a file, a class body, a nested function) is refused too: leaving a
finding for the reviewer costs less than a wrong fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.probes import (
    Span,
    context_units,
    derived_argument_sets,
    in_file,
    node_call_target,
    node_span,
    probe_argument_sets,
)
from remora.code.values import (
    CallTarget,
    argument_sets,
    host_candidates,
    is_instance_method,
    node_function,
    observed_attributes,
    parameter_of,
    project_class_lookup,
)
from remora.sandbox.envelope import ExternalRefused

__all__ = ["behaviour_change", "raised_lines", "unmeasured"]

SETS = 4
# Calls per check, old and new each: the derived sets, round one of the test search and the
# owner variants. One sandboxed process each way, under the per-call time limit.
MAX_CALLS = 64


def _answer(row: dict[str, Any]) -> tuple[str, ...] | None:
    """What a call gave, comparable across two processes; None when it did not run."""
    raised = row.get("raised")
    if raised is not None:
        if raised.get("on_argument") or raised["type"] == "CallTimeout":
            return None
        if "Read-only file system" in raised["message"]:  # EROFS: only the sandbox's
            return None
        return ("raised", raised["module"], raised["type"], raised["message"])
    returned = row.get("returned")
    if returned is None:
        return None
    shown = _comparable(returned["repr"]) if returned["literal"] else ""
    return ("returned", returned["type_module"], returned["type"], shown)


def _ordered(value: Any) -> Any:
    """``value`` with every set's items in one order: a set's repr follows its items'
    hashes, which differ from one process to the next for text."""
    if isinstance(value, set | frozenset):
        return (type(value).__name__, sorted((_ordered(v) for v in value), key=repr))
    if isinstance(value, list | tuple):
        return type(value)(_ordered(v) for v in value)
    if isinstance(value, dict):
        return {k: _ordered(v) for k, v in value.items()}
    return value


def _comparable(text: str) -> str:
    """A literal repr as two runs of the same code give it: ``{'b', 1}`` and ``{1, 'b'}``
    alike (the set ``items | {other}`` printed in another order than ``items | set([other])``,
    each in its own process)."""
    try:
        return repr(_ordered(python_ast.literal_eval(text)))
    except (ValueError, SyntaxError, TypeError):
        return text


def _state(row: dict[str, Any]) -> dict[str, str]:
    """The instance's changed attributes after the call, as far as they compare."""
    return {
        name: _comparable(seen["repr"]) if seen["literal"] else f"length {seen.get('length', '?')}"
        for name, seen in (row.get("state") or {}).items()
    }


def _call_sets(context: CodeContext, target: CallTarget, span: Span) -> list[dict[str, Any]]:
    """The argument sets called before and after, each named (its coverage context)."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(args: dict[str, Any], owner_args: dict[str, Any] | None) -> None:
        key = repr((args, owner_args))
        if key in seen or len(found) >= MAX_CALLS:
            return
        seen.add(key)
        entry: dict[str, Any] = {"name": f"call_{len(found)}", "args": args}
        if owner_args is not None:
            entry["owner_args"] = owner_args
        found.append(entry)

    derived = derived_argument_sets(context, SETS)
    for row in derived:
        add(row["args"], None)
    if is_instance_method(target):
        # The instance in each derived shape: a string where the class takes one, an
        # optional part given, not only the defaults.
        owners = argument_sets(
            [parameter_of(p) for p in target["owner_parameters"]], project_class_lookup(context)
        )
        for owner in owners:
            for row in derived[:2]:
                add(row["args"], owner["args"])
        for owner in owners[:2]:
            add(_fractional(derived[0]["args"]) if derived else {}, _fractional(owner["args"]))
    for row in derived[:2]:
        add(_fractional(row["args"]), None)
    candidates = host_candidates(context, target)
    for candidate in candidates:
        add(candidate.args, candidate.owner_args)
    # Each parameter with a default left out, the others as given: a rewrite of a default
    # (``pmap(initial={}, pre_size=0)`` to ``initial=None``) shows only in the calls that
    # rely on it beside another argument (``pmap(pre_size=4)``: ``dict(None)`` raises).
    defaulted = {str(p["name"]) for p in target["parameters"] if p.get("default") is not None}
    for args, owner_args in [(r["args"], None) for r in derived] + [
        (c.args, c.owner_args) for c in candidates
    ]:
        for name in sorted(defaulted & set(args)):
            add({k: v for k, v in args.items() if k != name}, owner_args)
    return found


def _fractional(value: Any) -> Any:
    """``value`` with every whole number given a fraction (7 -> 7.5): a format that
    converts (``%d``) and one that does not (``{}``) agree on whole numbers only, and
    the code takes the number as it comes, whatever its annotation says."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value + 0.5
    if isinstance(value, list):
        return [_fractional(item) for item in value]
    if isinstance(value, dict):
        return {key: _fractional(item) for key, item in value.items()}
    return value


def unmeasured(
    measured: dict[str, Any] | None,
    compared: list[str],
    raised_at: Mapping[str, set[int]] | None = None,
) -> list[str]:
    """What of the measured span the ``compared`` calls never ran: ``line N`` for a
    statement, ``line A -> B`` (``-> exit``) for a side of a branch never taken.

    ``raised_at``: per call that raised, the lines of the span it raised from. coverage.py
    counts a statement run once it starts; the statement a call raised from ran only up to
    the raise (a ``%`` format whose argument's call raised never formatted), so it is not
    that call's."""
    if measured is None:
        return ["the coverage of the calls could not be measured"]
    statements = sorted(int(n) for n in measured["statements"])
    lines: set[int] = set()
    arcs: set[tuple[int, int]] = set()
    for name in compared:
        unfinished = {_statement_of(statements, n) for n in (raised_at or {}).get(name, ())}
        for kind, a, b in context_units(measured, name):
            if kind == "line" and a not in unfinished:
                lines.add(a)
            elif kind == "arc":
                arcs.add((a, b))
    missed = [f"line {n}" for n in measured["statements"] if int(n) not in lines]
    for a, b in measured["branches"]:
        if (int(a), int(b)) not in arcs and int(a) in lines:
            missed.append(f"line {a} -> {'exit' if int(b) < 0 else f'line {b}'}")
    return missed


def _statement_of(statements: list[int], line: int) -> int:
    """The statement a line of the span belongs to: the last that starts at or before it
    (a traceback names the line a multi-line statement was running; coverage its first)."""
    return max((n for n in statements if n <= line), default=line)


def raised_lines(row: dict[str, Any], span: Span) -> set[int]:
    """The lines of ``span`` a call that raised left through (:func:`unmeasured`)."""
    through = (row.get("raised") or {}).get("through") or []
    return {
        int(line)
        for file, line in through
        if in_file(str(file), span.file) and span.first <= int(line) <= span.last
    }


async def behaviour_change(
    context: CodeContext, path: str, before: str, after: str, lines: tuple[int, int]
) -> str:
    """Why ``after`` cannot be kept for what the node does in ``before`` ('' when it can).

    ``lines``: the first and last line of ``before`` the rewrite replaces. The
    workspace holds ``before`` when called and ``after`` when this returns ''; on
    any other answer it holds ``before`` again.
    """
    target = node_call_target(context, special=True)
    if why := target["reason"]:
        return f"no call of the code can check that the rewrite keeps what it does: {why}"
    body = node_span(context)
    first, last = max(lines[0], body.first), min(lines[1], body.last)
    if first > last:  # the header (a parameter's default): what every line of the body reads
        first, last = body.first, body.last
    span = Span(body.file, body.start, first, last)
    sets = _call_sets(context, target, body)
    observe = observed_attributes(target, node_function(context))
    try:
        old, measured = await probe_argument_sets(
            context, sets, coverage=span.spec(), read_only=True, observe=observe, special=True
        )
        context.write_text(path, after)
        new, _ = await probe_argument_sets(
            context, sets, read_only=True, observe=observe, special=True
        )
    except ExternalRefused as exc:
        context.write_text(path, before)
        return f"whether the rewrite keeps what the code does could not be checked: {exc}"
    compared: list[str] = []
    raised_at: dict[str, set[int]] = {}
    for was, now in zip(old, new, strict=True):
        then, later = _answer(was), _answer(now)
        if then is None or later is None:
            continue
        if then != later or _state(was) != _state(now):
            context.write_text(path, before)
            said = (_said(then), _said(later))
            if then == later:
                said = (f"left {_state(was)}", f"left {_state(now)}")
            return (
                f"the rewrite changes what the code does: called with {_shown(was)} it "
                f"{said[0]} before and {said[1]} after"
            )
        compared.append(str(was["name"]))
        if stopped := raised_lines(was, span):
            raised_at[str(was["name"])] = stopped
    if not compared:
        context.write_text(path, before)
        return (
            "no call of the code could check that the rewrite keeps what it does "
            "(no argument set ran both times)"
        )
    if missed := unmeasured(measured, compared, raised_at):
        context.write_text(path, before)
        shown = ", ".join(missed[:6]) + (f" and {len(missed) - 6} more" if len(missed) > 6 else "")
        return (
            f"the calls that compared the code before and after never ran {shown} of the "
            f"replaced lines {first}-{last}: a rewrite of code no call ran is not kept"
        )
    return ""


def _shown(row: dict[str, Any]) -> str:
    owner = row.get("owner_args")
    return f"{row['args']} on an instance of {owner}" if owner is not None else str(row["args"])


def _said(answer: tuple[str, ...]) -> str:
    kind, _, type_name, shown = answer
    if kind == "raised":
        return f"raised {type_name}: {shown}" if shown else f"raised {type_name}"
    return f"returned {shown}" if shown else f"returned a {type_name}"
