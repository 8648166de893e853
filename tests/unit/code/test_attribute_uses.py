"""A constructor parameter stored as an attribute takes the kind the class's uses say.

Made-up project: a write-through cache whose ``backing`` store its methods read as a
mapping (``key in self.backing`` then ``self.backing[key]``, ``del self.backing[key]``)
and whose ``fetch`` they call; a placeholder string for either builds an instance no
method can use. Real ``ast``, a real workspace, no sandbox.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.values.argument_fit import excluded_value
from remora.code.values.attribute_uses import (
    attribute_kinds,
    attribute_parameters,
    fitted_values,
    stored_kinds,
    unfit_value,
)
from remora.code.values.class_lookup import class_lookup
from remora.code.values.constructor import constructor_of
from remora.code.values.derived_sets import argument_sets
from remora.code.values.instance_search import owner_variants
from remora.code.values.kind_samples import CALLABLE_SAMPLE
from remora.code.values.parameters import function_parameters
from remora.code.values.project_values import owner_arguments
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

CACHE = """\
class WriteThrough:
    def __init__(self, backing, fetch, limit=8):
        self.backing = backing
        self.fetch = fetch
        self.limit = limit

    def read(self, key):
        if key in self.backing:
            return self.backing[key]
        value = self.fetch(key)
        self.backing[key] = value
        return value

    def drop(self, key):
        if key in self.backing:
            del self.backing[key]

    def count(self):
        return len(self.backing)


class Labelled:
    def __init__(self, names: str, tags, note):
        self.names = names
        self.tags = tags
        self.note = note

    def first(self, key):
        if isinstance(self.tags, str):
            return self.tags
        if key in self.names:
            return self.names[key], self.tags[key]
        return self.note.upper()
"""


def _class(name: str) -> ast.ClassDef:
    return next(
        n for n in ast.walk(ast.parse(CACHE)) if isinstance(n, ast.ClassDef) and n.name == name
    )


def _method(class_name: str, name: str) -> ast.FunctionDef:
    return next(
        s for s in _class(class_name).body if isinstance(s, ast.FunctionDef) and s.name == name
    )


def test_an_attribute_read_as_a_mapping_or_called_is_one() -> None:
    kinds = attribute_kinds(_class("WriteThrough"), {"backing", "fetch", "limit"})
    assert kinds == {"backing": "dict", "fetch": "callable"}


def test_an_annotated_parameter_or_one_asked_about_with_isinstance_is_left_alone() -> None:
    params = constructor_of(CACHE, "Labelled").parameters
    # `names` is annotated (the contract), `tags` is asked about (several kinds), `note`
    # is read as a string.
    assert stored_kinds(CACHE, "Labelled", params) == {}


def test_a_string_for_a_stored_mapping_is_unfit_and_fitted_to_a_dict() -> None:
    params = constructor_of(CACHE, "WriteThrough").parameters
    kinds = stored_kinds(CACHE, "WriteThrough", params)
    assert kinds == {"backing": "dict", "fetch": "callable"}
    typical = argument_sets(list(params), class_lookup(CACHE), 1)[0]["args"]
    assert unfit_value(typical, kinds) == (
        "backing: stored as an attribute the class uses as a mapping, not a str"
    )
    fitted = fitted_values(typical, kinds)
    assert isinstance(fitted["backing"], dict) and fitted["backing"]
    assert fitted["fetch"] == CALLABLE_SAMPLE
    assert fitted["limit"] == typical["limit"]
    assert unfit_value(fitted, kinds) is None
    assert unfit_value({**fitted, "backing": None}, kinds) is None  # an optional store


def test_the_owner_variants_try_the_mapping_empty_and_never_as_a_string() -> None:
    params = constructor_of(CACHE, "WriteThrough").parameters
    lookup = class_lookup(CACHE)
    kinds = stored_kinds(CACHE, "WriteThrough", params)
    owner = fitted_values(argument_sets(list(params), lookup, 1)[0]["args"], kinds)
    attributes = attribute_parameters(CACHE, "WriteThrough", params)
    found = owner_variants(
        _method("WriteThrough", "count"), attributes, owner, {}, lookup, {}, kinds
    )
    assert ({**owner, "backing": {}}, "self_backing_is_empty") in found
    assert all(unfit_value(args, kinds) is None for args, _words in found)


def test_a_parameter_tested_in_and_subscripted_with_one_key_takes_no_string() -> None:
    function = ast.parse("def look(table, key):\n    if key in table:\n        return table[key]\n")
    look = function.body[0]
    assert isinstance(look, ast.FunctionDef)
    why = excluded_value(
        look, function_parameters(look.args), {"table": "ab", "key": "a"}, class_lookup("")
    )
    assert why == "table: used as a mapping, not a str"


def _node(qualname: str) -> CSTNode:
    line = next(
        number
        for number, text in enumerate(CACHE.splitlines(), 1)
        if text.strip().startswith(f"def {qualname.split('.')[-1]}(")
    )
    start = sum(len(x) + 1 for x in CACHE.splitlines()[: line - 1])
    return CSTNode(
        make_node_id("kv/cache.py", qualname, "method"), "method", qualname.split(".")[-1],
        qualname, "kv/cache.py", start, start + 10, line, line + 1, CACHE[start : start + 10],
    )  # fmt: skip


def test_the_instance_of_a_method_gets_a_dict_store_and_a_callable(tmp_path: Path) -> None:
    (tmp_path / "kv").mkdir()
    (tmp_path / "kv" / "__init__.py").write_text("")
    (tmp_path / "kv" / "cache.py").write_text(CACHE)
    node = _node("WriteThrough.count")
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        owner: dict[str, Any] = owner_arguments(context, node_call_target(context))
    assert isinstance(owner["backing"], dict) and owner["fetch"] == CALLABLE_SAMPLE
    assert isinstance(owner["limit"], int)


FILES = """\
from typing import Optional


class Limits:
    def __init__(self, max_len: int, fs_encoding: Optional[str], label: str):
        self.max_len = max_len
        self.fs_encoding = fs_encoding or "utf-8"
        self.label = label

    def width(self):
        return self.max_len
"""


def test_an_instance_s_optional_text_nothing_says_more_of_is_none(tmp_path: Path) -> None:
    # pathvalidate's BaseFile(max_len=1, fs_encoding="sample fs encoding"): "a fake
    # encoding name"; its annotation takes None, so None; a plain str keeps its sample.
    (tmp_path / "kv").mkdir()
    (tmp_path / "kv" / "__init__.py").write_text("")
    (tmp_path / "kv" / "cache.py").write_text(FILES)
    line = next(n for n, t in enumerate(FILES.splitlines(), 1) if "def width(" in t)
    start = sum(len(x) + 1 for x in FILES.splitlines()[: line - 1])
    node = CSTNode(
        make_node_id("kv/cache.py", "Limits.width", "method"), "method", "width",
        "Limits.width", "kv/cache.py", start, start + 10, line, line + 1, FILES[start : start + 10],
    )  # fmt: skip
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        owner: dict[str, Any] = owner_arguments(context, node_call_target(context))
    assert owner["fs_encoding"] is None
    assert owner["label"] == "sample label"
    assert isinstance(owner["max_len"], int)
