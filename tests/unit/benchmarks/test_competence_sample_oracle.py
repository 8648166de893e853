"""The competence benchmark's sample_data oracle on a change shaped like the operation's:
fixtures added to a conftest, tests reading them, run with pytest in a real workspace."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from competence_lib.corpus import Target
from competence_lib.sample_oracle import (
    fixtures,
    measure_samples,
    read_closure,
    requests_of_tests,
)

from remora.workspace import WorkspaceStore

MODULE = textwrap.dedent(
    """\
    def tier(quantity):
        if quantity < 10:
            return 0
        if quantity < 100:
            return 5
        return 10
    """
)

OLD_CONFTEST = textwrap.dedent(
    """\
    import pytest


    @pytest.fixture
    def unrelated():
        return 1
    """
)

CONFTEST = OLD_CONFTEST + textwrap.dedent(
    """\


    @pytest.fixture(
        params=[
            pytest.param({"args": {"quantity": 4}, "returns": 0}, id="few"),
            pytest.param({"args": {"quantity": 50}, "returns": 5}, id="some"),
            pytest.param({"args": {"quantity": 500}, "returns": 1}, id="wrong"),
        ]
    )
    def tier_sample(request):
        return request.param


    @pytest.fixture(params=[{"args": {"quantity": 7}}])
    def tier_unread_sample(request):
        return request.param
    """
)

TESTS = textwrap.dedent(
    """\
    from shop import tier


    def test_tier_samples(tier_sample):
        assert tier(**tier_sample["args"]) == tier_sample["returns"]
    """
)


def test_fixtures_count_their_params_and_name_what_they_request() -> None:
    found = fixtures(CONFTEST)
    assert found == {
        "unrelated": (0, []),
        "tier_sample": (3, ["request"]),
        "tier_unread_sample": (1, ["request"]),
    }
    assert fixtures(None) == {}


def test_a_fixture_read_through_another_fixture_is_read() -> None:
    text = "class TestX:\n    def test_a(self, built):\n        pass\n"
    requested = requests_of_tests(text, {"TestX::test_a"})
    assert requested == {"built"}
    known = {"built": (0, ["args_sample"]), "args_sample": (2, ["request"])}
    assert read_closure(requested, known) == {"built", "args_sample", "request"}


def test_the_sets_the_change_added_the_ones_read_and_the_cases_run(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    (project / "shop.py").write_text(MODULE)
    (project / "tests" / "conftest.py").write_text(OLD_CONFTEST)
    store = WorkspaceStore(project)
    ws = store.create("sample_data", "tier")
    ws.write("tests/conftest.py", CONFTEST.encode())
    ws.write("tests/test_shop.py", TESTS.encode())
    try:
        got = measure_samples(ws, project, Target("shop.py", "tier", "function"))
    finally:
        ws.close()
    assert got.problems == []
    # Two fixtures added (the old one is not counted), four sets, three of them read.
    assert (got.fixtures, got.sets, got.sets_read) == (2, 4, 3)
    # One case per set read; the wrong expected value fails.
    assert (got.cases, got.cases_passed) == (3, 2)
    # Every line and both sides of both branches of the node's body.
    assert (got.branches, got.branches_covered) == (4, 4)
    assert got.coverage == 1.0
