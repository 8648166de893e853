"""The class a call raised, named in its test through the node's module's own import."""

from __future__ import annotations

import ast

import pytest

from remora.code.probes.test_file_text import with_pieces
from remora.code.testgen.raised_names import ExceptionName, NodeImports, exception_name
from remora.code.testgen.written_tests import observed_piece
from remora.code.values.call_target import CallTarget

# kit/commands.py: `from kit import errors`, `from kit.reader import Unreadable`,
# `from kit import Missing` (kit/__init__.py re-exports kit.lookup.Missing), `import kit.io`.
IMPORTS = NodeImports(
    "kit.commands",
    {
        "errors": ("kit", "errors"),
        "Unreadable": ("kit.reader", "Unreadable"),
        "Missing": ("kit", "Missing"),
    },
    frozenset({"kit.io"}),
)


@pytest.mark.parametrize(
    ("qualname", "module", "named"),
    [
        (
            "UnknownCommand",
            "kit.errors",
            ExceptionName("errors.UnknownCommand", from_import=("kit", "errors")),
        ),
        (
            "Unreadable",
            "kit.reader",
            ExceptionName("Unreadable", from_import=("kit.reader", "Unreadable")),
        ),
        ("Missing", "kit.lookup", ExceptionName("Missing", from_import=("kit", "Missing"))),
        ("Closed", "kit.io", ExceptionName("kit.io.Closed", plain="kit.io")),
        ("Registry.Full", "kit.commands", ExceptionName("Registry.Full", own="Registry")),
        ("KeyError", "builtins", ExceptionName("KeyError")),
        # Not imported by the node's module: from its own.
        ("Timeout", "kit.net", ExceptionName("Timeout", from_import=("kit.net", "Timeout"))),
    ],
)
def test_a_raised_class_is_named_as_the_node_s_module_imports_it(
    qualname: str, module: str, named: ExceptionName
) -> None:
    assert exception_name(qualname, module, IMPORTS) == named


def test_a_class_of_a_private_module_or_local_to_a_function_has_no_name_to_import() -> None:
    assert exception_name("Boom", "kit._impl", IMPORTS) is None
    assert exception_name("run.<locals>.Boom", "kit.commands", IMPORTS) is None


def _target() -> CallTarget:
    return {
        "module": "kit.commands",
        "qualname": "run",
        "name": "run",
        "kind": "function",
        "owner": "",
        "method_kind": "",
        "is_async": False,
        "is_generator": False,
        "reason": "",
        "parameters": [{"name": "name", "kind": "positional_or_keyword"}],
    }


def test_the_test_imports_the_class_s_module_as_the_node_s_module_does() -> None:
    row = {
        "args": {"name": "nope"},
        "raised": {"type": "UnknownCommand", "module": "kit.errors", "message": "no such command"},
    }
    piece = observed_piece(_target(), {"run", "errors"}, {}, row, "test_run", imports=IMPORTS)
    assert "    with pytest.raises(errors.UnknownCommand) as excinfo:\n" in piece["source"]
    assert piece["from_imports"] == [["kit", "errors"]]
    written = with_pieces("", "tests/test_commands.py", "kit.commands", [piece])
    tree = ast.parse(written)
    imported = [ast.unparse(stmt) for stmt in tree.body if isinstance(stmt, ast.ImportFrom)]
    assert imported == ["from kit.commands import run", "from kit import errors"]
    # Without the module's imports: from the class's own module, never `Exception`.
    alone = observed_piece(_target(), {"run"}, {}, row, "test_run")
    assert "pytest.raises(UnknownCommand)" in alone["source"]
    assert alone["from_imports"] == [["kit.errors", "UnknownCommand"]]
