"""Tuples and classes, values JSON cannot spell: sent as markers, built by the probe,
written back as Python, and searched for where the code asks for them.

Real ``ast`` on made-up functions (:func:`tuple_type_values`, :func:`class_base`), the
probe's real :func:`built_value` on a made-up module, and the renderer's text.
"""

from __future__ import annotations

import ast
import types
from typing import Any

import pytest

from remora.code.probes.programs.call_arguments import built_value
from remora.code.values.argument_fit import excluded_value
from remora.code.values.call_render import CallRender
from remora.code.values.call_target import CallTarget
from remora.code.values.call_text import value_from_text
from remora.code.values.class_lookup import class_lookup
from remora.code.values.derived_sets import sample_value
from remora.code.values.parameters import Parameter
from remora.code.values.tuple_type_arguments import (
    annotated_tuples,
    class_base,
    tuple_type_values,
)
from remora.code.values.unspelled_values import UNKNOWN, stand_in, tuple_of, type_of

MODULE = """\
class Shape:
    def __init__(self, sides):
        self.sides = sides


class _Hidden:
    pass


def pairs_only(value):
    if not value or not all(isinstance(t, tuple) and len(t) == 2 for t in value):
        return False, None
    return True, value


def triples(rows):
    return [row for row in rows if isinstance(row, tuple) and len(row) == 3]


def heads(items):
    if isinstance(items[0], tuple):
        return list(items[0])
    return [items[0]]


def as_list(value):
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def narrower(kind, base):
    return issubclass(kind, base)


def all_narrower(signature, other):
    return all(map(issubclass, signature, other))


def name_of(kind):
    try:
        return kind.__name__
    except AttributeError:
        return "(%s)" % ", ".join(map(name_of, kind))


def label(kind):
    return kind.__qualname__


def words(text):
    return text.split()


def described(func):
    return f"{func.__name__}: {func()}"


def list_of_pairs(value):
    if not isinstance(value, (list, tuple)) or not all(isinstance(t, tuple) for t in value):
        return None
    return dict(value)
"""
TREE = ast.parse(MODULE)


def _function(name: str) -> ast.FunctionDef:
    found = next(n for n in TREE.body if isinstance(n, ast.FunctionDef) and n.name == name)
    assert isinstance(found, ast.FunctionDef)
    return found


def _values(name: str, base: dict[str, Any]) -> list[tuple[str, Any, str]]:
    return tuple_type_values(_function(name), base, TREE)


# -- the probe builds them, the test writes them -----------------------------------------


def _module() -> types.ModuleType:
    module = types.ModuleType("kit")
    exec(compile(MODULE, "kit.py", "exec"), module.__dict__)  # a made-up module
    return module


def test_the_probe_builds_tuples_and_classes() -> None:
    module = _module()
    built = built_value(
        {"pairs": [tuple_of(["a", 1])], "kind": type_of("int"), "own": type_of("Shape")}, module
    )
    assert built == {"pairs": [("a", 1)], "kind": int, "own": module.Shape}
    assert built_value(tuple_of([tuple_of([type_of("str")])]), module) == ((str,),)


def test_the_probe_refuses_a_name_of_the_module_that_is_no_class() -> None:
    with pytest.raises(TypeError, match="pairs_only is no class"):
        built_value(type_of("pairs_only"), _module())


def _target() -> CallTarget:
    target: dict[str, Any] = {
        "kind": "function",
        "qualname": "pairs_only",
        "name": "pairs_only",
        "method_kind": "",
        "parameters": [{"name": "value", "kind": "positional_or_keyword"}],
        "is_async": False,
    }
    return target  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (tuple_of([]), "()"),
        (tuple_of(["a"]), "('a',)"),
        ([tuple_of(["a", 1])], "[('a', 1)]"),
        (tuple_of([type_of("int"), type_of("float")]), "(int, float)"),
    ],
)
def test_the_test_writes_tuples_and_builtin_classes_as_python(value: Any, text: str) -> None:
    render = CallRender(_target(), {"pairs_only", "Shape"})
    assert render.value(value) == text
    assert render.imports == set()


def test_a_class_of_the_module_is_imported_by_the_test() -> None:
    render = CallRender(_target(), {"pairs_only", "Shape"})
    assert render.value(type_of("Shape")) == "Shape"
    assert render.imports == {"Shape"}


