"""A returned callable (a query, a predicate, a transform) is called as its users call it.

The probe's part (probes/programs/returned_calls) runs here on invented closures; the
test's part (testgen/returned_calls) writes and names those calls.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from probe_support import probe_outcome

from remora.code.probes.programs.returned_calls import calls_returned, returned_calls
from remora.code.testgen.observed_asserts import observed_lines, pins_something
from remora.code.testgen.outcome_words import outcome_words
from remora.code.values.call_render import CallRender

BUILDER = """\
class Field:
    def __init__(self, name):
        self.name = name

    def equals(self, rhs):
        def test(document):
            return document.get(self.name) == rhs

        return test
"""


def _calls(value: Any, *arguments: Any) -> list[dict[str, Any]]:
    contexts: list[str] = []
    calls = returned_calls(value, list(arguments), 5.0, contexts.append, "one")
    assert contexts == ["", "one"]  # tried outside the set's coverage, the kept ones inside
    return calls


class Field:
    def __init__(self, name: str) -> None:
        self.name = name

    def one_of(self, items: list[str]) -> Any:
        return lambda document: document[self.name] in items

    def present(self) -> Any:
        return lambda document: self.name in document


def test_a_query_is_called_with_a_document_holding_the_key_it_reads() -> None:
    calls = _calls(Field("size").one_of(["s", "m"]), ["s", "m"])
    assert [(c["argument"], c["returned"]["repr"]) for c in calls] == [
        ("{'size': 's'}", "True"),
        ("{'size': 'other'}", "False"),  # a non-match of the match's own kind
    ]


def test_a_query_on_a_key_alone_is_told_by_the_document_without_it() -> None:
    calls = _calls(Field("size").present())
    assert [(c["argument"], c["returned"]["repr"]) for c in calls] == [
        ("{'size': 'other'}", "True"),
        ("{}", "False"),
    ]


def test_a_predicate_true_of_whatever_it_is_given_gives_no_call() -> None:
    assert _calls(lambda document: True, "a") == []


def test_a_callable_giving_back_whatever_it_is_given_gives_no_call() -> None:
    def checked(value: Any) -> Any:  # a validator of strings: every text passes through
        if not isinstance(value, str):
            raise TypeError(value)
        return value

    assert _calls(checked, "a") == []
    assert [c["returned"]["repr"] for c in _calls(str.upper, "a")] == ["'A'", "'OTHER'"]


def test_a_transform_is_reported_with_the_argument_it_changed() -> None:
    def bump(field: str) -> Any:
        def transform(doc: dict[str, int]) -> None:
            doc[field] += 1

        return transform

    calls = _calls(bump("count"), "count")
    assert calls == [
        {
            "argument": "{'count': 0}",
            "returned": {"repr": "None", "literal": True, "type": "NoneType"}
            | {"type_module": "builtins"},
            "changed": "{'count': 1}",
        }
    ]


def test_classes_builtins_and_callables_of_several_arguments_are_not_called() -> None:
    assert not calls_returned(dict, None)
    assert not calls_returned(len, None)
    assert not calls_returned(lambda a, b: a, None)
    assert calls_returned(lambda a, b=1: a, None)
    field = Field("x")
    assert not calls_returned(field, field)  # a builder's `return self`


def test_the_probe_reports_the_calls_of_a_returned_query(tmp_path: Path) -> None:
    (tmp_path / "fields.py").write_text(BUILDER)
    outcome = probe_outcome(
        tmp_path, "fields", "Field.equals", {"rhs": 3}, owner="Field", owner_args={"name": "n"}
    )
    calls = outcome["returned"]["calls"]
    assert [(c["argument"], c["returned"]["repr"]) for c in calls] == [
        ("{'n': 3}", "True"),
        ("{'n': 0}", "False"),
    ]


TARGET = {
    "module": "fields",
    "qualname": "Field.one_of",
    "name": "one_of",
    "kind": "method",
    "owner": "Field",
    "method_kind": "instance",
    "is_async": False,
    "parameters": [{"name": "items", "kind": "positional_or_keyword"}],
}


def _seen(repr_: str) -> dict[str, Any]:
    return {"repr": repr_, "literal": True, "type": "bool", "type_module": "builtins"}


def _row(args: dict[str, Any], calls: list[dict[str, Any]]) -> dict[str, Any]:
    returned = {"repr": "<function>", "literal": False, "type": "function"}
    return {"args": args, "returned": {**returned, "attributes": {}, "calls": calls}}


def _lines(row: dict[str, Any]) -> list[str]:
    render = CallRender(TARGET, {"Field"})
    call, setup = render.call(row["args"], {"name": "size"})
    return [*setup, *observed_lines(render, row, call, "fields", False)]


MATCH = [
    {"argument": "{'size': 's'}", "returned": _seen("True")},
    {"argument": "{'size': 'other'}", "returned": _seen("False")},
]


def test_a_returned_query_s_test_asserts_its_match_and_its_non_match() -> None:
    row = _row({"items": ["s", "m"]}, MATCH)
    assert pins_something(row, procedure=False)
    assert _lines(row) == [
        "field = Field(name='size')",
        "result = field.one_of(items=['s', 'm'])",
        "assert result({'size': 's'}) is True",
        "assert result({'size': 'other'}) is False",
    ]
    assert outcome_words(row, set(), {}) == ["returns_a_predicate_matching_a_value_in_items"]


def test_a_predicate_is_named_for_what_its_match_holds() -> None:
    equal = _row({"rhs": "s"}, MATCH)
    assert outcome_words(equal, set(), {}) == ["returns_a_predicate_matching_rhs"]
    present = _row({}, [MATCH[0], {"argument": "{}", "returned": _seen("False")}])
    words = outcome_words(present, set(), {})
    assert words == ["returns_a_predicate_matching_a_document_with_size"]
    one = _row({}, MATCH[:1])
    assert outcome_words(one, set(), {}) == ["returns_a_callable"]


def test_a_returned_transform_s_test_asserts_the_document_it_changed() -> None:
    none = {"repr": "None", "literal": True, "type": "NoneType", "type_module": "builtins"}
    change = {"argument": "{'count': 0}", "returned": none, "changed": "{'count': 1}"}
    row = _row({"items": ["s"]}, [change])
    assert _lines(row)[-3:] == [
        "document = {'count': 0}",
        "result(document)",
        "assert document == {'count': 1}",
    ]
    assert outcome_words(row, set(), {}) == ["returns_a_function_that_changes_count"]
    keyed = _row({"field": "count"}, [change])  # the key is that argument's value
    assert outcome_words(keyed, set(), {}) == ["returns_a_function_that_changes_field"]


Handler = TypeVar("Handler", bound=Callable[..., Any])


def listens_to(event: str) -> Callable[[Handler], Handler]:
    def register(f: Handler) -> Handler:
        REGISTERED.append((event, f))
        return f

    return register


def marks(event: str) -> Callable[[Callable[..., Any]], Any]:
    def mark(method: Callable[..., Any] | None) -> Any:
        return (event, method)

    return mark


def keyed(name: str) -> Callable[[dict[str, Any]], Any]:
    def read(document: dict[str, Any]) -> Any:
        return document.get(name)

    return read


REGISTERED: list[tuple[str, Any]] = []


def test_a_returned_decorator_is_not_called_with_values_in_place_of_a_function() -> None:
    # pyee's decorators, given "sample event" as the handler they register.
    assert not calls_returned(listens_to("opened"), None)
    assert not calls_returned(marks("opened"), None)
    assert calls_returned(keyed("size"), None)
    assert REGISTERED == []
