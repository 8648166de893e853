"""Values the value search found for another role count as made up (testgen/invented_values)."""

from __future__ import annotations

import ast

import pytest

from remora.code.testgen.invented_values import invented

MODULE = """\
def decode(input, fallback_encoding, errors="replace"):
    if input.startswith(b"\\xef\\xbb\\xbf"):
        return input[3:].decode("utf-8", errors)
    return input.decode(fallback_encoding, errors)


def to_text(data, codec):
    return data.decode(codec)


def shout(text):
    return text.upper()
"""


def _function(name: str) -> ast.FunctionDef:
    tree = ast.parse(MODULE)
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize(
    ("function", "parameter", "value", "made_up"),
    [
        # webencodings' decode("ascii", ""): a codec's name given as the input ("looks like
        # the arguments were swapped").
        ("decode", "input", "ascii", True),
        ("decode", "fallback_encoding", "ascii", False),  # its name says an encoding
        ("to_text", "codec", "utf8", False),
        ("shout", "text", "utf-8", True),  # latexcodec's, jsonpickle's encode("utf-8")
        ("shout", "text", "hello", False),  # no codec's name
        ("shout", "text", "", False),
        # Words that are only aliases, byte transforms, or a codec that encodes nothing.
        ("shout", "text", "greek", False),
        ("shout", "text", "hex", False),
        ("shout", "text", "undefined", False),
        ("shout", "text", "cp1252", True),
    ],
)
def test_a_codec_s_name_is_made_up_where_the_parameter_takes_no_codec(
    function: str, parameter: str, value: str, made_up: bool
) -> None:
    assert invented(parameter, value, _function(function)) is made_up


def test_a_parameter_the_code_hands_to_decode_takes_a_codec_whatever_its_name() -> None:
    source = "def read(raw, how):\n    return raw.decode(how)\n"
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert invented("how", "latin-1", function) is False
    assert invented("raw", "latin-1", function) is True