def test_text_written_with_tuples_and_classes_reads_back_as_the_markers() -> None:
    lookup = class_lookup(MODULE)
    assert value_from_text("[1, (2, 3)]", lookup) == [1, tuple_of([2, 3])]
    assert value_from_text("(int, float)", lookup) == tuple_of([type_of("int"), type_of("float")])
    assert value_from_text("Shape", lookup) == type_of("Shape")
    assert value_from_text("Shape(3)", lookup)["__class__"] == "Shape"
    with pytest.raises(ValueError, match="not a literal"):
        value_from_text("print", lookup)


def test_a_dict_keyed_by_anything_but_strings_is_refused_not_stringified() -> None:
    # voluptuous' `Schema({Required("a"): str})` became the key
    # "{'__class__': 'Required', ...}", pinned in a test as that string.
    lookup = class_lookup(MODULE)
    assert value_from_text("{'a': Shape(3)}", lookup)["a"]["__class__"] == "Shape"
    with pytest.raises(ValueError, match="'Shape\\(3\\)': a dict key other than a string"):
        value_from_text("{Shape(3): int}", lookup)
    with pytest.raises(ValueError, match="'1': a dict key other than a string"):
        value_from_text("{1: 'one'}", lookup)


def test_a_marker_stands_for_its_python_value_where_the_host_can_make_it() -> None:
    assert stand_in([tuple_of(["a", 1])]) == [("a", 1)]
    assert stand_in(type_of("object")) is object
    assert stand_in({"__set__": [1, 2]}) == {1, 2}
    assert stand_in(type_of("Shape")) is UNKNOWN
    assert stand_in({"k": {"__class__": "Shape", "args": {}}}) is UNKNOWN


# -- the annotation and the uses admit them ----------------------------------------------


def _excluded(function: str, args: dict[str, Any], annotation: str | None = None) -> str | None:
    params = [Parameter(name, "positional_or_keyword", annotation, None) for name in args]
    return excluded_value(_function(function), params, args, class_lookup(MODULE), TREE)


def test_a_class_reads_the_attribute_a_class_has_and_a_string_lacks() -> None:
    assert _excluded("label", {"kind": type_of("int")}) is None
    assert _excluded("label", {"kind": "sample kind"}) is not None
    assert _excluded("label", {"kind": type_of("Shape")}) is None  # the module's: not read


def test_a_tuple_annotation_takes_a_tuple_and_no_list() -> None:
    assert _excluded("heads", {"items": tuple_of(["a", "b"])}, "tuple[str, ...]") is None
    assert _excluded("heads", {"items": ["a", "b"]}, "tuple[str, ...]") is not None


def test_a_tuple_of_strings_is_no_signature_of_classes() -> None:
    assert _excluded("all_narrower", {"signature": tuple_of(["a"]), "other": tuple_of([])})
    fine = {"signature": tuple_of([type_of("int")]), "other": tuple_of([type_of("object")])}
    assert _excluded("all_narrower", fine) is None


def test_a_list_for_a_parameter_annotated_tuple_alone_is_sent_as_a_tuple() -> None:
    params = [
        Parameter("pair", "positional_or_keyword", "Optional[Tuple[int, int]]", None),
        Parameter("rows", "positional_or_keyword", "list | tuple", None),
    ]
    args = annotated_tuples({"pair": [1, 2], "rows": [1]}, params)
    assert args == {"pair": tuple_of([1, 2]), "rows": [1]}


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        ("tuple[str, int]", tuple_of(["sample pair", 7])),
        ("Tuple[int, ...]", tuple_of([1, 7])),
        ("typing.Tuple", tuple_of(["sample pair", "other pair"])),
    ],
)
def test_a_tuple_annotation_gets_a_tuple_of_its_items(annotation: str, expected: Any) -> None:
    assert sample_value("pair", annotation, 0, lambda _: None) == expected


def test_an_open_tuple_annotation_is_empty_at_the_edge() -> None:
    assert sample_value("pair", "tuple[int, ...]", 2, lambda _: None) == tuple_of([])


# -- the search offers them where the code asks ------------------------------------------


