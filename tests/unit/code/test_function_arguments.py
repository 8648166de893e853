"""A function the test defines, for a parameter that takes one: chosen, probed, written, named.

The parts of values.function_arguments on invented code: the annotations that ask for a
function (a ``TypeVar`` a type checker alone imports too), the instance filled through a
sibling that takes one (``connect(receiver)`` before ``send``), the probe's recording
function and what it reports, the test's lines and its name.
"""

from __future__ import annotations

import ast
import threading
from pathlib import Path
from typing import Any

import pytest
from probe_support import probe_outcome

from remora import python_ast
from remora.code.probes.programs import recorded_calls
from remora.code.testgen.observed_asserts import observed_lines, pins_something
from remora.code.testgen.outcome_words import outcome_words
from remora.code.testgen.unread_arguments import same_outcome
from remora.code.values.call_render import CallRender
from remora.code.values.filled_instances import filled_owners
from remora.code.values.function_arguments import (
    function_arguments,
    function_value,
    takes_a_function,
)
from remora.code.values.method_state import class_methods
from remora.code.values.parameters import Parameter
from remora.code.values.type_aliases import module_aliases, resolved_annotation

HUB = """\
from collections.abc import Callable
from typing import Any


class Hub:
    def __init__(self):
        self.receivers = {}

    def connect(self, name: str, receiver: Callable[..., Any]) -> Callable[..., Any]:
        self.receivers.setdefault(name, []).append(receiver)
        return receiver

    def disconnect(self, name: str, receiver: Callable[..., Any]) -> None:
        if receiver in self.receivers.get(name, []):
            self.receivers[name].remove(receiver)

    def send(self, name: str, value: int) -> int:
        called = 0
        for receiver in self.receivers.get(name, []):
            receiver(name, value=value)
            called += 1
        return called
"""


@pytest.mark.parametrize(
    ("annotation", "takes"),
    [
        ("Callable[..., Any]", True),
        ("c.Callable[[int], str]", True),
        ("typing.Callable", True),
        ("Optional[Callable[..., Any]]", True),
        ("Callable[..., Any] | None", True),
        ("Callable[..., Any] | str", False),  # a text too: not a function alone
        ("int", False),
        (None, False),
    ],
)
def test_the_annotations_that_ask_for_a_function(annotation: str | None, takes: bool) -> None:
    assert takes_a_function(annotation) is takes


def test_a_type_variable_only_a_type_checker_imports_is_read_as_its_bound() -> None:
    tree = python_ast.parse(
        "import typing as t\nif t.TYPE_CHECKING:\n"
        "    F = t.TypeVar('F', bound=t.Callable[..., t.Any])\n"
    )
    assert takes_a_function(resolved_annotation("F", module_aliases(tree)))


def test_the_function_is_named_for_its_parameter_unless_that_says_nothing() -> None:
    assert function_value("receiver") == {"__function__": "receiver"}
    assert function_value("f") == {"__function__": "handler"}
    assert function_value("callable") == {"__function__": "handler"}  # a builtin's name
    params = [
        Parameter("key", "positional_or_keyword", "Callable[[str], int]", None),
        Parameter("listener", "positional_or_keyword", "Callable[..., Any]", None),
        Parameter("name", "positional_or_keyword", "str", None),
    ]
    # One the node calls itself (a key function) gets a value that answers instead.
    assert function_arguments(params, {"key"}) == {"listener": {"__function__": "listener"}}


def _methods() -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = python_ast.parse(HUB)
    hub = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    return {n.name: n for n in hub.body if isinstance(n, ast.FunctionDef)}


def test_an_instance_is_filled_through_the_sibling_that_takes_a_function() -> None:
    methods = _methods()
    send_args = {"name": "news", "value": 1}
    owners = filled_owners(
        methods["send"], class_methods(HUB, methods["send"]), {}, {}, send_args, lambda _: None
    )
    first, words = owners[0]
    assert words == "after_connect"
    assert first["__calls__"] == [
        {"method": "connect", "args": ["news", {"__function__": "receiver"}], "keywords": {}}
    ]
    # What it undoes: connected by its sibling first, not by itself.
    args = {"name": "news", "receiver": {"__function__": "receiver"}}
    undone = filled_owners(
        methods["disconnect"],
        class_methods(HUB, methods["disconnect"]),
        {},
        {},
        args,
        lambda _: None,
    )
    assert "after_connect" in [w for _o, w in undone], undone


def test_the_probe_records_the_calls_made_of_the_tests_function(tmp_path: Path) -> None:
    (tmp_path / "hub.py").write_text(HUB)
    receiver = {"__function__": "receiver"}
    filled = {"__calls__": [{"method": "connect", "args": ["news", receiver], "keywords": {}}]}
    outcome = probe_outcome(
        tmp_path, "hub", "Hub.send", {"name": "news", "value": 1}, owner="Hub", owner_args=filled
    )
    assert outcome["functions"] == {
        "receiver": {"calls": ["(('news',), {'value': 1})"], "by_call": 1}
    }
    given = probe_outcome(
        tmp_path,
        "hub",
        "Hub.connect",
        {"name": "news", "receiver": receiver},
        owner="Hub",
        owner_args={},
        observe=["receivers"],
    )
    assert given["returned"]["function"] == "receiver"
    assert given["state"]["receivers"]["with_functions"] == "{'news': [receiver]}"


