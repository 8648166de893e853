"""The toolkit's list (code/toolkit.py): every marked function in it, each documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from remora.code.toolkit import TOOLKIT, toolkit_functions

ROOT = Path(__file__).resolve().parents[3]
CODE = ROOT / "src" / "remora" / "code"
DOCS = ROOT / "docs" / "agents.md"


def _marked() -> dict[str, str]:
    """Functions defined under code/ with ``@host_function``, by name: their module."""
    marked: dict[str, str] = {}
    for path in sorted(CODE.rglob("*.py")):
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                isinstance(d, ast.Name) and d.id == "host_function" for d in stmt.decorator_list
            ):
                marked[stmt.name] = str(path.relative_to(CODE))
    return marked


def _documented() -> set[str]:
    return set(re.findall(r"remora_code\.(\w+)\(", DOCS.read_text(encoding="utf-8")))


def test_the_list_is_every_function_marked_host_function() -> None:
    listed = {f"{impl.__module__}.{impl.__qualname__}" for g in TOOLKIT.values() for impl in g}
    marked = {
        "remora.code." + module.removesuffix(".py").replace("/", ".") + "." + name
        for name, module in _marked().items()
    }
    assert sorted(marked - listed) == [], "list these in code/toolkit.py"
    assert sorted(listed - marked) == [], "mark these @host_function"


def test_every_listed_function_is_documented() -> None:
    missing = [f.name for f in toolkit_functions() if f.name not in _documented()]
    assert missing == [], f"document these in docs/agents.md: {missing}"


def test_every_function_the_docs_name_is_listed() -> None:
    listed = {f.name for f in toolkit_functions()}
    unknown = sorted(_documented() - listed)
    assert unknown == [], f"docs/agents.md names functions remora_code lacks: {unknown}"
