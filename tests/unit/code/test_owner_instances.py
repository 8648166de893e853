"""A method's instance is built as the project builds it: its own calls, tests and docs first.

Made-up project: a class its test constructs with literals, one only its README's
example builds, and one nobody builds (the derived defaults, with a zero count the
method reads given a typical value). Real ``ast``, a real workspace, no sandbox.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from remora.code.context import CodeContext
from remora.code.probes.calls import node_call_target
from remora.code.values.call_sites import call_site_arguments
from remora.code.values.project_values import owner_arguments, project_calls
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

STORE = '''\
class Shelf:
    def __init__(self, label, count=0):
        self.label = label
        self.count = count

    def take(self, n):
        if n > self.count:
            raise ValueError("not enough")
        self.count -= n
        return self.count


class Crate:
    def __init__(self, label, weight=1.0):
        self.label = label
        self.weight = weight

    def heavier(self, than):
        return self.weight > than


class Tray:
    def __init__(self, size: int = 0, spare: int = 0):
        self.size = size
        self.spare = spare

    def holds(self, n):
        return n <= self.size


class Bin:
    def __init__(self, size: int = 0, spare: int = 0):
        self.size = size
        self.spare = spare

    def fits(self, n):
        return n <= self.size

    def describe(self):
        """A bin.

        >>> Bin(size=4).describe()
        'bin'
        """
        return "bin"


def _dict():
    return {}


class Reader:
    def __init__(self, depth=0, make=_dict, callback=lambda *args: True):
        self.depth = depth
        self.make = make
        self.callback = callback

    def start(self, name):
        self.callback(name)
        return self.make()
'''

TESTS = """\
from shop.store import Shelf


def test_take():
    shelf = Shelf("top", 3)
    assert shelf.take(1) == 2
"""

README = """\
# shop

```python
from shop.store import Crate
crate = Crate("fragile", weight=2.5)
```
"""


def _node(qualname: str) -> CSTNode:
    line = next(
        number
        for number, text in enumerate(STORE.splitlines(), 1)
        if text.strip().startswith(f"def {qualname.split('.')[-1]}(")
    )
    start = sum(len(x) + 1 for x in STORE.splitlines()[: line - 1])
    return CSTNode(
        make_node_id("shop/store.py", qualname, "method"), "method", qualname.split(".")[-1],
        qualname, "shop/store.py", start, start + 10, line, line + 1, STORE[start : start + 10],
    )  # fmt: skip


def _owner(tmp_path: Path, qualname: str, with_usage: bool = True) -> dict[str, Any]:
    (tmp_path / "shop").mkdir(exist_ok=True)
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "store.py").write_text(STORE)
    if with_usage:
        (tmp_path / "tests").mkdir(exist_ok=True)
        (tmp_path / "tests" / "test_store.py").write_text(TESTS)
        (tmp_path / "README.md").write_text(README)
    node = _node(qualname)
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        return owner_arguments(context, node_call_target(context))


def test_the_instance_is_built_as_the_projects_test_builds_it(tmp_path: Path) -> None:
    assert _owner(tmp_path, "Shelf.take") == {"label": "top", "count": 3}


def test_the_instance_is_built_as_the_docs_example_builds_it(tmp_path: Path) -> None:
    assert _owner(tmp_path, "Crate.heavier") == {"label": "fragile", "weight": 2.5}


def test_without_usage_a_zero_the_method_reads_gets_a_typical_number(tmp_path: Path) -> None:
    # Nobody builds a Shelf here: the derived defaults, but `take` compares with its count,
    # and an empty shelf is the set-up's edge, not the method's typical case.
    owner = _owner(tmp_path, "Shelf.take", with_usage=False)
    assert owner["count"] not in (0, None) and isinstance(owner["count"], int)


def test_a_zero_the_method_does_not_read_stays_the_default(tmp_path: Path) -> None:
    owner = _owner(tmp_path, "Tray.holds", with_usage=False)
    assert owner["spare"] == 0 and owner["size"] != 0


def test_a_docstring_example_is_a_construction_of_the_project(tmp_path: Path) -> None:
    # Bin's own docstring example builds one: the project's usage, before any default.
    assert _owner(tmp_path, "Bin.fits", with_usage=True) == {"size": 4}


def test_calls_of_the_project_include_docstring_and_document_examples(tmp_path: Path) -> None:
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "store.py").write_text(STORE)
    (tmp_path / "README.md").write_text(README)
    # A document in another encoding (pyfiglet's latin-1 doc/figfont.txt) is no example's
    # source, and no reason for the search to fail.
    (tmp_path / "doc").mkdir()
    (tmp_path / "doc" / "font.txt").write_bytes("Bin(size=9) \u00a9 1991".encode("latin-1"))
    node = _node("Bin.fits")
    with WorkspaceStore(tmp_path).create("test", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig())
        assert project_calls(context, "Bin") == ["size=4"]
        assert project_calls(context, "Crate") == ['"fragile", weight=2.5']


def test_a_call_site_may_build_its_arguments_from_classes() -> None:
    module = "place(Shelf('a', 2), [Shelf('b')], k=-1)\nplace(shelf)\nplace(make('x'))\n"
    assert call_site_arguments(module, "place") == ["Shelf('a', 2), [Shelf('b')], k=-1"]


def test_a_default_no_literal_spells_is_left_to_the_constructor(tmp_path: Path) -> None:
    # xmltodict's handler: ``dict_constructor=_dict`` was built with ``str``, a reviewer's
    # "nonsensical argument"; the instance keeps the defaults it has.
    assert _owner(tmp_path, "Reader.start", with_usage=False) == {"depth": 0}
