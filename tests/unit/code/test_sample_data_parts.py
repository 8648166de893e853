"""The sample_data agent's parts that need no sandbox: sourced strings, outcomes, rendering."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from remora.code.samples.instance_sets import (
    _filled_instances,
    _read_back,
    instance_labels,
    instance_members,
)
from remora.code.samples.kept_sets import KeptSet, Selection, outcome_key, pinned_outcome
from remora.code.samples.sample_files import conftest_path, top_level_names, with_code
from remora.code.samples.sample_fixtures import sample_code
from remora.code.samples.sample_sets import _enough, _in_order
from remora.code.samples.sample_tests import failed_ids, without_ids
from remora.code.values.filled_instances import CALLS_KEY, ITEM_SETTER
from remora.code.values.sourced_strings import (
    doc_strings,
    examples,
    literal_strings,
    unsourced,
)

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


def test_a_rest_code_block_is_an_example_and_its_options_and_prose_are_not() -> None:
    rest = (
        "Signing\n=======\n\n"
        ".. code-block:: python\n    :caption: sign\n\n"
        '    s = Signer("secret-key")\n\n    s.sign("my string")\n'
        'Prose after it, "not code".\n\n'
        "  .. code:: py\n\n"
        '      f(tag="inner")\n'
        ".. code-block:: shell\n\n"
        '    run "z"\n'
    )
    assert list(examples(rest)) == [
        's = Signer("secret-key")\n\ns.sign("my string")',
        'f(tag="inner")',
    ]
    assert doc_strings(rest) == {"secret-key", "my string", "inner"}


def test_a_doctest_session_in_a_block_gives_its_statements_and_a_spaced_fence_opens_one() -> None:
    rest = ".. code-block:: python\n\n    >>> db.insert({'int': 1})\n    >>> db.all()\n    [1]\n"
    assert list(examples(rest)) == ["db.insert({'int': 1})", "db.all()"]
    markdown = "``` python\nt = Tree()\n```\n\n>>> t.add(\n...     'x')\n>>> t\n"
    assert list(examples(markdown)) == ["t = Tree()", "t.add(\n    'x')", "t"]
    assert doc_strings(rest) == {"int"}


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
    # A method that changes its instance, its attributes or its own items, is no reader.
    changing = (
        "class Tree(list):\n"
        "    def __init__(self): self.items = []\n"
        "    def clear(self): self.items.clear()\n"
        "    def prune(self):\n"
        "        heir, self[0] = self[0], None\n"
        "        return heir\n"
        "    def draw(self):\n"
        "        self._width = 3\n"  # a private cache: still a reader
        "        return '-' * self._width\n"
    )
    assert [m.name for m in instance_members(changing, "Tree")] == ["draw"]


def test_a_reader_giving_back_its_constructor_argument_is_not_asserted() -> None:
    target = {**FUNCTION, "kind": "class", "qualname": "Version", "name": "Version"}
    target["parameters"] = [
        {"name": "major", "kind": "positional_or_keyword"},
        {"name": "minor", "kind": "positional_or_keyword", "default": "0"},
    ]
    sets = [{"name": "a:0", "args": {"major": 1}}, {"name": "b:1", "args": {"major": "2"}}]
    pinned = {
        "major": {"a:0": 1, "b:1": 2},  # "2" read back as 2: the class converts it
        "minor": {"a:0": 0, "b:1": 0},  # the default, given back
        "text": {"a:0": "1.0", "b:1": "2.0"},
    }
    assert _read_back(target, sets, pinned) == {"minor"}
    sets[1]["args"]["major"] = 2
    assert _read_back(target, sets, pinned) == {"major", "minor"}


def test_a_filled_instance_asserts_what_its_calls_changed_and_only_when_it_adds() -> None:
    filled = {"size": 2, CALLS_KEY: [{"method": "put", "args": ["a"], "keywords": {}}]}
    sets = [{"name": "as_built:0", "args": filled}, {"name": "typical:1", "args": {"size": 2}}]
    pinned = {
        "titles": {"as_built:0": ["a"], "as_built:0~unfilled": [], "typical:1": []},
        "size": {"as_built:0": 2, "as_built:0~unfilled": 2, "typical:1": 2},
    }
    row = {"returned": {"type": "list", "literal": True, "repr": "['a']"}}
    outcomes = {"titles": {"as_built:0": row}, "size": {"as_built:0": row}}
    units: dict[str, set[Any]] = {"as_built:0": {("line", 3, 0)}, "typical:1": set()}
    selection = Selection([])
    _filled_instances(sets, pinned, outcomes, units, set(), selection)
    assert [(k.name, k.observed) for k in selection.kept] == [("as_built:0", {"titles": ["a"]})]
    # Nothing it reaches that the instances kept before it do not: no fixture of its own.
    covered = {("line", 3, 0), ("outcome", "titles", "returns", "list", "some")}
    selection = Selection([])
    _filled_instances(sets, pinned, outcomes, units, covered, selection)
    assert selection.kept == []


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


def test_a_functions_sets_become_parametrized_tests_and_no_fixture() -> None:
    kept = [
        KeptSet("part_is_body:0", {"part": "body"}, returns=1),
        KeptSet("part_is_head:1", {"part": "head"}, returns=0),
        KeptSet("part_is_not_listed:2", {"part": "zz"}, raises=("ValueError", "builtins")),
        KeptSet("part_is_unknown:3", {"part": "yy"}, raises=("PageError", "pages")),
    ]
    code = sample_code(FUNCTION, {"part_of", "PARTS", "PageError"}, Selection(kept))
    # The table is the test's own parameters: a conftest fixture for one test is heavier.
    assert code.fixture_names == [] and code.fixtures == []
    assert code.test_names == ["test_part_of_samples", "test_part_of_rejected_samples"]
    tests = with_code("", "tests/test_pages.py", "pages", code.test_render, code.tests)
    assert tests.startswith("import pytest\n\nfrom pages import PageError, part_of\n")
    assert '        pytest.param("body", 1, id="part_is_body"),' in tests
    assert '        pytest.param("yy", PageError, id="part_is_unknown"),' in tests
    assert (
        "def test_part_of_samples(part, expected):\n    assert part_of(part) == expected" in tests
    )
    assert "    with pytest.raises(error):\n        part_of(part)\n" in tests
    ast.parse(tests)


def test_a_long_param_is_written_one_argument_a_line() -> None:
    kept = [KeptSet("typical:0", {"part": "head " * 20}, returns=0)]
    code = sample_code(FUNCTION, set(), Selection(kept), line_length=60)
    assert '        pytest.param(\n            "head head' in code.tests[0]
    assert '            0,\n            id="typical",\n        ),' in code.tests[0]


def test_a_methods_instance_is_built_once_or_is_a_column_and_a_class_gets_fixtures() -> None:
    method = {
        **FUNCTION,
        "qualname": "Page.part",
        "name": "part",
        "kind": "method",
        "owner": "Page",
        "method_kind": "instance",
    }
    kept = [
        KeptSet("typical:0", {"part": "body"}, {"title": "head"}, returns=1),
        KeptSet("other:1", {"part": "tail"}, {"title": "head"}, returns=2),
    ]
    code = sample_code(method, {"Page"}, Selection(kept))
    assert code.tests[0].splitlines()[-3:] == [
        "def test_page_part_samples(part, expected):",
        '    page = Page(title="head")',
        "    assert page.part(part) == expected",
    ]
    # Instances that differ are a column; sets of other arguments one mapping.
    kept[1] = KeptSet("other:1", {}, {"title": "body"}, returns=2)
    code = sample_code(method, {"Page"}, Selection(kept))
    assert (
        '        pytest.param({"part": "body"}, {"title": "head"}, 1, id="typical"),'
        in (code.tests[0])
    )
    assert code.tests[0].splitlines()[-3:] == [
        "def test_page_part_samples(args, owner, expected):",
        "    page = Page(**owner)",
        "    assert page.part(**args) == expected",
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
    conftest = with_code("", "tests/conftest.py", "pages", code.fixture_render, code.fixtures)
    assert conftest.startswith("import pytest\n\nfrom pages import Page\n")
    assert top_level_names(conftest) == {"page_sample", "page"}
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


def test_a_filled_instance_is_a_fixture_of_its_own_and_its_test_reads_it() -> None:
    cls = {**FUNCTION, "qualname": "Shelf", "name": "Shelf", "kind": "class"}
    calls = [
        {"method": "put", "args": ["Dune"], "keywords": {}},
        {"method": ITEM_SETTER, "args": ["k", 1], "keywords": {}},
    ]
    entry = KeptSet("as_documented:0", {"capacity": 2, CALLS_KEY: calls})
    entry.observed = {"titles": ("Dune",), "full": True, "free": 0}
    selection = Selection([entry], properties=["full"])
    code = sample_code(cls, {"Shelf"}, selection)
    assert code.fixture_names == ["shelf_as_documented"]
    fixture = code.fixtures[0]
    assert fixture.startswith("@pytest.fixture\ndef shelf_as_documented():\n")
    assert "    shelf = Shelf(capacity=2)\n" in fixture and '    shelf.put("Dune")\n' in fixture
    assert '    shelf["k"] = 1\n' in fixture  # an item set as its users set one
    assert fixture.endswith("    return shelf\n")
    assert "documentation" in fixture
    assert code.tests == [
        "def test_shelf_as_documented(shelf_as_documented):\n"
        '    assert shelf_as_documented.titles() == ("Dune",)\n'
        "    assert shelf_as_documented.full is True\n"
        "    assert shelf_as_documented.free() == 0\n"
    ]
    assert code.filled_tests == {"test_shelf_as_documented": "as_documented:0"}


def test_a_column_never_shadows_a_name_the_test_uses() -> None:
    method = {
        **FUNCTION,
        "qualname": "Page.put",
        "name": "put",
        "kind": "method",
        "owner": "Page",
        "method_kind": "instance",
        "parameters": [
            {"name": "page", "kind": "positional_or_keyword"},
            {"name": "expected", "kind": "keyword_only"},
        ],
    }
    kept = [KeptSet("t:0", {"page": 1, "expected": 2}, {}, returns=3)]
    test = sample_code(method, {"Page"}, Selection(kept)).tests[0]
    assert "def test_page_put_samples(page, expected, expected_value):" in test
    assert "    page_obj = Page()\n    assert page_obj.put(page, expected=expected) ==" in test


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
    # A test of no parameters (a filled instance's) by its name.
    assert failed_ids(report, ["test_other"]) == ({"test_other"}, False)
    assert failed_ids(report, ["test_part_of_samples", "test_gone"])[1] is True
    kept = [KeptSet("part_is_body:0", {"part": "body"}), KeptSet("part_is_body:1", {"part": "x"})]
    assert without_ids(kept, {"part_is_body_2"}) == kept[:1]


def test_a_long_assert_is_split_as_a_formatter_splits_it() -> None:
    long_name = {**FUNCTION, "qualname": "revenue_by_customer", "name": "revenue_by_customer"}
    kept = [KeptSet("edge:0", {"part": []}, returns={})]
    code = sample_code(long_name, set(), Selection(kept), line_length=40)
    assert code.tests[0].splitlines()[-4:] == [
        "    assert (",
        "        revenue_by_customer(part)",
        "        == expected",
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


def test_an_instance_is_named_by_the_member_value_that_tells_it_apart() -> None:
    # A flag first, then a short string, then a number; the first that differs everywhere.
    flags = {"a:0": {"size": 1, "empty": False}, "b:1": {"size": 0, "empty": True}}
    assert instance_labels(flags) == {"a:0": "not_empty", "b:1": "empty"}
    kinds = {
        "a:0": {"area": 6, "kind": "oblong", "square": False},
        "b:1": {"area": 16, "kind": "square", "square": True},
        "c:2": {"area": 0, "kind": "", "square": True},
    }
    assert instance_labels(kinds) == {
        "a:0": "kind_oblong",
        "b:1": "kind_square",
        "c:2": "kind_empty",
    }
    numbers = {"a:0": {"total": -2, "name": "x"}, "b:1": {"total": 3, "name": "x"}}
    assert instance_labels(numbers) == {"a:0": "total_minus_2", "b:1": "total_3"}
    # Nothing tells them all apart: the search's own words stay.
    assert instance_labels({"a:0": {"n": 1}, "b:1": {"n": 1}}) == {}


def test_a_tables_rows_go_by_their_arguments_when_those_compare() -> None:
    target = {**FUNCTION, "parameters": [{"name": "n"}, {"name": "tag"}]}
    kept = [KeptSet(f"s{n}", {"n": n, "tag": "x"}) for n in (100, 9, 20, 10)]
    assert [k.args["n"] for k in _in_order(kept, target)] == [9, 10, 20, 100]
    # A set without ``n`` beside sets with one: nothing to compare, the cover's order stays.
    mixed = [*kept, KeptSet("s", {"tag": "y"})]
    assert _in_order(mixed, target) == mixed


def test_a_parameter_named_as_its_function_is_passed_in_one_mapping() -> None:
    target = {**FUNCTION, "qualname": "part", "name": "part"}
    kept = [KeptSet("a:0", {"part": "head"}, returns=0), KeptSet("b:1", {"part": "x"}, returns=1)]
    test = sample_code(target, set(), Selection(kept)).tests[0]
    assert "def test_part_samples(args, expected):\n    assert part(**args) == expected" in test
