"""The sample_data agent's parts that need no sandbox: sourced strings, outcomes, rendering."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.samples.instance_sets import instance_members
from remora.code.samples.kept_sets import KeptSet, Selection, outcome_key, pinned_outcome
from remora.code.samples.sample_fixtures import (
    conftest_path,
    sample_code,
    top_level_names,
    with_code,
)
from remora.code.samples.sample_sets import _enough
from remora.code.samples.sample_tests import failed_ids, without_ids
from remora.code.values.sourced_strings import doc_strings, literal_strings, unsourced

MODULE = '''\
"""Parts of a page."""

PARTS = ("head", "body", "tail")


def part_of(part: str) -> int:
    """Where a part goes.

    >>> part_of("body")
    1
    """
    if part not in PARTS:
        raise ValueError(part)
    return PARTS.index(part)
'''


def test_a_files_strings_are_its_constants_and_its_doctests() -> None:
    found = literal_strings(MODULE)
    assert {"head", "body", "tail"} <= found
    assert "str" not in found  # an annotation's name is no string the code uses
    assert doc_strings('text\n>>> f("x")\n\n```python\ng(key="y")\n```\n$ run "z"\n') == {"x", "y"}


@pytest.mark.parametrize(
    ("value", "missing"),
    [
        ("body", None),
        ("sample part", "sample part"),
        ("", ""),  # the empty string needs a source too
        ([1, "body", {"k": "tail"}], "k"),  # a dict value's keys are strings it holds
        ({"__class__": "Page", "args": {"title": "head"}}, None),  # parameter names are no values
        ({"__class__": "Page", "args": {"title": "other x"}}, "other x"),
        ({"__callable__": "str"}, None),
        (3.5, None),
    ],
)
def test_a_string_without_a_source_in_the_project_is_named(value: Any, missing: Any) -> None:
    strings = literal_strings(MODULE)
    assert unsourced(value, strings) == missing


def row(**outcome: Any) -> dict[str, Any]:
    return {"name": "s", "args": {}, "ok": True, "reason": "", **outcome}


def returned(repr_text: str, kind: str, literal: bool = True) -> dict[str, Any]:
    return {"repr": repr_text, "type": kind, "type_module": "builtins", "literal": literal}


def raised(kind: str, module: str = "builtins", **more: Any) -> dict[str, Any]:
    return {"type": kind, "module": module, "message": "m", **more}


def test_only_outcomes_a_test_can_write_and_the_set_did_not_cause_are_pinned() -> None:
    assert pinned_outcome(row(returned=returned("15", "int")), "m") == (True, 15, None)
    stated = row(raised=raised("ValueError", stated=True))
    assert pinned_outcome(stated, "m") == (True, None, ("ValueError", "builtins"))
    assert pinned_outcome(row(raised=raised("Refused", "m", stated=True)), "m")[2] == (
        "Refused",
        "m",
    )
    # An error the set caused (a key it left out), the machine's, a timeout, a misfit.
    for bad in (
        row(raised=raised("KeyError")),
        row(raised=raised("FileNotFoundError", stated=True, environment=True)),
        row(raised=raised("CallTimeout", "call_probe")),
        {**row(), "ok": False, "reason": "calling it raised TypeError"},
        row(returned=returned("<Order>", "Order", literal=False)),
    ):
        assert pinned_outcome(bad, "m")[0] is False, bad


def test_outcome_kinds_are_coarse_but_tell_true_from_false_and_empty_from_not() -> None:
    assert outcome_key(row(returned=returned("3", "int"))) == outcome_key(
        row(returned=returned("7", "int"))
    )
    assert outcome_key(row(returned=returned("True", "bool"))) != outcome_key(
        row(returned=returned("False", "bool"))
    )
    assert outcome_key(row(returned=returned("[]", "list"))) != outcome_key(
        row(returned=returned("[1]", "list"))
    )
    assert outcome_key(row(raised=raised("ValueError"))) == ("raises", "ValueError")


def test_an_instances_members_are_its_public_methods_and_properties_without_arguments() -> None:
    source = (
        "class Box:\n"
        "    def __init__(self, size): self.size = size\n"
        "    def volume(self): return self.size ** 3\n"
        "    @property\n"
        "    def empty(self): return self.size == 0\n"
        "    def grow(self, by): self.size += by\n"
        "    def _hidden(self): return 1\n"
        "    @staticmethod\n"
        "    def make(): return Box(1)\n"
    )
    assert [m.name for m in instance_members(source, "Box")] == ["volume", "empty"]
    assert instance_members(source, "Missing") == []


FUNCTION = {
    "module": "pages",
    "qualname": "part_of",
    "name": "part_of",
    "kind": "function",
    "owner": "",
    "method_kind": "",
    "is_async": False,
    "parameters": [{"name": "part", "kind": "positional_or_keyword"}],
}


def test_a_functions_sets_become_a_fixture_and_the_test_that_reads_it() -> None:
    kept = [
        KeptSet("part_is_body:0", {"part": "body"}, returns=1),
        KeptSet("part_is_head:1", {"part": "head"}, returns=0),
        KeptSet("part_is_not_listed:2", {"part": "zz"}, raises=("ValueError", "builtins")),
    ]
    code = sample_code(FUNCTION, {"part_of", "PARTS"}, Selection(kept))
    assert code.fixture_names == ["part_of_sample", "part_of_rejected_sample"]
    assert code.test_names == ["test_part_of_samples", "test_part_of_rejected_samples"]
    conftest = with_code("", "tests/conftest.py", "pages", code.fixture_render, code.fixtures)
    tests = with_code("", "tests/test_pages.py", "pages", code.test_render, code.tests)
    assert conftest.startswith("import pytest\n\n\n@pytest.fixture(\n")
    assert '        pytest.param({"args": {"part": "body"}, "returns": 1}, id="part_is_body"),' in (
        conftest
    )
    assert '{"args": {"part": "zz"}, "raises": ValueError}' in conftest
    assert tests.startswith("import pytest\n\nfrom pages import part_of\n")  # no docstring
    assert 'assert part_of(**part_of_sample["args"]) == part_of_sample["returns"]' in tests
    assert 'with pytest.raises(part_of_rejected_sample["raises"]):' in tests
    for text in (conftest, tests):
        ast.parse(text)
    assert top_level_names(conftest) == {"part_of_sample", "part_of_rejected_sample"}


def test_a_long_param_is_written_one_argument_a_line() -> None:
    kept = [KeptSet("typical:0", {"part": "head " * 20}, returns=0)]
    code = sample_code(FUNCTION, set(), Selection(kept), line_length=60)
    assert '        pytest.param(\n            {"args":' in code.fixtures[0]
    assert '            id="typical",\n        ),' in code.fixtures[0]


def test_a_methods_sample_carries_its_owner_and_a_class_its_instance_fixture() -> None:
    method = {
        **FUNCTION,
        "qualname": "Page.part",
        "name": "part",
        "kind": "method",
        "owner": "Page",
        "method_kind": "instance",
    }
    kept = [KeptSet("typical:0", {"part": "body"}, {"title": "head"}, returns=1)]
    code = sample_code(method, {"Page"}, Selection(kept))
    assert (
        '{"args": {"part": "body"}, "owner": {"title": "head"}, "returns": 1}' in (code.fixtures[0])
    )
    assert code.tests[0].splitlines()[1:] == [
        '    page = Page(**page_part_sample["owner"])',
        '    assert page.part(**page_part_sample["args"]) == page_part_sample["returns"]',
    ]
    cls = {**FUNCTION, "qualname": "Page", "name": "Page", "kind": "class"}
    selection = Selection(
        [KeptSet("typical:0", {"title": "head"}, observed={"size": 4, "empty": False})],
        members=["size", "empty"],
        properties=["empty"],
    )
    code = sample_code(cls, {"Page"}, selection)
    assert code.fixture_names == ["page_sample", "page"]
    assert 'return Page(**page_sample["args"])' in code.fixtures[1]
    assert code.tests[0].splitlines() == [
        "def test_page_samples(page, page_sample):",
        '    observed = page_sample["observed"]',
        '    assert page.size() == observed["size"]',
        '    assert page.empty == observed["empty"]',
    ]
    # The class's test imports nothing: a new test file is the functions alone.
    assert with_code("", "tests/test_pages.py", "pages", code.test_render, code.tests).startswith(
        "def test_page_samples("
    )


def test_the_conftest_is_beside_the_modules_test_file() -> None:
    assert conftest_path("tests/test_pages.py") == "tests/conftest.py"
    assert conftest_path("src/pkg/tests/test_pages.py") == "src/pkg/tests/conftest.py"
    assert conftest_path("test_pages.py") == "conftest.py"


def test_a_failing_case_is_found_by_its_id_and_its_set_taken_out() -> None:
    report = {
        "ran": True,
        "collection_errors": [],
        "tests": [
            {"name": "test_part_of_samples[part_is_body]", "outcome": "passed"},
            {"name": "test_part_of_samples[part_is_body_2]", "outcome": "failed"},
            {"name": "test_other", "outcome": "failed"},
        ],
    }
    assert failed_ids(report, ["test_part_of_samples"]) == ({"part_is_body_2"}, False)
    assert failed_ids(report, ["test_part_of_samples", "test_gone"])[1] is True
    kept = [KeptSet("part_is_body:0", {"part": "body"}), KeptSet("part_is_body:1", {"part": "x"})]
    assert without_ids(kept, {"part_is_body_2"}) == kept[:1]


def test_a_long_assert_is_split_as_a_formatter_splits_it() -> None:
    long_name = {**FUNCTION, "qualname": "revenue_by_customer", "name": "revenue_by_customer"}
    code = sample_code(long_name, set(), Selection([KeptSet("edge:0", {"part": []}, returns={})]))
    assert code.tests[0].splitlines()[1:] == [
        "    assert (",
        '        revenue_by_customer(**revenue_by_customer_sample["args"])',
        '        == revenue_by_customer_sample["returns"]',
        "    )",
    ]


def test_a_table_of_fewer_than_its_least_rows_is_not_offered() -> None:
    def kept(*outcomes: str) -> list[KeptSet]:
        return [
            KeptSet(f"s{i}", {"n": i}, raises=("ValueError", "builtins") if o == "raises" else None)
            for i, o in enumerate(outcomes)
        ]

    # Two that return make a class's fixture of instances; the one that raises would be a
    # fixture of its own: out.
    assert [k.name for k in _enough(Selection(kept("returns", "raises", "returns")), 2).kept] == [
        "s0",
        "s2",
    ]
    alone = _enough(Selection(kept("returns", "raises")), 2)
    assert alone.kept == [] and alone.reason.startswith("fewer than 2 sets")
    assert len(_enough(Selection(kept("raises", "raises")), 2).kept) == 2
    # A function's table needs three rows of one kind of outcome: two and two are none.
    pairs = _enough(Selection(kept("returns", "raises", "returns", "raises")), 3)
    assert pairs.kept == [] and pairs.reason.startswith("fewer than 3 sets")
    rows = _enough(Selection(kept("returns", "returns", "raises", "returns")), 3)
    assert [k.name for k in rows.kept] == ["s0", "s1", "s3"]
