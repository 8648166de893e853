"""Made-up source read as the unit tests of ``ast`` readers read it."""

from __future__ import annotations

import ast


def first_function(source: str) -> ast.FunctionDef:
    """The ``def`` that opens ``source``."""
    found = ast.parse(source).body[0]
    assert isinstance(found, ast.FunctionDef)
    return found
