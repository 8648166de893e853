"""The toolkit's TypedDicts say what its functions give: the keys of real results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from remora.code import CodeContext
from remora.code.completion import CompletionReply, complete
from remora.code.docstring import docstring_results as doc_results
from remora.code.docstring.draft import docstring_prompt
from remora.code.docstring.edit import docstring, set_docstring
from remora.code.docstring.text import compose_docstring, docstring_parameters
from remora.code.docstring.view import node_view
from remora.code.node_structure import raises, returns, signature, span
from remora.code.parsing import (
    NodeReturns,
    NodeSignature,
    NodeSpan,
    RaisedException,
    SignatureParameter,
)
from remora.code.probes.calls import call_target, check_argument_sets, derived_argument_sets
from remora.code.probes.checked_sets import CheckedSet
from remora.code.probes.pytest_files import module_test_file
from remora.code.probes.pytest_results import ModuleTestFile
from remora.code.samples import sample_results
from remora.code.samples.fixtures import add_to_sample_fixture, sample_fixture
from remora.code.samples.sample_tests import sample_tests_written, write_sample_fixtures
from remora.code.testgen import test_results
from remora.code.testgen.written_tests import model_test_pieces
from remora.code.toolkit import toolkit_functions
from remora.code.values import ArgumentSet, CallParameter, CallTarget, ConstructorParameters
from remora.code.values.constructor import constructor_parameters
from remora.config import SandboxConfig
from remora.discovery.node import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

SOURCE = (
    "class Box:\n"
    "    def put(self, item: int, *, force: bool = False) -> int:\n"
    "        if item < 0:\n"
    "            raise ValueError(item)\n"
    "        return item\n"
)


def _keys(typed: Any) -> set[str]:
    return set(typed.__annotations__)


def _node(name: str, kind: str, start: int, end: int) -> CSTNode:
    text = "\n".join(SOURCE.splitlines()[start - 1 : end]) + "\n"
    first = sum(len(line) + 1 for line in SOURCE.splitlines()[: start - 1])
    return CSTNode(
        node_id=make_node_id("m.py", name, kind),
        node_type=kind,
        name=name.split(".")[-1],
        full_name=name,
        file_path="m.py",
        start_byte=first,
        end_byte=first + len(text) - 1,
        start_line=start,
        end_line=end,
        text=text,
    )


async def test_the_results_have_the_typeddicts_keys(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    method = _node("Box.put", "method", 2, 5)
    with WorkspaceStore(tmp_path).create("t", method.node_id) as workspace:
        context = CodeContext(workspace, method, SandboxConfig(workers=1))
        assert set(span(context)) == _keys(NodeSpan)
        found = signature(context)
        assert set(found) == _keys(NodeSignature)
        assert all(set(p) == _keys(SignatureParameter) for p in found["parameters"])
        assert [set(r) for r in raises(context)] == [_keys(RaisedException)]
        assert set(returns(context)) == _keys(NodeReturns)
        target = call_target(context)
        assert set(target) == _keys(CallTarget)
        assert [set(p) for p in target["parameters"]] == [_keys(CallParameter)] * 2
        assert set(module_test_file(context)) == _keys(ModuleTestFile)
        found_sets = derived_argument_sets(context)
        assert found_sets and all(set(s) == _keys(ArgumentSet) for s in found_sets)
        planned = model_test_pieces(context, [{"args": "item=1", "expected": "1"}], ["x ="], [])
        assert set(planned) == _keys(test_results.TestPieces)
        assert [set(r) for r in planned["refused"]] == [_keys(test_results.RefusedPiece)]
        built = constructor_parameters(context)
        assert set(built) == _keys(ConstructorParameters)
        assert all(set(p) == _keys(CallParameter) - {"implicit"} for p in built["parameters"])
        assert set(await complete(context, "x")) == _keys(CompletionReply)
    owner = _node("Box", "class", 1, 5)
    with WorkspaceStore(tmp_path).create("c", owner.node_id) as workspace:
        context = CodeContext(workspace, owner, SandboxConfig(workers=1))
        target = call_target(context)
        assert set(target) == _keys(CallTarget)
        # A class's parameters come from its constructor: no ``implicit`` (NotRequired).
        assert all(set(p) == _keys(CallParameter) - {"implicit"} for p in target["parameters"])


async def test_the_sample_data_results_have_the_typeddicts_keys(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # sample data is pytest's alone
    method = _node("Box.put", "method", 2, 5)
    with WorkspaceStore(tmp_path).create("s", method.node_id) as workspace:
        context = CodeContext(workspace, method, SandboxConfig(workers=1))
        assert set(sample_fixture(context)) == _keys(sample_results.SampleFixture)
        checked = await check_argument_sets(context, [{"name": "one", "args": "item=-1"}])
        assert [set(c) for c in checked] == [_keys(CheckedSet) - {"owner_args", "returned"}]
        assert checked[0]["ok"] and checked[0]["raised"]["type"] == "ValueError"
        added = add_to_sample_fixture(context, [{"name": "one", "args": {"item": 1}}])
        assert set(added) == _keys(sample_results.AddedSamples) and added["added"] == 1
        assert sample_fixture(context)["samples"] == [{"name": "one", "args": {"item": 1}}]
        # A method's cases are the test agent's unless tables are asked for: nothing probed.
        written = await write_sample_fixtures(context, [])
        assert set(written) == _keys(sample_results.SampleWrite)
        assert written["written"] is False and "test operation" in written["reason"]
        facts = sample_tests_written(context)
        assert set(facts) == _keys(sample_results.SampleTests)
        assert facts["reason"] == written["reason"] and facts["fixtures"] == []
        workspace.write(added["path"], b'{"samples": "none"}')
        with pytest.raises(ValueError, match="'samples' is a list of sets"):
            sample_fixture(context)


async def test_the_docstring_results_have_the_typeddicts_keys(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    method = _node("Box.put", "method", 2, 5)
    with WorkspaceStore(tmp_path).create("d", method.node_id) as workspace:
        context = CodeContext(workspace, method, SandboxConfig(workers=1))
        assert set(node_view(context)) == _keys(doc_results.NodeView)
        # Without a docstring, no literal: no quote and no span (NotRequired).
        assert set(docstring(context)) == {"present", "value", "literal"}
        prompt = docstring_prompt(context)
        assert prompt["available"] and set(prompt) == _keys(doc_results.DocstringPrompt)
        known = docstring_parameters(context)
        assert set(known) == _keys(doc_results.DocumentedParameters)
        assert [set(p) for p in known["parameters"]] == [_keys(doc_results.DocumentedParameter)] * 2
        refused = compose_docstring(context, "google", "10.000.000")
        assert set(refused) == _keys(doc_results.ComposedDocstring) and refused["text"] is None
        assert refused["refused"]
        assert all(set(r) == _keys(doc_results.RefusedDocstringPiece) for r in refused["refused"])
        composed = compose_docstring(context, "google", "Return the item unless it is negative.")
        assert set(composed) == _keys(doc_results.ComposedDocstring)
        assert composed["text"] is not None, composed
        written = set_docstring(context, composed["text"])
        assert set(written) == _keys(doc_results.DocstringWrite) and written["changed"]
        assert set(docstring(context)) == _keys(doc_results.NodeDocstring)
    module = CSTNode(
        node_id=make_node_id("m.py", "m.py", "file"),
        node_type="file",
        name="m.py",
        full_name="m.py",
        file_path="m.py",
        start_byte=0,
        end_byte=len(SOURCE),
        start_line=1,
        end_line=5,
        text=SOURCE,
    )
    with WorkspaceStore(tmp_path).create("f", module.node_id) as workspace:
        context = CodeContext(workspace, module, SandboxConfig(workers=1))
        # A module's docstring is left alone unless asked for: no prompt's text then.
        left = docstring_prompt(context)
        assert not left["available"] and left["leave"]
        asked = _keys(doc_results.DocstringPrompt) - _keys(doc_results.PromptText)
        assert set(left) == asked


def test_no_listed_function_returns_an_untyped_mapping() -> None:
    """A result's keys are a TypedDict's, so a script reading a missing one fails the check."""
    untyped = [f.name for f in toolkit_functions() if "Any" in f.stub.rsplit(" -> ", 1)[1]]
    assert untyped == []
