"""constructor_of on one fixture module per case, checked against the expected
JSON beside it and, where the reading is exact, against what Python itself says
(``inspect.signature`` of the class once the fixture module is imported)."""

from __future__ import annotations

import importlib.util
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from candidate_support import candidates_of

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.values.constructor import constructor_of, own_init, reachable_class
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

CASES = Path(__file__).parent / "constructor_cases"
# TypedDict's runtime signature is dict's own: the real one cannot be compared.
NO_RUNTIME_SIGNATURE = {"typeddict"}


def _cases() -> list[str]:
    return sorted(p.stem for p in CASES.glob("*.py"))


def _expected(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / f"{case}.json").read_text())
    return data


def _imported_class(case: str, dotted: str) -> Any:
    name = f"constructor_case_{case}"
    spec = importlib.util.spec_from_file_location(name, CASES / f"{case}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while building
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    found: Any = module
    for part in dotted.split("."):
        found = getattr(found, part)
    return found


@pytest.mark.parametrize("case", _cases())
def test_constructor_matches_the_expected_reading(case: str) -> None:
    expected = _expected(case)
    got = constructor_of((CASES / f"{case}.py").read_text(), expected["class"])
    assert [[p.name, p.kind, p.annotation, p.default] for p in got.parameters] == expected[
        "parameters"
    ]
    assert got.origin == expected["origin"]
    assert got.exact is expected["exact"]


@pytest.mark.parametrize(
    "case", [c for c in _cases() if _expected(c)["exact"] and c not in NO_RUNTIME_SIGNATURE]
)
def test_an_exact_reading_agrees_with_pythons_own_signature(case: str) -> None:
    expected = _expected(case)
    got = constructor_of((CASES / f"{case}.py").read_text(), expected["class"])
    real = inspect.signature(_imported_class(case, expected["class"]))
    assert [
        (p.name, p.kind.name.lower(), p.default is not p.empty) for p in real.parameters.values()
    ] == [(p.name, p.kind, p.default is not None) for p in got.parameters]


def test_the_kw_only_case_builds_an_order_from_its_keys() -> None:
    """The keys of the issue's case 6 are exactly what Order(**args) accepts."""
    got = constructor_of((CASES / "kw_only_marker.py").read_text(), "Order")
    order_class = _imported_class("kw_only_marker", "Order")
    args = {p.name: "x" if p.annotation == "str" else 1 for p in got.parameters}
    assert "_" not in args and "total" not in args
    order = order_class(**args)
    assert order.total == 0.0


def test_an_unknown_class_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"no class 'Missing' in the module \(classes: A, A.B\)"):
        constructor_of("class A:\n    class B: ...\n", "Missing")


BLOCKS = """\
import sys
if sys.version_info >= (3, 11):
    class New:
        def __init__(self, a: int) -> None: ...
else:
    class New:
        def __init__(self, b: int) -> None: ...
try:
    import json
except ImportError:
    class Fallback:
        def __init__(self, text: str) -> None: ...
def make():
    class Local:
        def __init__(self, c: int) -> None: ...
    return Local
"""


def test_classes_under_blocks_are_found_and_those_in_functions_are_not_reachable() -> None:
    assert [p.name for p in constructor_of(BLOCKS, "Fallback").parameters] == ["text"]
    assert reachable_class(BLOCKS, "New") and reachable_class(BLOCKS, "Fallback")
    assert not reachable_class(BLOCKS, "make.Local")
    with pytest.raises(ValueError, match=r"no class 'make\.Local'"):
        constructor_of(BLOCKS, "make.Local")


def test_a_class_in_a_function_is_a_call_target_with_a_reason(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(BLOCKS)
    start = BLOCKS.index("    class Local")
    node = CSTNode(
        make_node_id("m.py", "make.Local", "class"), "class", "Local", "make.Local", "m.py",
        start, start + 60, 14, 15, BLOCKS[start : start + 60],
    )  # fmt: skip
    with WorkspaceStore(tmp_path).create("lint", node.node_id) as workspace:
        target = node_call_target(CodeContext(workspace, node, SandboxConfig()))
    assert target["reason"] == "a class defined in a function cannot be reached from outside it"
    assert target["parameters"] == []


FLAGS = """\
class Flags:
    def __init__(self, val=0):
        if type(val) is list:
            val = len(val)
        if val < 0:
            raise ValueError("negative")
        self.val = val


class Plain:
    pass
"""


def test_a_class_is_searched_at_the_branches_of_its_own_init(tmp_path: Path) -> None:
    init = own_init(FLAGS, "Flags")
    assert init is not None and init.name == "__init__" and own_init(FLAGS, "Plain") is None
    found = {c.why: c.args for c in candidates_of(tmp_path, "flags.py", FLAGS, "Flags")}
    # ``type(val) is list`` and ``val < 0``: a list, and a number below the boundary.
    assert found["val_is_list"] == {"val": [1]}
    assert found["val_below_0"] == {"val": -1}
