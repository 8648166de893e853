"""No string for a parameter the code uses as a type, a mapping or a collection of non-text items.

Real ``ast`` on made-up functions, read by :func:`non_text_places`; the verdicts on values
through :func:`string_misfit` and :func:`excluded_value`, which the value search filters
its candidates with.
"""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.values.argument_fit import excluded_value
from remora.code.values.class_lookup import class_lookup
from remora.code.values.non_text_uses import non_text_places, string_misfit, walked_lists
from remora.code.values.parameters import Parameter
from remora.code.values.placeholders import made_up, made_up_items

MODULE = """\
import os


def narrower(kind, base):
    return issubclass(kind, base)


def matches(value, kind):
    return isinstance(value, kind)


def first_names(people):
    return [person.first for person in people]


def as_table(rows):
    return {key: value for key, value in rows}


def notify(callbacks, event):
    for callback in callbacks:
        callback(event)


def node_kinds(nodes):
    return [node["kind"] for node in nodes]


def all_narrower(signature, other):
    return all(map(issubclass, signature, other))


def pairwise(left, right):
    for one, two in zip(left, right):
        if not issubclass(one, two):
            return False
    return True


def first_is_int(signature):
    head = signature[0]
    return issubclass(head, int)


def flatten(items):
    out = []
    for item in items:
        if isinstance(item, list):
            out.extend(item)
        else:
            out.append(item)
    return out


def widths(words):
    return [len(word) for word in words]


def until_end(tokens):
    for token in tokens:
        if token == "end":
            return True
    return False


def resolve(path):
    path = tuple(path)
    for step in path:
        if isinstance(step, int):
            return step
    return None


def parents(path):
    for index, step in enumerate(path[:-1]):
        if isinstance(step, str) and step.isdigit():
            return index
    return None


def count_vowels(text):
    return sum(1 for ch in text if ch in "aeiou")


def capitals(name):
    return [ch for ch in name if ch.isupper()]


def digits(number):
    return [int(ch) for ch in number]


def as_list(value):
    if isinstance(value, str):
        return [value]
    return list(value)


def largest(arg):
    return max(arg) if arg else None


def larger(a, b):
    return max(a, b)


def joined(separator, parts):
    return separator.join(parts)


def located(root, name):
    return os.path.join(root, name)


def kind_of(node):
    return node["type"]


def child_kinds(node):
    return [child["type"] for child in node["children"]]


def visited(node, visit):
    return [visit(child) for child in node["children"]]


def first_child(node):
    return node["children"][0]


def split_first(spec):
    spec = spec.split(",")
    for part in spec:
        part()


def name_of(kind):
    return kind.__name__
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == name)


def _kinds(name: str) -> dict[tuple[str, str | None], str]:
    return {place: read.kind for place, read in non_text_places(_function(name)).items()}


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("narrower", {("kind", None): "type", ("base", None): "type"}),
        ("matches", {("kind", None): "type"}),
        ("first_names", {("people", None): "items"}),  # person.first: no string has it
        ("as_table", {("rows", None): "items"}),  # unpacked
        ("notify", {("callbacks", None): "items"}),  # called
        ("node_kinds", {("nodes", None): "items"}),  # read with a string key
        ("all_narrower", {("signature", None): "items", ("other", None): "items"}),
        ("pairwise", {("left", None): "items", ("right", None): "items"}),
        ("first_is_int", {("signature", None): "items"}),  # head = signature[0]
        ("flatten", {("items", None): "characters"}),  # items of several kinds
        ("widths", {("words", None): "characters"}),
        ("until_end", {("tokens", None): "characters"}),  # no character equals "end"
        ("resolve", {("path", None): "characters"}),  # path = tuple(path) keeps its items
        ("parents", {("path", None): "characters"}),  # asked isinstance beats .isdigit()
        ("largest", {("arg", None): "collection"}),
        ("joined", {("parts", None): "collection"}),  # separator: .join is text's
        ("kind_of", {("node", None): "mapping"}),
        ("child_kinds", {("node", None): "mapping", ("node", "children"): "items"}),
        ("visited", {("node", None): "mapping", ("node", "children"): "collection"}),
    ],
)
def test_uses_say_what_no_string_stands_for(
    name: str, kinds: dict[tuple[str, str | None], str]
) -> None:
    assert _kinds(name) == kinds


@pytest.mark.parametrize(
    "name",
    [
        "count_vowels",  # ch in "aeiou": characters
        "capitals",  # ch.isupper()
        "digits",  # int(ch)
        "as_list",  # isinstance(value, str): a string is one of its kinds
        "larger",  # max(a, b) compares two values
        "located",  # os.path.join(root, name) is no str.join
        "split_first",  # rebound to another value: its reads are of two
    ],
)
def test_text_code_has_no_rule(name: str) -> None:
    assert _kinds(name) == {}


def test_first_child_is_only_a_mapping() -> None:
    # ``node["children"][0]``: text has a first item too; the rule reads the key only.
    assert _kinds("first_child") == {("node", None): "mapping"}


@pytest.mark.parametrize(
    ("name", "parameter", "value", "excluded"),
    [
        ("narrower", "kind", "sample kind", True),
        ("narrower", "kind", "", True),  # not even an empty one
        ("narrower", "kind", {"__callable__": "int"}, False),
        ("first_names", "people", "ab", True),
        ("first_names", "people", ["sample person"], True),  # a list of strings neither
        ("first_names", "people", [], False),
        ("flatten", "items", "ab", True),
        ("flatten", "items", ["ab", "cd"], False),  # items of several kinds: strings may be
        ("largest", "arg", "sample arg", True),  # the placeholder the search made up
        ("largest", "arg", "zebra", False),  # a string of the project's own: its word
        ("largest", "arg", ["sample arg", "other arg"], False),
        ("kind_of", "node", "sample node", True),
        ("kind_of", "node", {"type": "field"}, False),
        ("visited", "node", {"children": "sample children"}, True),
        ("visited", "node", {"children": []}, False),
        ("child_kinds", "node", {"children": ["sample child"]}, True),
        ("child_kinds", "node", {"children": [{"type": "field"}]}, False),
    ],
)
def test_string_misfit_names_a_string_that_cannot_stand_in(
    name: str, parameter: str, value: Any, excluded: bool
) -> None:
    why = string_misfit(non_text_places(_function(name)), parameter, value)
    assert (why is not None) is excluded


def test_the_reason_names_the_use() -> None:
    why = string_misfit(non_text_places(_function("all_narrower")), "signature", "ab") or ""
    assert why.startswith("signature: its items handed to issubclass as types")
    assert why.endswith("a collection of no text, not a str")


def _params(name: str, annotation: str | None = None) -> list[Parameter]:
    return [
        Parameter(a.arg, "positional_or_keyword", annotation) for a in _function(name).args.args
    ]


def test_excluded_value_applies_the_rule_unless_annotated_text() -> None:
    lookup = class_lookup(MODULE)
    found = excluded_value(_function("widths"), _params("widths"), {"words": "ab"}, lookup)
    assert found is not None and found.startswith("words: its items handed to len")
    annotated = _params("widths", "Optional[str]")  # the contract says text: it stays
    assert excluded_value(_function("widths"), annotated, {"words": "ab"}, lookup) is None


def test_an_attribute_a_string_lacks_though_its_type_has_it_excludes_one() -> None:
    # ``str.__name__`` exists, ``"int".__name__`` does not: the value is asked, not its type.
    found = excluded_value(
        _function("name_of"), _params("name_of"), {"kind": "int"}, class_lookup(MODULE)
    )
    assert found == "kind: a str has no attribute '__name__' the code reads"


def test_a_walked_collection_gets_two_made_up_items() -> None:
    base = {"arg": "sample arg"}
    assert walked_lists(_function("largest"), base) == {"arg": ["sample arg", "other arg"]}
    assert walked_lists(_function("largest"), {"arg": "zebra"}) == {}  # the project's own
    # Items the code uses as no text: a list of placeholders is no better than one.
    assert walked_lists(_function("first_names"), {"people": "sample people"}) == {}


def test_made_up_items_are_made_up() -> None:
    assert made_up_items("items") == ["sample item", "other item"]
    assert made_up("seq", made_up_items("seq"))
