"""Call a callable of the project with argument sets; report what each call did.

The request names the module, the callable's qualified name, its kind (function,
method, class), for a method the owner class and the arguments that build an
instance, and the argument sets: ``{"name": ..., "args": {...}}``, their values
built and spread over the signature as :mod:`remora.code.probes.programs.call_arguments`
does (sent ahead of this program, in one text: the import of it below is only for
reading and type-checking; :data:`remora.code.probes.sandboxed.PROGRAM_PARTS`).
Each set is bound to the real ``inspect.signature`` first; only a set
that binds is called (when the request asks for calls), under a per-call time
limit. A method is called on an instance built afresh for each set, from the
set's own ``owner_args`` when it has them (or the expression they are, which must give
an instance of the class: ``where('name')``) and then filled by the calls its
``__calls__`` lists (``[{"method", "args", "keywords"}]``:
:mod:`remora.code.values.filled_instances`), as a test builds one (a call that changed
nothing on it sets nothing up: the instance is not built); the instance's
attributes the request names in ``observe`` are reported after the call
(``state``); where the request asks (``contents``: ``items`` or ``keys``), what the call
changed in the container the instance is, its items compared before and after
(``contents``: :mod:`remora.code.probes.programs.own_contents`). A returned value
that is the method's own instance says so
(``is_instance``: a builder's ``return self``); one with no literal form
carries its own public attributes (``attributes``), which a test can assert
instead of its type, and those that read as on an argument of its type (else the
instance, for a copy a method returns) before the call (``as_given``); one equal to the
instance or an argument but another object says what tells them apart (``twin``):
:mod:`remora.code.probes.programs.returned_values`. A returned callable object (a query,
a predicate, a transform) is called as its users call it (``calls``:
:mod:`remora.code.probes.programs.returned_calls`).
A generator function's generator is drained when the request says so (``drain``:
:mod:`remora.code.probes.programs.generator_items`), its items reported as a list
(``capped``: the first items of an endless one). A stand-in argument's uses
(:mod:`remora.code.probes.programs.unread_argument`) are reported as ``unread_used``,
watched during the call and while its result and the instance's state are read; where an
exception was raised, and why: :mod:`remora.code.probes.programs.raised_frames`. A container
instance's item count before the call is ``size_before``; the calls made of the set's own
functions are ``functions`` (:mod:`remora.code.probes.programs.recorded_calls`); files a
set left in the working directory, ``made_files`` (removed after it). Output the code
prints goes to stderr (descriptor 1 is stderr's while it runs), stdout the report.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import signal
import sys
import types
from typing import Any

from remora.code.probes.programs.call_arguments import Unbound, built_value, lookup, split_arguments
from remora.code.probes.programs.generator_items import generator_items
from remora.code.probes.programs.made_files import listed, made_files
from remora.code.probes.programs.own_contents import (
    contents_change,
    contents_snapshot,
    equals_its_plain_kind,
    instance_size,
    instance_state,
)
from remora.code.probes.programs.raised_frames import where_raised
from remora.code.probes.programs.recorded_calls import (
    calls_seen,
    forget_functions,
    function_calls,
    function_name,
    function_repr,
    observed_with_functions,
)
from remora.code.probes.programs.returned_calls import calls_returned, returned_calls
from remora.code.probes.programs.returned_values import (
    as_given,
    exception_attributes,
    observed_value,
    own_attributes,
    returned_twin,
)
from remora.code.probes.programs.unread_argument import UnreadArgumentUsed, take_uses, watching

MARKER = "REMORA_REPORT "
MAX_MESSAGE_CHARS = 300
MAX_USES = 5  # of a stand-in argument (unread_argument), in the order the code made them


def switch_context(name: str) -> None:
    """Names the coverage context of what runs next; rebound when coverage is measured."""


class CallTimeout(Exception):
    """The call ran past its time limit."""


def _on_alarm(_signum: int, _frame: types.FrameType | None) -> None:
    raise CallTimeout("the call did not finish in time")


def _subclassed(kind: type) -> bool:
    """Whether the project defines a subclass of the exception class ``kind`` (a class of
    the same top-level package): ``pytest.raises`` of ``kind`` passes on either."""
    package = kind.__module__.partition(".")[0]
    if package == "builtins":
        return False
    subclasses: list[type] = kind.__subclasses__()
    return any(sub.__module__.partition(".")[0] == package for sub in subclasses)


def _exception(exc: BaseException) -> dict[str, Any]:
    kind = type(exc)
    return {
        "type": kind.__qualname__,
        "module": kind.__module__,
        "message": str(exc)[:MAX_MESSAGE_CHARS],
        "subclassed": _subclassed(kind),
        "converted": isinstance(exc.__context__, kind),  # raised handling one of its kind
    }


def _call(
    target: Any, positional: list[Any], keywords: dict[str, Any], timeout_s: float, drain: bool
) -> tuple[Any, int]:
    """(what the call gave, a generator's items when ``drain``; the items a capped one's
    test takes, else 0), all within one time limit."""
    signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        result = target(*positional, **keywords)
        if inspect.iscoroutine(result):
            # Imported only here: asyncio was a third of a probe's start-up, and most
            # nodes are not coroutines.
            import asyncio

            result = asyncio.run(result)
        return generator_items(result) if drain else (result, 0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _probe_set(
    target: Any,
    entry: dict[str, Any],
    module: types.ModuleType,
    call: bool,
    timeout_s: float,
    drain: bool = False,
) -> dict[str, Any]:
    """One set bound and called, within ``timeout_s``; ``drain``: the node is a generator
    function, whose generator is drained."""
    outcome: dict[str, Any] = {"name": entry.get("name", ""), "binds": False, "called": False}
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError) as exc:
        outcome["bind_error"] = f"no signature to bind to: {exc}"
        return outcome
    try:
        args = built_value(entry.get("args") or {}, module)
    except Exception as exc:
        outcome["bind_error"] = "an argument could not be built: " + _exception(exc)["message"]
        outcome["build_error"] = _exception(exc)
        return outcome
    positional, keywords = split_arguments(signature, args)
    try:
        signature.bind(*positional, **keywords)
    except TypeError as exc:
        outcome["bind_error"] = str(exc)
        return outcome
    outcome["binds"] = True
    if not call:
        return outcome
    outcome["called"] = True
    try:
        receiver = getattr(target, "__self__", None)
        arguments = [*positional, *keywords.values()]
        given = [*arguments, receiver]  # the instance too, last: a copy it returns is its own
        before = [own_attributes(g) if hasattr(g, "__dict__") else {} for g in given]
        with watching():  # what a test asserts of the result is a use of an argument in it
            value, capped = _call(target, positional, keywords, timeout_s, drain)
            outcome["returned"] = observed_value(value)
            if capped:
                outcome["returned"]["capped"] = capped  # the first items of an endless one
            elif value is not None and value is receiver:
                outcome["returned"]["is_instance"] = True  # a builder's `return self`
            elif (given_back := function_name(value)) is not None:
                outcome["returned"]["function"] = given_back  # the test's own function
            elif not outcome["returned"]["literal"] and (written := function_repr(value)):
                outcome["returned"]["with_functions"] = written  # [(receiver, None)]
            elif not outcome["returned"]["literal"]:
                outcome["returned"]["attributes"] = own_attributes(value)
                if unchanged := as_given(value, given, before):
                    outcome["returned"]["as_given"] = unchanged
                if calls_returned(value, receiver):  # a query, a predicate, a transform
                    name = outcome["name"]
                    if calls := returned_calls(value, arguments, timeout_s, switch_context, name):
                        outcome["returned"]["calls"] = calls
        if (twin := returned_twin(value, receiver, arguments)) is not None:
            outcome["returned"]["twin"] = twin
        outcome["returned"]["equals_plain"] = equals_its_plain_kind(value)
    except CallTimeout as exc:
        outcome["timed_out"] = True
        outcome["raised"] = _exception(exc)
    except BaseException as exc:  # the project's code may raise anything, SystemExit too
        outcome["raised"] = _exception(exc) | where_raised(exc, __file__, arguments, args)
        outcome["raised"]["attributes"] = exception_attributes(exc)
    return outcome


def _state(target: Any, names: list[str]) -> dict[str, Any]:
    """The named attributes (or properties) of the method's instance, as they are now, and
    what its readers named ``NAME()`` return (called without arguments); one that cannot be
    read is left out."""
    instance = getattr(target, "__self__", None)
    if instance is None or isinstance(instance, type | types.ModuleType):
        return {}
    found: dict[str, Any] = {}
    for name in names:
        try:  # a property that reads the state may raise on the state it finds
            value = getattr(instance, name.removesuffix("()"))
            found[name] = observed_with_functions(value() if name.endswith("()") else value)
        except Exception:
            continue
    return found


def _target(request: dict[str, Any], module: types.ModuleType) -> tuple[Any, str | None]:
    """(the callable, why it cannot be called, only bound) for the request's kind."""
    if request["kind"] != "method":
        return lookup(module, request["qualname"]), None
    owner = lookup(module, request["owner"])
    name = request["qualname"].rsplit(".", 1)[-1]
    raw = inspect.getattr_static(owner, name)
    if isinstance(raw, staticmethod | classmethod):
        return getattr(owner, name), None
    owner_args = request["owner_args"]
    try:
        if set(owner_args) == {"__expression__"}:  # built as the project writes it
            instance = built_value(owner_args, module)
            if not isinstance(instance, owner):
                kind = type(instance).__qualname__
                raise TypeError(f"the expression gave a {kind}, not a {request['owner']}")
        else:
            built = {k: v for k, v in owner_args.items() if k != "__calls__"}
            instance = built_value({"__class__": request["owner"], "args": built}, module)
            for step in owner_args.get("__calls__") or []:  # filled through its own methods
                args, state = built_value(step["args"], module), instance_state(instance)
                getattr(instance, step["method"])(*args, **built_value(step["keywords"], module))
                if state is not None and state == instance_state(instance):
                    raise TypeError(f"its set-up call {step['method']}(...) changed nothing")
    except Exception as exc:
        # Without an instance the sets can still be bound: to the function, less `self`.
        info = _exception(exc)
        function: Any = raw.fget if isinstance(raw, property) else raw
        signature = inspect.signature(function)
        unbound = Unbound(signature.replace(parameters=list(signature.parameters.values())[1:]))
        return unbound, f"{request['owner']}(...) raised {info['type']}: {info['message']}"
    if isinstance(raw, property):

        def read() -> Any:
            return getattr(instance, name)

        # As a bound method's: what the read changed is the instance's state, and a
        # fluent property's ``return self`` (or ``return self.weeks``) is the instance.
        read.__self__ = instance  # type: ignore[attr-defined]
        return read, None
    return getattr(instance, name), None


