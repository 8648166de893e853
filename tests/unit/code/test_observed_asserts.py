"""What an observed test asserts: the behaviour of the call, never its type alone."""

from __future__ import annotations

from typing import Any

from remora.code.probes.programs.returned_values import returned_twin
from remora.code.testgen.observed_asserts import observed_lines, pins_something
from remora.code.values.call_render import CallRender

METHOD = {
    "module": "shop",
    "qualname": "Query.limit",
    "name": "limit",
    "kind": "method",
    "owner": "Query",
    "method_kind": "instance",
    "is_async": False,
    "parameters": [{"name": "n", "kind": "positional_or_keyword"}],
}
FUNCTION = {**METHOD, "qualname": "parse", "name": "parse", "kind": "function", "owner": ""}


def _seen(repr_: str, literal: bool = True, **more: Any) -> dict[str, Any]:
    return {"repr": repr_, "literal": literal, "type": "x", "type_module": "shop", **more}


def _lines(target: dict[str, Any], row: dict[str, Any], procedure: bool = False) -> list[str]:
    render = CallRender(target, {"Query", "parse"})
    call, setup = render.call(row["args"], {"table": "t"})
    return [*setup, *observed_lines(render, row, call, "shop", procedure)]


def test_a_builder_asserts_the_attribute_it_set_and_that_it_returns_its_instance() -> None:
    row = {
        "args": {"n": 10},
        "returned": _seen("<Query>", literal=False, is_instance=True),
        "state": {"limit_value": _seen("10")},
    }
    assert _lines(METHOD, row) == [
        "query = Query(table='t')",
        "result = query.limit(n=10)",
        "assert result is query",
        "assert query.limit_value == 10",
    ]
    assert pins_something(row, procedure=False)


def test_an_exception_is_asserted_with_its_whole_message_and_no_state() -> None:
    # The state the raise left (``limit_value`` still None) is no behaviour of its own.
    row = {
        "args": {"n": -1},
        "raised": {"type": "ValueError", "module": "builtins", "message": "n (-1) is negative"},
        "state": {"limit_value": _seen("None")},
    }
    assert _lines(METHOD, row)[1:] == [
        "with pytest.raises(ValueError) as excinfo:",
        "    query.limit(n=-1)",
        "assert str(excinfo.value) == 'n (-1) is negative'",
    ]


def test_a_procedure_asserts_the_state_it_changed_and_no_result() -> None:
    row = {"args": {"n": 3}, "returned": _seen("None"), "state": {"items": _seen("[3]")}}
    assert _lines(METHOD, row, procedure=True)[1:] == [
        "query.limit(n=3)",
        "assert query.items == [3]",
    ]
    assert pins_something(row, procedure=True)


def test_a_procedure_that_changed_nothing_readable_pins_nothing() -> None:
    row = {"args": {"n": 3}, "returned": _seen("None"), "state": {}}
    assert not pins_something(row, procedure=True)
    # A function that returns values elsewhere: its None here is a result worth pinning.
    assert pins_something(row, procedure=False)


def test_an_object_without_a_literal_form_is_asserted_by_its_attributes_not_its_type() -> None:
    row = {
        "args": {"n": 1},
        "returned": _seen(
            "<Order>",
            literal=False,
            attributes={"status": _seen("'open'"), "lines": _seen("<...>", False, length=2)},
        ),
    }
    lines = _lines(FUNCTION, row)
    assert lines == [
        "result = parse(n=1)",
        "assert result.status == 'open'",
        "assert len(result.lines) == 2",
    ]
    assert not any("isinstance" in line for line in lines)


def test_an_object_with_nothing_readable_pins_nothing() -> None:
    row = {"args": {"n": 1}, "returned": _seen("<Thing>", literal=False, attributes={})}
    assert not pins_something(row, procedure=False)


def test_an_endless_generator_s_first_items_counted_pin_nothing() -> None:
    # list(itertools.islice(jokes(), 10)) holds 10 items whatever the generator yields.
    returned = _seen("['b', 'a']", literal=False, length=10, capped=10)
    assert not pins_something({"args": {}, "returned": returned}, procedure=False)
    ended = _seen("['b', 'a']", literal=False, length=2)
    assert pins_something({"args": {}, "returned": ended}, procedure=False)


def _copy(twin: dict[str, Any], kind: str = "Query", module: str = "shop") -> dict[str, Any]:
    returned = _seen("{'rows': [1]}", type=kind, type_module=module, twin=twin)
    return {"args": {"n": 1}, "returned": returned}


def test_a_shallow_copy_asserts_it_is_another_object_sharing_the_nested_one() -> None:
    # `==` alone would pass were the method to return its instance unchanged.
    twin = {"of": "instance", "type_differs": False, "nested": [{"path": ["rows"], "same": True}]}
    assert _lines(METHOD, _copy(twin))[1:] == [
        "result = query.limit(n=1)",
        "assert result == {'rows': [1]}",
        "assert result is not query",
        "assert result['rows'] is query['rows']",
    ]


