"""The line length a project's tools hold it to, and a docstring kept within it."""

from __future__ import annotations

from pathlib import Path

from remora.code import CodeContext
from remora.code.docstring.pieces import Pieces
from remora.code.docstring.text import compose, compose_docstring
from remora.code.line_length import project_line_length
from remora.code.parsing import NodeRef, locate, parse
from remora.config import SandboxConfig
from remora.discovery.node import CSTNode, make_node_id
from remora.workspace import WorkspaceStore


def _length(root: Path) -> int:
    with WorkspaceStore(root).create("docstring", "n") as workspace:
        return project_line_length(CodeContext(workspace, None, SandboxConfig()))


def test_the_shortest_length_any_of_its_tools_states_holds(tmp_path: Path) -> None:
    assert _length(tmp_path) == 88  # none states one: the formatters' default
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    assert _length(tmp_path) == 100
    # cachelib's: flake8 at 80 beside the formatter.
    (tmp_path / "setup.cfg").write_text(
        "[metadata]\nname = kit\n\n[flake8]\nmax-line-length = 80\n"
    )
    assert _length(tmp_path) == 80
    (tmp_path / "tox.ini").write_text("[flake8]\nmax-line-length = eighty\n")  # unreadable: no say
    assert _length(tmp_path) == 80


SOURCE = """\
class Store:
    def put(self, key, value):
        self.items[key] = value
"""


def test_a_description_is_wrapped_and_a_summary_too_long_for_its_line_is_refused() -> None:
    node = locate(parse(SOURCE, "kit/store.py"), NodeRef("method", "Store.put", 2))
    words = "It stores the value under the key in the items of the store, replacing any before. "
    plan = compose(node, Pieces("Store a value under a key.", words * 3), "google", None, width=60)
    assert plan["text"] is not None
    assert max(len(line) for line in plan["text"].splitlines()) <= 60, plan["text"]
    long = "Store the value given under the key given, in the items of this store."
    refused = compose(node, Pieces(long), "google", None, width=60)["refused"]
    assert any(
        r["field"] == "summary" and "runs past the project's line length by 16" in r["reason"]
        for r in refused
    ), refused


PUT = "def put(items, key, value):\n    items[key] = value\n"


def test_a_docstring_keeps_to_pep8_s_79_where_no_tool_states_a_length(tmp_path: Path) -> None:
    # rfc3986, dictdiffer (none stated): "the line is over 79 columns", at 88.
    (tmp_path / "m.py").write_text(PUT)
    node = CSTNode(
        node_id=make_node_id("m.py", "put", "function"),
        node_type="function",
        name="put",
        full_name="put",
        file_path="m.py",
        start_byte=0,
        end_byte=len(PUT) - 1,
        start_line=1,
        end_line=2,
        text=PUT,
    )
    summary = "Store the value under the key in the items, replacing the one there before."
    assert 79 < len(summary) + 6 + 4 <= 88  # its line: indent, quotes and text
    with WorkspaceStore(tmp_path).create("docstring", node.node_id) as workspace:
        context = CodeContext(workspace, node, SandboxConfig(workers=1))
        assert compose_docstring(context, "google", summary)["text"] is None
        workspace.write("pyproject.toml", b"[tool.ruff]\nline-length = 88\n")
        assert compose_docstring(context, "google", summary)["text"] is not None
