"""Written calls pass a positional-only parameter by position (``/`` or the ``__name``
convention) and leave out an argument equal to its default."""

from __future__ import annotations

import ast

from remora.code.parsing.positional_only import conventional_positional_only
from remora.code.testgen.written_tests import observed_piece
from remora.code.values import without_defaults
from remora.code.values.parameters import function_parameters

_DEF = "def read_text(__src, *, strict=True, parse_num=float, depth=3):\n    pass\n"


def _target() -> dict[str, object]:
    function = ast.parse(_DEF).body[0]
    assert isinstance(function, ast.FunctionDef)
    return {
        "module": "lilreader",
        "qualname": "read_text",
        "name": "read_text",
        "kind": "function",
        "owner": "",
        "method_kind": "",
        "is_async": False,
        "parameters": [p.row() for p in function_parameters(function.args)],
    }


def test_a_dunder_parameter_is_positional_only_by_convention() -> None:
    assert conventional_positional_only(["__src", "__more", "depth"]) == 2
    assert conventional_positional_only(["self", "__src"], skip_first=True) == 2
    assert conventional_positional_only(["__init__", "x"]) == 0
    kinds = [row["kind"] for row in _target()["parameters"]]  # type: ignore[attr-defined]
    assert kinds == ["positional_only", "keyword_only", "keyword_only", "keyword_only"]


def test_the_written_call_passes_it_by_position_and_leaves_defaults_out() -> None:
    row = {
        "args": {
            "__src": "[a]",
            "strict": True,
            "parse_num": {"__callable__": "float"},
            "depth": 4,
        },
        "returned": {"repr": "1", "literal": True},
    }
    piece = observed_piece(_target(), {"read_text"}, {}, row, "test_read_text_returns_1")
    assert "result = read_text('[a]', depth=4)" in piece["source"]
    assert "__src=" not in piece["source"]


def test_a_default_of_another_type_stays() -> None:
    rows = [{"name": "strict", "kind": "keyword_only", "default": "True"}]
    assert without_defaults({"strict": 1}, rows) == {"strict": 1}
    assert without_defaults({"strict": True}, rows) == {}