def test_a_deep_copy_asserts_its_nested_objects_are_not_the_instance_s() -> None:
    nested = [{"path": ["rows"], "same": False}, {"path": ["rows", 0], "same": False}]
    twin = {"of": "instance", "type_differs": False, "nested": nested}
    assert _lines(METHOD, _copy(twin))[3:] == [
        "assert result is not query",
        "assert result['rows'] is not query['rows']",
    ]


def test_a_conversion_asserts_its_type_and_its_nested_objects_types() -> None:
    nested = [
        {"path": ["rows"], "same": False},
        {"path": ["rows", 0], "same": False, "type": "dict", "type_module": "builtins"},
        {"path": ["rows", 0, "a"], "same": False, "type": "dict", "type_module": "builtins"},
    ]
    twin = {"of": "instance", "type_differs": True, "nested": nested}
    assert _lines(METHOD, _copy(twin, "dict", "builtins"))[3:] == [
        "assert type(result) is dict",
        "assert type(result['rows'][0]) is dict",
    ]


def test_a_copy_of_an_argument_is_told_apart_by_its_type_alone() -> None:
    # The argument is written in the call: no name to compare identities with.
    twin = {"of": "argument", "type_differs": True, "nested": [{"path": ["rows"], "same": True}]}
    render = CallRender(FUNCTION, {"parse"})
    call, _ = render.call({"n": 1}, {})
    lines = observed_lines(render, _copy(twin, "Query"), call, "shop", False)
    assert lines == [
        "result = parse(n=1)",
        "assert result == {'rows': [1]}",
        "assert type(result) is Query",
    ]
    assert "Query" in render.imports
    # A type the test cannot name (another module's) is left out.
    other = CallRender(FUNCTION, {"parse"})
    assert observed_lines(other, _copy(twin, "Table", "db"), call, "shop", False)[2:] == []


def test_an_instance_named_as_a_builtin_gets_another_name() -> None:
    # `dict = Dict()` would hide the `dict` of `type(result) is dict`.
    owner = {**METHOD, "owner": "Dict", "qualname": "Dict.limit"}
    render = CallRender(owner, {"Dict"})
    assert render.call({"n": 1}, {})[1] == ["dict_obj = Dict()"]


def test_an_instance_of_a_lower_case_class_does_not_shadow_the_class() -> None:
    # `heapdict = heapdict()` makes `heapdict` local to the whole test: UnboundLocalError.
    owner = {**METHOD, "owner": "heapdict", "qualname": "heapdict.limit"}
    render = CallRender(owner, {"heapdict"})
    assert render.call({"n": 1}, {})[1] == ["heapdict_obj = heapdict()"]
    # Nor a name the module binds that the test may import, nor the test's own locals:
    # the next free name.
    taken = {**METHOD, "owner": "Result", "qualname": "Result.limit"}
    render = CallRender(taken, {"Result", "result_obj"})
    assert render.call({"n": 1}, {})[1] == ["result_obj_2 = Result()"]
    cache = {**METHOD, "owner": "Cache", "qualname": "Cache.limit"}
    assert CallRender(cache, {"Cache", "cache"}).call({}, {})[1] == ["cache_obj = Cache()"]


def _contents(**more: Any) -> dict[str, Any]:
    """A mapping instance's changed items as the probe reports them (own_contents.py)."""
    whole = _seen("{'table': 't', 'size': 10}", type="dict", type_module="builtins")
    return {"kind": "dict", "length": 2, "whole": whole, "as_is": True, **more}


def test_the_items_a_method_stores_in_its_instance_are_asserted_by_key() -> None:
    # `self[key] = default` removed would still return the default: the key is asserted.
    stored = [{"key": _seen("'size'"), "value": _seen("10")}]
    contents = _contents(items=stored, removed=[_seen("'gone'")], all_keys=True)
    row = {"args": {"n": 10}, "returned": _seen("10"), "contents": contents}
    assert _lines(METHOD, row)[1:] == [
        "result = query.limit(n=10)",
        "assert result == 10",
        "assert query['size'] == 10",
        "assert 'gone' not in query",
    ]


def test_an_item_stored_from_a_clock_is_asserted_by_its_key_alone() -> None:
    contents = _contents(items=[{"key": _seen("'at'")}], removed=[], all_keys=True)
    contents.pop("whole")
    row = {"args": {"n": 1}, "returned": _seen("None"), "contents": contents}
    assert _lines(METHOD, row, procedure=True)[1:] == ["query.limit(n=1)", "assert 'at' in query"]


def test_contents_without_literal_keys_are_asserted_whole_or_by_their_count() -> None:
    unkeyed = [{"key": _seen("<Key>", literal=False), "value": _seen("1")}]
    row = {"args": {"n": 1}, "returned": _seen("None"), "contents": _contents(items=unkeyed)}
    assert _lines(METHOD, row, procedure=True)[2:] == ["assert query == {'table': 't', 'size': 10}"]
    # A sequence that compares equal to no list is read into one; a long one is counted.
    listed = {"kind": "list", "length": 2, "whole": _seen("[1, 2]"), "as_is": False}
    row["contents"] = listed
    assert _lines(METHOD, row, procedure=True)[2:] == ["assert list(query) == [1, 2]"]
    row["contents"] = {**listed, "whole": _seen(repr(list(range(40))))}
    assert _lines(METHOD, row, procedure=True)[2:] == ["assert len(query) == 2"]