def _probe_entry(
    request: dict[str, Any],
    module: types.ModuleType,
    entry: dict[str, Any],
    first: tuple[Any, str | None],
) -> dict[str, Any]:
    """One set: a method's instance built for it (from its own ``owner_args`` when given),
    so no set sees what an earlier one changed; ``first`` is the request's own target."""
    target, problem = first
    forget_functions()  # the set's own functions, built with its instance and arguments
    own_owner = "owner_args" in entry
    if request["kind"] == "method" and (own_owner or problem is None):
        owner_args = entry["owner_args"] if own_owner else request["owner_args"]
        target, problem = _target({**request, "owner_args": owner_args}, module)
    call = bool(request["call"]) and problem is None
    # What the instance held before the call: a test may say "changes" only of what differs.
    before = _state(target, list(request.get("observe") or [])) if call else {}
    contents = request.get("contents")
    items_before = contents_snapshot(target) if call and contents else None
    size = instance_size(target) if call else None  # an empty one gives the empty answer
    switch_context(str(entry.get("name", "")))
    timeout_s, drain = float(request["timeout_s"]), bool(request.get("drain"))
    made = {name: len(calls) for name, calls in function_calls().items()}  # in the set-up
    outcome = _probe_set(target, entry, module, call, timeout_s, drain)
    outcome |= {} if size is None else {"size_before": size}
    switch_context("")
    if own_owner and problem is not None:
        outcome["binds"] = False
        outcome["bind_error"] = f"the instance could not be built: {problem}"
    # An argument the call stored where a test reads it is used: the state is read watched.
    with watching(), contextlib.suppress(UnreadArgumentUsed):
        if outcome["called"] and request.get("observe"):
            outcome["state"] = _state(target, list(request["observe"]))
            outcome["state_before"] = before
        if outcome["called"] and items_before is not None:
            change = contents_change(target, items_before, values=contents == "items")
            if change is not None:
                outcome["contents"] = change
    uses = take_uses()
    if uses:
        outcome["unread_used"] = uses[-MAX_USES:]  # the last: the one that raised, if any
    functions = calls_seen(made)
    if functions:
        outcome["functions"] = functions
    return outcome


