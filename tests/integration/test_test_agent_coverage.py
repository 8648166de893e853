"""The test agent's coverage loop on real code: the sandbox, coverage.py and pytest all real.

The host's search (search_tests) needs no model: arguments from what the code
branches on, run under coverage, the fewest that cover the most kept. A scripted
"capable model" then answers completions (``assert node(``) aimed at what is
still missed: a call that reaches a missed branch is kept (its expected value
observed when the model's was wrong), one that reaches nothing new is dropped.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import (
    bench,
    find_node,
    run_bundled_agent,
    tool_result,
    write_project,
)

from remora.providers.scripted import ScriptedProvider, tool_turn
from remora.runner import (
    AgentResult,
)
from remora.workspace import Workspace
from remora.workspace.sync import materialize

pytestmark = pytest.mark.integration

OBSERVED = "# remora: expected values observed from the code as it is"

# The host's search solves arithmetic against a constant (values/solved_values.py); the
# lucky residue is a call's value, which it does not fold: only a model's case reaches it.
LUCKY = (
    "def lucky(n: int):\n"
    '    """Whether n is lucky."""\n'
    '    if (n * 7) % 13 == len("lucky"):\n'
    '        return "lucky"\n'
    '    return "plain"\n'
)

ORDINAL = (
    "def ordinal(n: int) -> str:\n"
    "    if n < 0:\n"
    '        raise ValueError("negative")\n'
    "    if 11 <= n % 100 <= 13:\n"
    '        return f"{n}th"\n'
    '    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")\n'
)


async def run_agent(
    root: Path,
    rel: str,
    qualname: str,
    provider: ScriptedProvider,
    options: dict[str, Any] | None = None,
    with_model: bool = True,
) -> tuple[AgentResult, Workspace]:
    """A whole run of the test agent: the real runner and sandbox, only the model scripted."""
    node = find_node(root, rel, qualname)
    return await run_bundled_agent("test", root, node, provider, options, with_model)


def pytest_twice_on_copy(workspace: Workspace, tmp_path: Path, test_file: str) -> list[str]:
    """pytest's summary line for ``test_file`` on a copy of the workspace, in two processes."""
    copy = tmp_path / "copy"
    materialize(workspace, copy)
    lines = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_file],
            cwd=copy,
            capture_output=True,
            text=True,
            check=False,
        )
        lines.append(done.stdout.strip().splitlines()[-1].split(" in ")[0])
    return lines


async def searched(
    tmp_path: Path, files: dict[str, str], rel: str, qualname: str, test_file: str
) -> tuple[dict[str, Any], str, Workspace]:
    """The host's search on one node of a new project: its result, the test file, the
    workspace."""
    root = write_project(tmp_path, files)
    node = find_node(root, rel, qualname)
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        return found, b.text("test", node, test_file), b.workspace("test", node)


async def test_the_host_search_covers_every_branch_without_a_model(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"words.py": ORDINAL})
    node = find_node(root, "words.py", "ordinal")
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        text = b.text("test", node, "tests/test_words.py")
        workspace = b.workspace("test", node)
        assert found["coverage_before"] == {
            "lines": "0/5",
            "branches": "0/4",
            "line_rate": 0.0,
            "branch_rate": 0.0,
        }
        assert found["coverage_after"]["branches"] == "4/4", found
        assert found["coverage_after"]["lines"] == "5/5"
        assert found["missed"] == ""
        # The four values it gives, one table (the ones beside the boundaries cover nothing
        # new but kill a mutant: `<` for `<=`, 13 for 11..13's end); the raise apart, named
        # for the boundary it sits on.
        assert found["kept"] == [
            "test_ordinal",
            "test_ordinal_when_n_is_minus_1_raises_value_error",
        ], found
        assert '@pytest.mark.parametrize(\n    ("n", "expected"),' in text, text
        assert (
            "    with pytest.raises(ValueError) as excinfo:\n        ordinal(-1)\n"
            '    assert str(excinfo.value) == "negative"\n'
        ) in text
        # Observed, and the result says so; the test carries no comment about it.
        assert found["observed"] == found["kept"] and OBSERVED not in text
        assert found["mutation_before"]["killed"] == 0
        assert found["mutation_after"]["killed"] > 0
        assert pytest_twice_on_copy(workspace, tmp_path, "tests/test_words.py") == ["5 passed"] * 2


