"""Bytes as the value search sends, builds and writes them (values/unspelled_values.py):
a buffer parameter is given bytes, never text that only ``len`` accepts (ulid's
``encode(value: hints.Buffer)``: "passes a str where a bytes buffer is expected")."""

from __future__ import annotations

import ast
import types
from typing import Any

from remora import python_ast
from remora.code.probes.programs.call_arguments import built_value
from remora.code.values.call_render import CallRender
from remora.code.values.derived_sets import sample_value
from remora.code.values.input_search import boundary_values
from remora.code.values.placeholders import made_up
from remora.code.values.type_aliases import resolved_annotation
from remora.code.values.unspelled_values import bytes_of, stand_in

TARGET: dict[str, Any] = {
    "module": "codec",
    "qualname": "encode",
    "name": "encode",
    "kind": "function",
    "owner": None,
    "method_kind": None,
    "is_async": False,
    "parameters": [{"name": "value", "kind": "positional_or_keyword"}],
    "owner_parameters": [],
}


def test_bytes_go_to_the_probe_as_text_and_come_back_as_bytes() -> None:
    every_byte = bytes(range(256))
    sent = bytes_of(every_byte)
    assert isinstance(sent["__bytes__"], str)  # JSON carries it
    assert built_value(sent, types.ModuleType("codec")) == every_byte
    assert built_value([sent], types.ModuleType("codec")) == [every_byte]
    assert stand_in(sent) == every_byte


def test_a_test_writes_bytes_as_a_bytes_literal() -> None:
    call, _setup = CallRender(TARGET, set()).call({"value": bytes_of(b"ab\x00")}, {})
    assert call == "encode(value=b'ab\\x00')"


def test_a_buffer_annotation_samples_bytes_and_the_made_up_ones_are_told() -> None:
    for annotation in ("bytes", "bytearray", "Union[bytes, bytearray, memoryview]"):
        value = sample_value("value", annotation, 0, lambda _name: None)
        assert value == bytes_of(b"sample value"), annotation
        assert made_up("value", value)
    assert sample_value("value", "bytes", 2, lambda _name: None) == bytes_of(b"")
    assert not made_up("value", bytes_of(b"\x01\x02"))


def test_a_length_check_of_a_buffer_is_met_with_bytes_of_that_length() -> None:
    source = "def encode(value):\n    if len(value) != 4:\n        raise ValueError('4')\n"
    function = python_ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    found = boundary_values(function, {"value": "bytes"})
    assert ("value", bytes_of(b"aaaa"), "value_of_length_4") in found
    assert ("value", "aaaa", "value_of_length_4") in boundary_values(function, {})


def test_an_alias_of_an_imported_project_module_is_read_through_it() -> None:
    aliases = {"hints.Buffer": "typing.Union[bytes, bytearray, memoryview]"}
    assert resolved_annotation("hints.Buffer", aliases) == (
        "typing.Union[bytes, bytearray, memoryview]"
    )
    assert resolved_annotation("Optional[hints.Buffer]", aliases) == (
        "Optional[typing.Union[bytes, bytearray, memoryview]]"
    )
    assert resolved_annotation("other.Buffer", aliases) == "other.Buffer"
