"""Calling the run's node: how a caller reaches it, example arguments, and checked argument sets.

:func:`node_call_target` says how a test or a fixture reaches the node (module,
qualified name, for a method its class and how to build one) and what it takes.
:func:`check_argument_sets` binds each set to the real ``inspect.signature`` and
calls the node with it, in the command sandbox (:mod:`remora.code.probes.sandboxed`):
a set is accepted when it binds and the call raises no ``TypeError`` and no
``AttributeError`` on one of its own arguments (a ``'str' object has no
attribute 'sku'`` where the code wants a product), and each refusal carries
Python's own message.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.import_paths import module_name, root_paths
from remora.code.parsing import node_returns, node_signature
from remora.code.probes.checked_sets import CheckedSet, checked_set
from remora.code.probes.sandboxed import run_program
from remora.code.values import (
    ArgumentSet,
    CallTarget,
    ClassLookup,
    Parameter,
    argument_sets,
    arguments_from_text,
    builtin_positional_count,
    class_lookup,
    constructor_of,
    node_function,
    observed_contents,
    owner_arguments,
    parameter_of,
    project_class_lookup,
    reachable_class,
    returns_lazy_iterator,
)
from remora.test_code import is_test_code

__all__ = [
    "check_argument_sets",
    "derived_argument_sets",
    "node_call_target",
    "pins_behaviour",
    "probe_argument_sets",
]

# Per call, so one endless call cannot use up the whole command's time.
CALL_TIMEOUT_S = 5.0


def _method_kind(decorators: list[str]) -> str:
    for decorator in decorators:
        if decorator in ("staticmethod", "classmethod", "property"):
            return decorator
        if decorator.endswith((".setter", ".deleter")):
            return "setter"
    return "instance"


def node_call_target(context: CodeContext, *, special: bool = False) -> CallTarget:
    """How to reach and call the node, and why it cannot be when it cannot (``reason``).

    Kept until the run writes: a sample_data run's three scripts ask for it four or five
    times (~0.9 ms each on click). Read it, never change it: callers share it.

    ``special``: a special method (``__str__``, ``__eq__``: not a name-mangled one, not a
    setter) counts as callable on an instance. Tests and fixtures leave them to the code
    that calls them; the lint agent's behaviour check calls them to compare a rewrite.
    """
    target = context.kept("call target", lambda: _call_target(context))
    if special and target["reason"] and _special_method(context, target):
        return {**target, "reason": ""}
    return target


def _special_method(context: CodeContext, target: CallTarget) -> bool:
    """Whether only its special name keeps the node from being called on an instance."""
    name = str(target["name"])
    if not (name.startswith("__") and name.endswith("__") and len(name) > 4):
        return False
    parts = str(target["qualname"]).split(".")
    plain = [*parts[:-1], "special"]
    file_path = context.bound_node().file_path
    return not _unreachable(file_path, target["kind"], plain, target["method_kind"])


def _call_target(context: CodeContext) -> CallTarget:
    node = context.bound_node()
    parts = node.full_name.split(".")
    text = context.node_file_text()
    target: CallTarget = {
        "module": module_name(context, node.file_path),
        "qualname": node.full_name,
        "name": node.name,
        "kind": node.node_type,
        "owner": ".".join(parts[:-1]) if node.node_type == "method" else "",
        "method_kind": "",
        "is_async": False,
        "is_generator": False,
        "parameters": [],
        "owner_parameters": [],
        "reason": "",
    }
    if node.node_type == "class" and not reachable_class(text, node.full_name):
        target["reason"] = "a class defined in a function cannot be reached from outside it"
        return target
    if node.node_type == "class":
        target["parameters"] = [p.row() for p in constructor_of(text, node.full_name).parameters]
    elif node.node_type in ("function", "method"):
        signature = node_signature(context.located())
        target["is_async"] = signature["is_async"]
        # An async generator is neither drained nor awaited: out of reach as yet. A
        # ``return map(...)`` is drained as a generator is (values/lazy_iterators).
        function = node_function(context)
        yields = bool(node_returns(context.located())["is_generator"]) or (
            function is not None and returns_lazy_iterator(function, python_ast.parse(text))
        )
        target["is_generator"] = yields and not signature["is_async"]
        target["parameters"] = [
            {
                "name": p["name"],
                "kind": p["kind"],
                "annotation": p["annotation"],
                "default": p["default"],
                "required": p["default"] is None and not p["kind"].startswith("var_"),
                "implicit": p["implicit"],
            }
            for p in signature["parameters"]
            if not p["implicit"]
        ]
        if node.node_type == "method":
            target["method_kind"] = _method_kind(signature["decorators"])
            owner = class_lookup(text)(target["owner"])
            target["owner_parameters"] = [p.row() for p in owner or []]
            # dict.pop(key, /): an override is called as the builtin is (builtin_overrides).
            only = builtin_positional_count(text, target["owner"], node.name)
            for parameter in target["parameters"][:only]:
                if parameter["kind"] == "positional_or_keyword":
                    parameter["kind"] = "positional_only"
    target["reason"] = _unreachable(node.file_path, node.node_type, parts, target["method_kind"])
    return target


def _unreachable(file_path: str, node_type: str, parts: list[str], method_kind: str) -> str:
    if node_type not in ("function", "method", "class"):
        return f"a {node_type} is not called"
    if is_test_code(file_path):
        return "this is test code"
    if node_type == "function" and len(parts) > 1:
        return "a nested function cannot be reached from outside its function"
    if parts[-1].startswith("__") or method_kind == "setter":
        return "a special or name-mangled method is called through other code, not directly"
    return ""


def _parameters(target: CallTarget) -> list[Parameter]:
    return [parameter_of(p) for p in target["parameters"]]


@host_function
def call_target(context: CodeContext) -> CallTarget:
    """How a test reaches the node: ``{module, qualname, kind, owner, method_kind, is_async,
    is_generator, parameters, owner_parameters, reason}``; ``reason`` is non-empty when it
    cannot be called."""
    return node_call_target(context)


@host_function
def derived_argument_sets(context: CodeContext, count: int = 4) -> list[ArgumentSet]:
    """Example argument sets for the node from its parameters' names, annotations, defaults."""
    target = node_call_target(context)
    lookup = project_class_lookup(context)
    return argument_sets(_parameters(target), lookup, count)