async def test_a_model_completion_that_reaches_the_missed_branch_is_kept(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"luck.py": LUCKY})
    # One ask per node, aimed at the missed spots: n=10 reaches the missed line
    # (its claimed value is wrong: "lucky" is observed).
    provider = ScriptedProvider([], completions=["10) == 'plain'"])
    result, workspace = await run_agent(root, "luck.py", "lucky", provider)
    assert result.status == "success", result.to_dict()
    assert provider.requests == []  # nothing left missed: no tool turn for the model
    (asked,) = [r.prefix for r in provider.completion_requests]
    assert asked.endswith("    assert lucky(")
    assert '#         return "lucky"' in asked  # the missed line, shown to the model
    text = (workspace.read("tests/test_luck.py") or b"").decode()
    # Named as the search's calls are (the model's words spelled every argument, cut).
    assert "def test_lucky_when_n_is_10():" in text
    assert '    result = lucky(10)\n    assert result == "lucky"\n' in text
    details = result.details
    assert details["coverage_after"]["branches"] == "2/2"
    assert details["coverage_before"]["branches"] == "0/2"
    assert pytest_twice_on_copy(workspace, tmp_path, "tests/test_luck.py") == ["2 passed"] * 2


async def test_without_the_models_cases_the_model_is_asked_nothing(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"luck.py": LUCKY})
    # The same model as above, whose completion would reach the missed line.
    provider = ScriptedProvider([], completions=["10) == 'plain'"])
    options = {"model_cases": False}
    result, workspace = await run_agent(root, "luck.py", "lucky", provider, options)
    assert result.status == "success", result.to_dict()
    # No completion asked and no tool turn: the host's candidates alone.
    assert provider.completion_requests == [] and provider.requests == []
    text = (workspace.read("tests/test_luck.py") or b"").decode()
    assert "lucky(10)" not in text
    assert result.details["coverage_after"]["branches"] == "1/2"


async def test_a_model_completion_that_reaches_nothing_new_is_dropped(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"luck.py": LUCKY})
    # n=2 runs the line the host's own case already runs: it adds no line or branch.
    provider = ScriptedProvider([], completions=["2) == 'plain'"])
    result, workspace = await run_agent(root, "luck.py", "lucky", provider)
    assert result.status == "success", result.to_dict()
    assert len(provider.completion_requests) == 1
    # Its completed call added nothing: no chat turn of the same model follows.
    assert provider.requests == []
    text = (workspace.read("tests/test_luck.py") or b"").decode()
    assert "lucky(2)" not in text
    assert result.details["coverage_after"]["branches"] == "1/2"


async def test_the_models_cases_are_kept_when_they_add_coverage_and_dropped_when_not(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"luck.py": LUCKY})
    provider = ScriptedProvider(
        [
            tool_turn(
                (
                    "write_tests",
                    {
                        "cases": [
                            {"args": "3", "expected": "'plain'"},
                            {"args": "10", "expected": "'lucky'"},
                            {"args": "23", "expected": "'plain'"},
                        ]
                    },
                )
            ),
            tool_turn(("submit_result", {})),
        ]
    )
    # No model for completions: the host's search leaves the lucky branch missed.
    result, workspace = await run_agent(root, "luck.py", "lucky", provider, with_model=False)
    assert result.status == "success", result.to_dict()
    first = provider.requests[0].messages
    assert any("never went" in str(m.parts) for m in first), first
    text = (workspace.read("tests/test_luck.py") or b"").decode()
    assert "lucky(10)" in text and "lucky(3)" not in text
    refused = "\n".join(tool_result(provider, 1)["refused"])
    # 3 is plain like the host's own case: it adds nothing.
    assert "it adds no line, branch or killed mutant" in refused
    # 23 is lucky too: the claimed value fails and pytest's message comes back.
    assert "failed: AssertionError: assert 'lucky' == 'plain'" in refused
    assert "lucky(23)" not in text
    assert result.details["coverage_after"]["branches"] == "2/2"


