"""The toolkit on one small file per case: ``cases/NAME.py`` in, ``cases/NAME.json`` expected.

A case's JSON names the node (``[type, qualified name, first line]``) and what
the toolkit must answer about it; only the keys present are checked. With
``set_docstring``, the file written must equal ``cases/NAME.out.py`` byte for
byte, read back with that docstring, and differ from the input only inside the
docstring (``"unchanged": true`` when writing the same text changes nothing).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from remora.code.docstring.edit import node_docstring, with_docstring
from remora.code.parsing import (
    NodeRef,
    SourceNode,
    locate,
    node_raises,
    node_returns,
    node_signature,
    node_span,
    parse,
)

CASES = Path(__file__).parent / "cases"
NAMES = sorted(p.stem for p in CASES.glob("*.json"))


def load(name: str) -> tuple[str, dict[str, Any], SourceNode]:
    text = (CASES / f"{name}.py").read_bytes().decode("utf-8")
    expected = json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))
    node_type, full_name, line = expected["node"]
    node = locate(parse(text, f"{name}.py"), NodeRef(node_type, full_name, line))
    return text, expected, node


def host_docstring(text: str, node: SourceNode) -> str | None:
    """``ast.get_docstring`` of the node, by this interpreter's own parser."""
    tree: ast.AST = ast.parse(text)
    if node.definition is not None:
        for part in node.ref.full_name.split("."):
            found = [
                n
                for n in ast.iter_child_nodes(tree)
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and n.name == part
            ]
            # The last definition of a name is the one nearest the end (setters, overloads).
            lines = [n.lineno for n in found]
            tree = min(found, key=lambda n: abs(n.lineno - lines[-1]))
    assert isinstance(tree, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    return ast.get_docstring(tree)


def parses_here(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False  # PEP 695 on Python 3.11: LibCST reads it, ast does not
    return True


@pytest.mark.parametrize("name", NAMES)
def test_reading(name: str) -> None:
    _text, expected, node = load(name)
    if "span" in expected:
        span = node_span(node)
        assert {k: span[k] for k in expected["span"]} == expected["span"]
    if "docstring" in expected:
        assert node_docstring(node)["value"] == expected["docstring"]
    if "raises" in expected:
        assert [r["name"] for r in node_raises(node)] == expected["raises"]
    if "returns_value" in expected:
        assert node_returns(node)["returns_value"] is expected["returns_value"]
    if node.definition is None:
        return
    signature = node_signature(node)
    if "parameters" in expected:
        rows = [
            [
                p["name"],
                p["kind"],
                p["annotation"],
                p["default"],
                *([True] if p["implicit"] else []),
            ]
            for p in signature["parameters"]
        ]
        assert rows == expected["parameters"]
    if "type_params" in expected:
        assert [[t["name"], t["kind"]] for t in signature["type_params"]] == expected["type_params"]
    for key in ("returns", "decorators", "is_async"):
        if key in expected:
            assert signature[key] == expected[key]


@pytest.mark.parametrize("name", [n for n in NAMES if (CASES / f"{n}.out.py").exists()])
def test_set_docstring(name: str) -> None:
    text, expected, node = load(name)
    wanted = expected["set_docstring"]
    new_text = with_docstring(node, wanted)
    assert new_text.encode() == (CASES / f"{name}.out.py").read_bytes()
    if expected.get("unchanged"):
        assert new_text == text
    written = locate(parse(new_text, node.file.path), node.ref)
    assert node_docstring(written)["value"] == wanted
    if parses_here(new_text):
        assert host_docstring(new_text, written) == wanted
    # Every byte outside the docstring is the input's: strip the docstring statement from both.
    before, after = node_docstring(node), node_docstring(written)
    new_data, old_data = new_text.encode(), text.encode()
    kept_new = new_data[: after["start_byte"]] + new_data[after["end_byte"] :]
    if before["present"]:
        kept_old = old_data[: before["start_byte"]] + old_data[before["end_byte"] :]
        assert kept_new == kept_old
    else:
        # One insertion holding the literal: new == old[:i] + inserted + old[i:].
        delta = len(new_data) - len(old_data)
        common = next(
            (i for i, (a, b) in enumerate(zip(new_data, old_data, strict=False)) if a != b),
            len(old_data),
        )
        assert new_data[:common] + new_data[common + delta :] == old_data
        assert new_data[after["start_byte"] : after["end_byte"]] in new_data[: common + delta]


@pytest.mark.parametrize("name", NAMES)
def test_every_case_has_an_expected_file(name: str) -> None:
    expected = json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))
    assert "set_docstring" not in expected or (CASES / f"{name}.out.py").exists()


def test_text_that_cannot_read_back_is_refused() -> None:
    node = locate(parse("def f():\n    pass\n"), NodeRef("function", "f", 1))
    with pytest.raises(ValueError, match="read back"):
        with_docstring(node, "  indented first line")
    with pytest.raises(ValueError, match="empty"):
        with_docstring(node, "   ")