def test_a_procedure_that_changed_only_its_instance_s_items_pins_them() -> None:
    row = {"args": {"n": 3}, "returned": _seen("None"), "state": {}, "contents": _contents()}
    assert pins_something(row, procedure=True)


def test_a_number_equal_to_a_number_argument_is_no_conversion() -> None:
    # nCk(2, 1) == 2.0: pinning `type(result) is float` pins how it was computed.
    assert returned_twin(2.0, None, [2, 1]) is None
    assert returned_twin(True, None, [1]) is None
    # a set equal to a frozenset argument still is one: the type tells them apart
    twin = returned_twin({1, 2}, None, [frozenset({1, 2})])
    assert twin is not None and twin["type_differs"]


def test_a_value_nothing_asserts_is_not_bound_to_a_name() -> None:
    # asteval's ``result = interpreter.remove_nodehandler("import")`` with only the state
    # asserted after it: a name nothing reads (ruff's F841 in the project's own suite).
    row = {
        "args": {"n": 1},
        "returned": _seen("<object object at 0x7f>", literal=False),
        "state": {"limit_value": _seen("1")},
    }
    assert _lines(METHOD, row)[1:] == ["query.limit(n=1)", "assert query.limit_value == 1"]


def test_a_count_the_test_did_not_make_is_asserted_as_the_change() -> None:
    # asteval's Interpreter starts with 48 handlers from a table elsewhere; a blind
    # reviewer: "the magic counts 48/49 are brittle: compare against the length before".
    row = {
        "args": {"n": 1},
        "returned": _seen("None"),
        "state_before": {"node_handlers": _seen("{...}", literal=False, length=48)},
        "state": {"node_handlers": _seen("{...}", literal=False, length=49)},
    }
    assert _lines(METHOD, row, procedure=True)[1:] == [
        "handlers_before = len(query.node_handlers)",
        "query.limit(n=1)",
        "assert len(query.node_handlers) == handlers_before + 1",
    ]
    # Left as it was: the same count, not the table's size.
    kept = {**row, "state": row["state_before"]}
    assert _lines(METHOD, kept, procedure=True)[1:] == [
        "handlers_before = len(query.node_handlers)",
        "query.limit(n=1)",
        "assert len(query.node_handlers) == handlers_before",
    ]
    # A few items, which the reader takes in at a glance: counted as they are.
    few = {
        **row,
        "state_before": {"node_handlers": _seen("{...}", literal=False, length=2)},
        "state": {"node_handlers": _seen("{...}", literal=False, length=1)},
    }
    assert _lines(METHOD, few, procedure=True)[1:] == [
        "query.limit(n=1)",
        "assert len(query.node_handlers) == 1",
    ]


def test_only_what_the_call_changed_in_its_instance_is_asserted() -> None:
    # pyfiglet's add_char_to_product asserted blankMarkers == [] and iterator == 0, as the
    # constructor left them, beside the widths it set.
    before = {"limit_value": _seen("None"), "marks": _seen("[]"), "at": _seen("0")}
    row = {
        "args": {"n": 1},
        "returned": _seen("None"),
        "state_before": before,
        "state": {**before, "limit_value": _seen("1")},
    }
    assert _lines(METHOD, row, procedure=True)[1:] == [
        "query.limit(n=1)",
        "assert query.limit_value == 1",
    ]
    # Nothing changed: the two its name says it left as they were.
    same = {**row, "state": before}
    assert _lines(METHOD, same, procedure=True)[1:] == [
        "query.limit(n=1)",
        "assert query.limit_value is None",
        "assert query.marks == []",
    ]


def test_a_call_that_returned_a_value_and_changed_nothing_asserts_only_the_value() -> None:
    # A flag the call set and released reads as the constructor left it: the value
    # returned is what the call did, the flag beside it says nothing.
    before = {"busy": _seen("False"), "marks": _seen("[]")}
    row = {
        "args": {"n": 1},
        "returned": _seen("['a', 'b']"),
        "state_before": before,
        "state": before,
    }
    assert _lines(METHOD, row)[1:] == ["result = query.limit(n=1)", "assert result == ['a', 'b']"]


def test_two_counts_that_end_in_one_word_get_two_names() -> None:
    # node_handlers and error_handlers would both be ``handlers_before``; a reader's count
    # (``items()``) is named without its call.
    many = {
        "node_handlers": _seen("{...}", literal=False, length=48),
        "error_handlers": _seen("{...}", literal=False, length=20),
        "items()": _seen("[...]", literal=False, length=30),
    }
    row = {
        "args": {"n": 1},
        "returned": _seen("None"),
        "state_before": many,
        "state": {name: {**seen, "length": seen["length"] + 1} for name, seen in many.items()},
    }
    assert _lines(METHOD, row, procedure=True)[1:4] == [
        "handlers_before = len(query.node_handlers)",
        "handlers_before_2 = len(query.error_handlers)",
        "items_before = len(query.items())",
    ]