async def test_max_tests_limits_the_search(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"words.py": ORDINAL})
    provider = ScriptedProvider([tool_turn(("submit_result", {}))])
    result, _ = await run_agent(
        root, "words.py", "ordinal", provider, options={"max_tests": 1}, with_model=False
    )
    assert result.status == "success", result.to_dict()
    assert len(result.details["added"]) == 1
    assert result.details["coverage_after"]["branches"] != "4/4"


BASKET = (
    "from dataclasses import dataclass, field\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class Basket:\n"
    "    owner: str\n"
    "    items: list[str] = field(default_factory=list)\n"
    '    status: str = "open"\n'
    "\n"
    "    def add(self, item: str) -> bool:\n"
    '        if self.status != "open":\n'
    '            raise RuntimeError("closed")\n'
    "        if item in self.items:\n"
    "            return False\n"
    "        self.items.append(item)\n"
    "        return True\n"
    "\n"
    "\n"
    "def shop() -> Basket:\n"
    '    basket = Basket(owner="Ada")\n'
    '    basket.add("apple")\n'
    "    return basket\n"
)


async def test_a_method_gets_owners_that_take_its_branches_on_the_instances_state(
    tmp_path: Path,
) -> None:
    files = {"basket.py": BASKET}
    found, text, workspace = await searched(
        tmp_path, files, "basket.py", "Basket.add", "tests/test_basket.py"
    )
    # A closed basket raises and one already holding the item says so: both are state.
    assert found["coverage_after"]["branches"] == "4/4", found
    assert found["missed"] == ""
    assert found["kept"] == [
        "test_add_changes_items",
        "test_add_when_status_is_not_open_raises_runtime_error",
        "test_add_when_item_is_already_stored_returns_false",
    ], found
    # Each test builds its own owner (its arguments at their defaults left out), filled
    # through the class's own method where the state is content; what the method changed
    # is asserted after the call.
    # The owner and the item are the module's own (``shop``): no made-up value is shown.
    assert (
        '    basket = Basket(owner="Ada")\n'
        '    basket.add("apple")\n'
        '    result = basket.add("apple")\n'
        "    assert result is False\n\n"  # what it returned says it: the items stay unasserted
    ) in text, text
    # A closed basket raises; the raise is the behaviour, not the state.
    assert (
        '    basket = Basket(owner="Ada", status="")\n'
        "    with pytest.raises(RuntimeError) as excinfo:\n"
        '        basket.add("apple")\n'
        '    assert str(excinfo.value) == "closed"\n'
    ) in text, text
    assert "sample" not in text, text
    assert OBSERVED not in text
    assert pytest_twice_on_copy(workspace, tmp_path, "tests/test_basket.py") == ["3 passed"] * 2


VALMAP = '''\
def valmap(func, d):
    """Apply func to every value of d."""
    if not d:
        return {}
    return {key: func(value) for key, value in d.items()}
'''


async def test_a_parameter_the_code_calls_is_given_a_builtin(tmp_path: Path) -> None:
    files = {"dicts.py": VALMAP}
    found, text, workspace = await searched(
        tmp_path, files, "dicts.py", "valmap", "tests/test_dicts.py"
    )
    assert found["coverage_after"]["branches"] == "2/2", found
    assert "valmap(str, " in text, text
    assert (
        pytest_twice_on_copy(workspace, tmp_path, "tests/test_dicts.py")
        == [f"{len(found['kept'])} passed"] * 2
    )


COLOURS = """\
from ._definitions import NAMES_TO_HEX


def name_to_hex(name: str) -> str:
    if hex_value := NAMES_TO_HEX.get(name.lower()):
        return hex_value
    raise ValueError(f"{name} is not a colour")
"""