def test_a_value_is_written_with_the_functions_by_name_and_an_identity_number_is_not() -> None:
    recorded_calls.forget_functions()
    receiver = recorded_calls.recording_function("receiver")
    assert recorded_calls.function_repr([(receiver, None)]) == "[(receiver, None)]"
    assert recorded_calls.function_repr({id(receiver): receiver}) is None  # no run repeats it
    assert recorded_calls.function_repr([1, 2]) is None  # nothing of the test's own
    receiver("a", b=2)
    assert recorded_calls.calls_seen({"receiver": 0}) == {
        "receiver": {"calls": ["(('a',), {'b': 2})"], "by_call": 1}
    }


TARGET: dict[str, Any] = {
    "module": "hub",
    "qualname": "Hub.send",
    "name": "send",
    "kind": "method",
    "owner": "Hub",
    "method_kind": "instance",
    "is_async": False,
    "parameters": [
        {"name": "name", "kind": "positional_or_keyword"},
        {"name": "value", "kind": "positional_or_keyword"},
    ],
    "owner_parameters": [],
}


def test_the_test_defines_the_function_records_its_calls_and_asserts_them() -> None:
    receiver = {"__function__": "receiver"}
    owner = {"__calls__": [{"method": "connect", "args": ["news", receiver], "keywords": {}}]}
    row = {
        "args": {"name": "news", "value": 1},
        "owner_args": owner,
        "returned": {"repr": "1", "literal": True, "type": "int", "type_module": "builtins"},
        "functions": {"receiver": {"calls": ["(('news',), {'value': 1})"], "by_call": 1}},
    }
    render = CallRender(TARGET, {"Hub"})
    render.recording = {"receiver"}
    call, setup = render.call(row["args"], owner)
    lines = [*setup, *observed_lines(render, row, call, "hub", procedure=False)]
    assert lines == [
        "receiver_calls = []",
        "",
        "def receiver(*args, **kwargs):",
        "    receiver_calls.append((args, kwargs))",
        "",
        "hub = Hub()",
        "hub.connect('news', receiver)",
        "result = hub.send(name='news', value=1)",
        "assert result == 1",
        "assert receiver_calls == [(('news',), {'value': 1})]",
    ]
    assert outcome_words(row, set(), owner) == ["calls_receiver"]
    # A function never called does nothing, and a list nobody reads is not written.
    quiet = CallRender(TARGET, {"Hub"})
    assert quiet.call(row["args"], owner)[1][:2] == [
        "def receiver(*args, **kwargs):",
        "    return None",
    ]


def test_a_result_holding_the_function_is_asserted_and_named_by_it() -> None:
    held = {"repr": "[<function receiver>]", "literal": False, "with_functions": "[receiver]"}
    row = {"args": {"name": "news", "value": 1}, "returned": held}
    assert pins_something(row, procedure=False)
    assert outcome_words(row, set(), {}) == ["returns_list_holding_receiver"]
    render = CallRender(TARGET, {"Hub"})
    call, _setup = render.call(row["args"], {})
    assert observed_lines(render, row, call, "hub", procedure=False)[-1] == (
        "assert result == [receiver]"
    )


def test_a_standard_library_objects_attributes_pin_nothing_of_the_node() -> None:
    # temporarily_connected_to's test asserted `len(result.args) == 3`: contextlib's own.
    manager = {
        "repr": "<contextlib._GeneratorContextManager object>",
        "literal": False,
        "type": "_GeneratorContextManager",
        "type_module": "contextlib",
        "attributes": {"kwds": {"repr": "{}", "literal": True}},
    }
    row = {"args": {"name": "news", "value": 1}, "returned": manager}
    assert not pins_something(row, procedure=False)
    own = {**manager, "type": "Session", "type_module": "hub"}
    assert pins_something({**row, "returned": own}, procedure=False)


def test_a_call_from_another_thread_is_not_asserted() -> None:
    # ExecutorEventEmitter._emit_run hands the handler to a pool: its test raced the worker.
    recorded_calls.forget_functions()
    handler = recorded_calls.recording_function("handler")
    worker = threading.Thread(target=handler, args=("event",))
    worker.start()
    worker.join()
    seen = recorded_calls.calls_seen({})
    assert seen == {"handler": {"off_thread": True}}
    row = {"args": {}, "returned": {"repr": "None", "literal": True}, "functions": seen}
    assert outcome_words(row, set(), {}, procedure=True) == []
    assert not pins_something(row, procedure=True)


def test_a_value_handed_on_to_the_tests_function_is_not_replaced_behind_its_asserts() -> None:
    # publish(topic, payload) hands payload to each handler: replacing the made-up payload
    # by "" left the test asserting the handler got the old one.
    row = {"ok": True, "returned": {"repr": "1"}, "functions": {"h": {"calls": ["(('a',), {})"]}}}
    other = {**row, "functions": {"h": {"calls": ["(('',), {})"]}}}
    assert same_outcome(row, other)  # the node itself did the same
    assert not same_outcome(row, other, calls=True)