def test_items_asked_whether_they_are_pairs_get_a_list_of_one_pair() -> None:
    found = _values("pairs_only", {"value": "sample value"})
    assert found == [("value", [tuple_of(["sample value", "other value"])], "value_holds_tuples")]


def test_the_length_the_code_compares_an_item_with_is_the_tuples() -> None:
    ((name, value, _why),) = _values("triples", {"rows": []})
    assert name == "rows"
    assert len(value[0]["__tuple__"]) == 3


def test_an_indexed_item_asked_about_tuple_gets_a_tuple() -> None:
    ((_name, value, why),) = _values("heads", {"items": ["sample item"]})
    assert value == [tuple_of(["sample item", "other item"])]
    assert why == "items_holds_tuples"


def test_a_value_asked_isinstance_tuple_gets_its_items_as_a_tuple() -> None:
    assert _values("as_list", {"value": [1, 2]}) == [
        ("value", tuple_of([1, 2]), "value_is_a_tuple")
    ]
    assert _values("as_list", {"value": tuple_of([1])}) == []  # already one


def test_text_code_gets_no_tuple_nor_class() -> None:
    assert _values("words", {"text": "sample text"}) == []
    assert class_base(_function("words"), {"text": "sample text"}) == {}


def test_classes_compared_with_issubclass_start_equal_then_differ_one_at_a_time() -> None:
    base = class_base(_function("narrower"), {"kind": "sample kind", "base": None})
    assert base == {"kind": type_of("int"), "base": type_of("int")}
    found = {(name, why): value for name, value, why in _values("narrower", base)}
    assert found[("base", "base_is_object")] == type_of("object")  # int is a subclass of it
    assert found[("kind", "kind_is_str")] == type_of("str")  # one apart
    assert found[("kind", "kind_is_shape")] == type_of("Shape")  # the module's public class
    assert not any("hidden" in why for _name, why in found)
    assert len([n for n, _why in found if n == "kind"]) <= 4


def test_a_signature_of_classes_gets_tuples_of_classes() -> None:
    base = class_base(_function("all_narrower"), {"signature": [], "other": []})
    assert base == {"signature": tuple_of([type_of("int")]), "other": tuple_of([type_of("int")])}
    values = [v for n, v, _why in _values("all_narrower", base) if n == "other"]
    assert tuple_of([type_of("object")]) in values
    assert tuple_of([type_of("int"), type_of("str")]) in values
    assert all(v["__tuple__"] and "__type__" in v["__tuple__"][0] for v in values)


def test_a_class_the_code_also_walks_gets_a_tuple_of_two_classes_too() -> None:
    base = class_base(_function("name_of"), {"kind": ["sample kind", "other kind"]})
    assert base == {"kind": type_of("int")}
    values = [v for _n, v, _why in _values("name_of", base)]
    assert tuple_of([type_of("int"), type_of("float")]) in values


def test_an_instance_of_the_project_in_the_base_is_kept() -> None:
    held = {"__class__": "Shape", "args": {"sides": 3}}
    assert class_base(_function("label"), {"kind": held}) == {}
    assert _values("label", {"kind": held}) == []


def test_a_function_read_for_its_name_is_no_class() -> None:
    assert class_base(_function("described"), {"func": {"__callable__": "str"}}) == {}


def test_a_sequence_asked_about_tuple_whose_items_are_too_gets_both() -> None:
    found = _values("list_of_pairs", {"value": "sample value"})
    assert [why for _n, _v, why in found] == ["value_is_a_tuple", "value_holds_tuples"]


def test_a_parameter_stored_into_a_collection_gives_it_none_of_its_uses() -> None:
    # ``table[0] = func`` binds no name: ``table`` is no copy of ``func``
    store = ast.parse(
        "def store(table, func, value):\n    table[0] = func\n    return isinstance(value, table)\n"
    ).body[0]
    assert isinstance(store, ast.FunctionDef)
    assert class_base(store, {"table": [], "func": None, "value": 1}) == {"table": type_of("int")}


def test_an_attribute_read_the_code_catches_the_lack_of_excludes_nothing() -> None:
    # name_of reads kind.__name__ in a try that catches AttributeError: a tuple may come
    assert _excluded("name_of", {"kind": tuple_of([type_of("int"), type_of("str")])}) is None
    assert _excluded("label", {"kind": tuple_of([type_of("int")])}) is not None