async def test_a_name_looked_up_in_a_table_is_tried_with_the_tables_keys(tmp_path: Path) -> None:
    files = {
        "src/colours/__init__.py": "",
        "src/colours/_definitions.py": 'NAMES_TO_HEX = {"aqua": "#00ffff", "navy": "#000080"}\n',
        "src/colours/convert.py": COLOURS,
    }
    found, text, _ = await searched(
        tmp_path, files, "src/colours/convert.py", "name_to_hex", "tests/test_convert.py"
    )
    assert found["coverage_after"]["branches"] == "2/2", found
    assert 'name_to_hex("aqua")' in text, text
    assert 'pytest.raises(ValueError, match="is not a colour")' in text, text


SPEC_COLOURS = """\
from ._definitions import CSS3, NAMES_TO_HEX


def name_to_hex(name: str, spec: str = CSS3) -> str:
    if spec != CSS3:
        raise ValueError(f"{spec} is not a supported spec")
    if hex_value := NAMES_TO_HEX.get(name.lower()):
        return hex_value
    raise ValueError(f"{name} is not a colour")
"""


async def test_a_default_named_by_an_imported_constant_is_that_constants_value(
    tmp_path: Path,
) -> None:
    definitions = 'CSS3 = "css3"\nNAMES_TO_HEX = {"aqua": "#00ffff", "navy": "#000080"}\n'
    files = {
        "src/colours/__init__.py": "",
        "src/colours/_definitions.py": definitions,
        "src/colours/convert.py": SPEC_COLOURS,
    }
    found, _, _ = await searched(
        tmp_path, files, "src/colours/convert.py", "name_to_hex", "tests/test_convert.py"
    )
    # A made-up spec ("sample spec") raises before the table is read: the found branch
    # needs the default's own value. The unsupported spec's branch is reached by the other
    # side of `spec != CSS3`, the imported constant read from its module ("css3", ""):
    # no made-up value is needed for it (values/imported_modules.py).
    assert found["coverage_after"]["branches"] == "4/4", found
    assert not any("shows made-up spec" in d for d in found["dropped"]), found
    assert any("aqua" in name for name in found["kept"]), found
    assert any(name.endswith("raises_value_error") for name in found["kept"]), found


async def test_a_unittest_project_gets_a_test_package_its_discovery_finds(
    tmp_path: Path,
) -> None:
    files = {"words.py": ORDINAL, "Makefile": "test:\n\tpython -m unittest\n"}
    found, text, workspace = await searched(
        tmp_path, files, "words.py", "ordinal", "tests/test_words.py"
    )
    assert "(unittest.TestCase):" in text and found["kept"], found
    copy = tmp_path / "copy"
    materialize(workspace, copy)
    assert (copy / "tests" / "__init__.py").read_text() == ""
    # Without tests/__init__.py, `python -m unittest` discovers nothing (Ran 0 tests).
    assert f"Ran {len(found['kept'])} tests" in unittest_on(copy)