def main(request: dict[str, Any]) -> None:
    sys.path[:0] = list(request.get("paths", []))
    signal.signal(signal.SIGALRM, _on_alarm)
    report: dict[str, Any] = {"outcomes": []}
    # Descriptor 1 too goes to stderr while the code runs: a program it starts (an editor, a
    # pager) writes there, and a line it leaves open would hide the report's line.
    sys.stdout.flush()
    report_fd = os.dup(1)
    os.dup2(2, 1)
    try:
        _probe_all(request, report)
    finally:
        sys.stdout.flush()
        os.dup2(report_fd, 1)
        os.close(report_fd)
    print(MARKER + json.dumps(report, default=str))


def _probe_all(request: dict[str, Any], report: dict[str, Any]) -> None:
    with contextlib.redirect_stdout(sys.stderr):
        try:
            module = importlib.import_module(request["module"])
            before = listed()  # what a set made, reported and removed: made_files.py
            target, problem = _target(request, module)
            made_files(before)  # each set builds its own instance: this one's files are none's
        except BaseException as exc:
            info = _exception(exc)
            report["error"] = f"cannot import or find it: {info['type']}: {info['message']}"
            target = None
        if target is not None:
            if problem is not None:
                report["not_called"] = problem
            for entry in request["sets"]:
                outcome = _probe_entry(request, module, entry, (target, problem))
                report["outcomes"].append(outcome | made_files(before))
