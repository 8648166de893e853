"""Where sample data goes: the ``conftest.py`` beside a test file, the names a file
already defines, and a file with the fixtures or tests added to it."""

from __future__ import annotations

import ast

from remora import python_ast
from remora.code.probes import add_to_test_file
from remora.code.values import CallRender

__all__ = ["conftest_path", "top_level_names", "with_code"]


def conftest_path(test_path: str) -> str:
    """The ``conftest.py`` beside the module's test file."""
    folder = test_path.rsplit("/", 1)[0] if "/" in test_path else ""
    return f"{folder}/conftest.py" if folder else "conftest.py"


def top_level_names(text: str) -> set[str]:
    """Functions and classes a test file or conftest defines at its top (names taken)."""
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return set()
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return {s.name for s in tree.body if isinstance(s, kinds)}


def with_code(
    original: str, path: str, module: str, render: CallRender, functions: list[str]
) -> str:
    """``original`` with the imports ``render`` gathered and ``functions`` appended; a new
    file starts with its imports (no docstring: several changes may create the same file,
    and a merge joins their imports, never two docstrings)."""
    seed = original
    if not seed.strip() and not render.imports and not render.modules:
        return "\n\n".join(function.rstrip() + "\n" for function in functions)
    if not seed.strip():
        names = ", ".join(sorted(render.imports))
        plain = "".join(f"import {m}\n" for m in sorted(render.modules))
        seed = f"from {module} import {names}\n" if names else plain
    return add_to_test_file(
        seed, path, module, sorted(render.imports), sorted(render.modules), functions
    )