def unittest_on(copy: Path) -> str:
    """``python -m unittest``'s report in ``copy``, which it must pass."""
    done = subprocess.run(
        [sys.executable, "-m", "unittest"], cwd=copy, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


WITHIN = (
    "def within(value: int, low: int, high: int) -> bool:\n"
    "    if value < low:\n"
    "        return False\n"
    "    if value > high:\n"
    "        return False\n"
    "    return True\n"
)


async def test_a_comparison_of_two_parameters_is_tried_beside_the_other_s_value(
    tmp_path: Path,
) -> None:
    found, text, _workspace = await searched(
        tmp_path, {"ranges.py": WITHIN}, "ranges.py", "within", "tests/test_ranges.py"
    )
    # The bounds apart (not within(1, 1, 1)), and each bound's own value tried: only
    # `value == low` tells `<` from `<=`, only `value == high` `>` from `>=`.
    assert "within(0, 0, 10)" in text and "within(10, 0, 10)" in text, text
    assert found["coverage_after"]["branches"] == "4/4", found
    assert found["mutation_after"]["killed"] == found["mutation_after"]["total"], found
    print(found["kept"], found["dropped"], text)


ESCAPE = 'def escape(text: str) -> str:\n    return text.replace("~", "~0").replace("/", "~1")\n'


async def test_a_string_method_s_constant_is_in_the_text_and_a_no_op_call_is_no_test(
    tmp_path: Path,
) -> None:
    found, text, _workspace = await searched(
        tmp_path, {"pointer.py": ESCAPE}, "pointer.py", "escape", "tests/test_pointer.py"
    )
    # The text holds what each replace looks for, and the test shows both replaced.
    assert 'escape("a~b/c")' in text and '== "a~0b~1c"' in text, text
    assert found["mutation_after"]["killed"] == found["mutation_after"]["total"], found


TIDY = 'def tidy(text: str) -> str:\n    return " ".join(text.split())\n'


async def test_a_call_that_returns_its_own_input_is_no_test(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"words.py": TIDY})
    node = find_node(root, "words.py", "tidy")
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        written = b.workspace("test", node).read("tests/test_words.py")
    # tidy("sample text") == "sample text": an identity passes it too, though it fails
    # the mutant returning None. Nothing else is tried, so nothing is proposed.
    assert found["kept"] == [] and written is None, found


PICK = (
    "def pick(items: list, index: int):\n"
    "    if index >= len(items):\n"
    '        raise IndexError(f"index {index} is past the end of {len(items)} items")\n'
    "    return items[index]\n"
)


async def test_a_formatted_message_is_matched_on_the_raise_s_own_words(tmp_path: Path) -> None:
    found, text, workspace = await searched(
        tmp_path, {"lists.py": PICK}, "lists.py", "pick", "tests/test_lists.py"
    )
    # Not the whole text with the call's values in it: the words the raise states.
    assert 'with pytest.raises(IndexError, match="is past the end of"):' in text, text
    assert "excinfo" not in text
    passed = [f"{len(found['kept'])} passed"] * 2
    assert pytest_twice_on_copy(workspace, tmp_path, "tests/test_lists.py") == passed


HALVES = (
    "def halve(n: int) -> int:\n"
    "    if isinstance(n, float):\n"
    "        return -1\n"
    "    return n // 2\n"
)


async def test_a_model_completion_of_a_kind_the_annotation_excludes_is_not_run(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path, {"halves.py": HALVES})
    # 2.5 would reach the missed line, but `n: int` takes no float: the host's own calls
    # are held to the annotation, and so is the model's (base58's `scrub_input(v=123)` for
    # `v: Union[str, bytes]` was rejected blind).
    provider = ScriptedProvider([], completions=["2.5) == -1"])
    result, workspace = await run_agent(root, "halves.py", "halve", provider)
    assert result.status == "success", result.to_dict()
    assert len(provider.completion_requests) == 1
    text = (workspace.read("tests/test_halves.py") or b"").decode()
    assert "2.5" not in text, text
    assert result.details["coverage_after"]["branches"] == "1/2"


SEGMENTS = """\
import sys

PY2 = sys.version_info[0] == 2


def child(segment):
    if not isinstance(segment, str):
        kind = "unicode" if PY2 else "str"
        raise TypeError("expected %s for %s, got %r" % (kind, "path segment", segment))
    return "/" + segment
"""


@pytest.mark.parametrize(
    ("setup_cfg", "match"),
    [
        ("", 'match="expected str for path segment"'),
        # Python 2.7 says "unicode" there: only the words the code wrote are matched.
        ("[options]\npython_requires = >=2.7\n", 'match="path segment"'),
    ],
)
async def test_a_python_2_project_s_match_holds_only_the_code_s_written_words(
    tmp_path: Path, setup_cfg: str, match: str
) -> None:
    files = {"segments.py": SEGMENTS, **({"setup.cfg": setup_cfg} if setup_cfg else {})}
    _, text, _ = await searched(tmp_path, files, "segments.py", "child", "tests/test_segments.py")
    assert f"pytest.raises(TypeError, {match})" in text, text