def _set_arguments(entry: Any, target: CallTarget, classes: ClassLookup) -> dict[str, Any]:
    """The set's arguments by name; ValueError says what is wrong with the set."""
    if not isinstance(entry, dict):
        raise ValueError(f"an argument set is an object {{name, args}}, not {type(entry).__name__}")
    if not isinstance(entry.get("name", ""), str):
        raise ValueError("'name' must be a string")
    args = entry.get("args")
    if isinstance(args, str):
        return arguments_from_text(args, _parameters(target), classes)
    if not isinstance(args, dict):
        raise ValueError("'args' are call arguments as text (a=1, b='x') or an object of them")
    return args


def _verdict(outcome: dict[str, Any], not_called: str) -> tuple[bool, str]:
    if not outcome.get("binds"):
        return False, f"does not bind to the signature: {outcome.get('bind_error', '')}"
    raised = outcome.get("raised")
    if raised and raised["type"] == "TypeError" and raised["module"] == "builtins":
        return False, f"calling it raised TypeError: {raised['message']}"
    if raised and raised.get("on_argument"):
        # Such a set says nothing about the code, only that the argument did not fit.
        return False, f"the code took an argument for something it is not: {raised['message']}"
    if not_called:
        return True, f"binds; not called because {not_called}"
    return True, ""


def pins_behaviour(row: dict[str, Any]) -> bool:
    """Whether a test may pin what a probed set did: the call ran (a set the check
    accepted), or raised a TypeError the code states itself (``raise TypeError``: a
    branch of the code, worth a ``pytest.raises``). Never a call that did not finish,
    nor an OSError the code did not raise itself (a missing folder): that is the
    machine's answer, and a test pinning it passes or fails with where it runs."""
    raised = row.get("raised") or {}
    stated = raised.get("type") == "TypeError" and raised.get("stated", False)
    ran = bool(row["ok"]) and not row["reason"]
    environment = bool(raised.get("environment", False))
    return (ran or stated) and not environment and raised.get("type") != "CallTimeout"


