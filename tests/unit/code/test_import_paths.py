"""A file's import root and module name follow its packages, as pytest's prepend mode does."""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.code.context import CodeContext
from remora.code.import_paths import (
    import_root,
    module_files,
    module_name,
    package_of,
    root_paths,
)
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

FILES = [
    "lib/shop/__init__.py",
    "lib/shop/orders.py",
    "lib/shop/money/__init__.py",
    "lib/shop/money/cents.py",
    "src/pkg/__init__.py",
    "src/pkg/mod.py",
    "inventory/__init__.py",
    "inventory/models.py",
    "script.py",
    "tools/helper.py",
]


def node_of(path: str) -> CSTNode:
    return CSTNode(make_node_id(path, "f", "function"), "function", "f", "f", path, 0, 1, 1, 1, "")


@pytest.mark.parametrize(
    ("path", "root", "module"),
    [
        ("lib/shop/orders.py", "lib", "shop.orders"),
        ("lib/shop/money/cents.py", "lib", "shop.money.cents"),
        ("lib/shop/money/__init__.py", "lib", "shop.money"),
        ("src/pkg/mod.py", "src", "pkg.mod"),
        ("inventory/models.py", "", "inventory.models"),
        ("inventory/__init__.py", "", "inventory"),
        ("script.py", "", "script"),
        # A folder that is no package holds top-level modules, as pytest imports them.
        ("tools/helper.py", "tools", "helper"),
    ],
)
def test_root_and_module_name(tmp_path: Path, path: str, root: str, module: str) -> None:
    for rel in FILES:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    node = node_of(path)
    with WorkspaceStore(tmp_path).create("sample_data", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        assert import_root(context, path) == root
        assert module_name(context, path) == module
        assert root_paths(context) == ([root] if root else [])
        package = module.split(".") if path.endswith("__init__.py") else module.split(".")[:-1]
        assert package_of(context, path) == package
        found = module_files(context, "shop.money")
    expected = ["shop/money.py", "shop/money/__init__.py"]
    prefixed = [f"{root}/{name}" for name in expected] if root else []
    assert found == prefixed + expected
