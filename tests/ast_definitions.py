"""A function or class of a module's source by qualified name, with ``ast``.

Shared by tests under tests/unit and tests/integration: tests/conftest.py puts
this folder on ``sys.path`` (pytest's default import mode). Tests use it rather
than remora.code's libcst lookup or competence_lib's, so what they check is
not found by the code under test.
"""

from __future__ import annotations

import ast

__all__ = ["Definition", "definition_named"]

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def definition_named(text: str, qualname: str) -> Definition:
    """The definition ``qualname`` (``Class.method``) of ``text``; the first of a repeated name."""
    node: ast.AST = ast.parse(text)
    for part in qualname.split("."):
        found = [
            n for n in ast.iter_child_nodes(node) if isinstance(n, Definition) and n.name == part
        ]
        if not found:
            raise LookupError(f"no function or class {qualname!r} in the text")
        node = found[0]
    assert isinstance(node, Definition)
    return node