@host_function
async def check_argument_sets(
    context: CodeContext, sets: list[ArgumentSet] | list[dict[str, Any]], call: bool = True
) -> list[CheckedSet]:
    """Each set ``{name, args}`` checked (:class:`CheckedSet`).

    ``args`` is call-argument text (``price=9.99, items=[Item(sku='A')]``) or an
    object of values; the result's ``args`` are always the object.

    A set is ok when it binds to the node's real signature and (with ``call``)
    calling the node with it raises no TypeError, and no AttributeError on one of
    the set's own arguments. The node runs in the command
    sandbox, never in Remora, with the project read-only while the run has no
    change (a check only observes; the test agent, which compares with runs in a
    copy, uses :func:`probe_argument_sets`); a method
    gets an instance built from its class's derived arguments.

    The same sets checked again while the run has written nothing get the answer
    kept from the first check (the sample_data agent's submit checks the sets its
    write_fixture found wanting): the code is the same, and a set whose call
    waits for input would spend its time limit again.
    """

    async def check() -> list[CheckedSet]:
        checked, _ = await probe_argument_sets(context, sets, call, read_only=True)
        return [checked_set(row) for row in checked]

    key = ("checked sets", json.dumps([sets, call], sort_keys=True, default=repr))
    return copy.deepcopy(await context.kept_async(key, check))


async def probe_argument_sets(
    context: CodeContext,
    sets: list[ArgumentSet] | list[dict[str, Any]],
    call: bool = True,
    coverage: dict[str, Any] | None = None,
    *,
    read_only: bool = False,
    observe: Sequence[str] = (),
    special: bool = False,
    timeout_s: float = CALL_TIMEOUT_S,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """:func:`check_argument_sets`, and with ``coverage`` (a span, see
    :func:`remora.code.probes.sandboxed.run_program`) what each set's call covered.

    A set of a method may carry ``owner_args``: its instance is built from those
    (the row keeps them). ``observe``: attributes of the instance reported after
    each call, in the row's ``state`` (``{attribute: {repr, literal, length?}}``). An
    instance method's change to the items of the container its instance is comes in the
    row's ``contents`` (:mod:`remora.code.probes.programs.own_contents`; values left out
    where it stores a clock's or a random one: :func:`remora.code.values.observed_contents`).

    The code runs in a copy of the workspace, as pytest runs it, unless
    ``read_only``: then it sees the project itself, read-only (no copy made).
    ``special``: a special method is called too (:func:`node_call_target`).
    ``timeout_s``: each call's time limit (a call past it raised ``CallTimeout``).
    """
    target = node_call_target(context, special=special)
    checked: list[dict[str, Any]] = []
    runnable: list[dict[str, Any]] = []
    lookup = project_class_lookup(context)
    # Each entry is read as JSON a model may have written (any shape: _set_arguments checks).
    entries: list[Any] = list(sets)
    for index, entry in enumerate(entries):
        name = str(entry.get("name") or f"set_{index + 1}") if isinstance(entry, dict) else ""
        row: dict[str, Any] = {"name": name, "args": None, "ok": False, "reason": target["reason"]}
        try:
            row["args"] = _set_arguments(entry, target, lookup)
        except ValueError as exc:
            row["reason"] = row["reason"] or f"args: {exc}"
        checked.append(row)
        if isinstance(entry, dict) and isinstance(entry.get("owner_args"), dict):
            row["owner_args"] = entry["owner_args"]
        if not row["reason"]:
            runnable.append(row)
    if not runnable:
        return checked, None
    request: dict[str, Any] = {
        "module": target["module"],
        "qualname": target["qualname"],
        "kind": target["kind"],
        "owner": target["owner"],
        "owner_args": owner_arguments(context, target) if target["kind"] == "method" else {},
        "paths": root_paths(context),
        "sets": [
            {key: row[key] for key in ("name", "args", "owner_args") if key in row}
            for row in runnable
        ],
        "call": call,
        "observe": list(observe),
        "contents": observed_contents(target, node_function(context), context.node_file_text()),
        "timeout_s": timeout_s,
        "drain": bool(target["is_generator"]),
    }
    preload = (str(target["module"]), list(request["paths"]))
    run = await run_program(
        context, "call_probe", request, coverage=coverage, read_only=read_only, preload=preload
    )
    if run.report is None or "error" in run.report:
        reason = run.report["error"] if run.report else f"the check could not run: {run.problem}"
        for row in runnable:
            row["reason"] = f"{reason}\n{run.output}".strip() if run.report is None else reason
        return checked, None
    not_called = str(run.report.get("not_called", ""))
    for row, outcome in zip(runnable, run.report["outcomes"], strict=True):
        row["ok"], row["reason"] = _verdict(outcome, "" if outcome.get("called") else not_called)
        for key in (
            *("returned", "raised", "state", "state_before", "contents", "unread_used"),
            "functions",  # the calls made of the test's own functions (values.function_arguments)
            "size_before",  # how many items the instance held, where it is a container
            "made_files",  # what it left in the working directory (programs/made_files.py)
        ):
            if key in outcome:
                row[key] = outcome[key]
    return checked, run.coverage
