"""Operation options: checked once against the tool inputs they fill, said in words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from remora.agents import BUNDLED_AGENTS_DIR, AgentRegistry
from remora.agents.loader import AgentLoadError, load_agent
from remora.config import load_config
from remora.coordinator import bind_options, check_options
from remora.coordinator.binding import describe_schema
from remora.errors import ConfigValueError, UnknownConfigKeyError

BUNDLED = AgentRegistry()


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "integer", "minimum": 1, "maximum": 50}, "an integer from 1 to 50"),
        ({"type": "number", "minimum": 1}, "a number of at least 1"),
        ({"type": "integer", "maximum": 9}, "an integer of at most 9"),
        ({"type": "string", "enum": ["google", "numpy"]}, "one of google, numpy"),
        ({"type": "boolean"}, "true or false"),
        ({"type": "string", "maxLength": 80}, "a string of at most 80 characters"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "a string or null"),
        ({}, "any value"),
    ],
)
def test_a_schema_is_said_in_words(schema: dict[str, object], words: str) -> None:
    assert describe_schema(schema) == words


def _loaded(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    (tmp_path / "remora.yaml").write_text(text)
    return load_config(project_root=tmp_path, environ={})


def test_a_bad_value_names_the_file_line_key_value_and_what_is_allowed(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "operations:\n  test:\n    options:\n      max_tests: 0\n")
    options = loaded.config.operations["test"].options
    with pytest.raises(ConfigValueError) as info:
        check_options("test", BUNDLED.get("test"), options, origin=loaded.origin_of)
    assert info.value.message == (
        f"invalid value for 'operations.test.options.max_tests' ({tmp_path / 'remora.yaml'}:4): "
        "0; it takes an integer from 1 to 50"
    )
    assert "search_tests" in info.value.hint and "write_tests" in info.value.hint


def test_an_unknown_key_is_named_with_the_closest_input(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "operations:\n  docstring:\n    options:\n      styel: numpy\n")
    options = loaded.config.operations["docstring"].options
    with pytest.raises(UnknownConfigKeyError) as info:
        check_options("docstring", BUNDLED.get("docstring"), options, origin=loaded.origin_of)
    assert info.value.message == (
        f"unknown config key 'operations.docstring.options.styel' ({tmp_path / 'remora.yaml'}:4)"
    )
    assert info.value.hint.startswith("did you mean 'style'?")


def test_the_hint_lists_the_agents_options_not_the_models_inputs(tmp_path: Path) -> None:
    # write_tests also takes `cases` and `tests`: the model's words, not a user's option.
    loaded = _loaded(tmp_path, "operations:\n  test:\n    options:\n      max_test: 5\n")
    options = loaded.config.operations["test"].options
    with pytest.raises(UnknownConfigKeyError) as info:
        check_options("test", BUNDLED.get("test"), options, origin=loaded.origin_of)
    assert info.value.hint == (
        "did you mean 'max_tests'? "
        "(the test agent's options: max_tests, model_cases, mutation_budget_s, time_budget_s)"
    )
    with pytest.raises(UnknownConfigKeyError) as info:
        check_options("lint", BUNDLED.get("lint"), {"fix": True}, origin=lambda _dotted: "flag")
    assert info.value.hint == (
        "the lint agent has no options (its tools' inputs: issue_code, replacement)"
    )


def test_a_default_option_another_agent_does_not_take_is_not_the_users_mistake() -> None:
    # The bundled defaults give docstring a `style`; the lint agent takes no such input.
    lint = BUNDLED.get("lint")
    check_options("docstring", lint, {"style": "google"}, origin=lambda _dotted: "default")
    with pytest.raises(UnknownConfigKeyError):
        check_options("docstring", lint, {"style": "google"}, origin=lambda _dotted: "flag")


def test_a_bound_option_leaves_the_model_facing_schema() -> None:
    bound, fixed = bind_options(BUNDLED.get("docstring"), {"style": "numpy", "draft": False})
    assert fixed == {
        "write_docstring": {"style": "numpy"},
        "draft_docstring": {"style": "numpy", "draft": False},
    }
    write = bound.tools_by_name["write_docstring"].to_spec().parameters
    assert "style" not in write["properties"] and "summary" in write["properties"]


def test_an_option_left_unset_is_hidden_from_the_model_too() -> None:
    """The 1.5B set ``details: true`` on its own write_docstring call; no one had asked."""
    bound, fixed = bind_options(BUNDLED.get("docstring"), {"style": "google"})
    write = bound.tools_by_name["write_docstring"].to_spec().parameters
    assert "details" not in write["properties"] and "summary" in write["properties"]
    assert fixed["write_docstring"] == {"style": "google"}  # the script's default holds
    test, _ = bind_options(BUNDLED.get("test"), {})
    cases = test.tools_by_name["write_tests"].to_spec().parameters["properties"]
    assert set(cases) == {"cases", "tests"}


def test_an_agents_option_no_tool_takes_is_an_error_of_its_file(tmp_path: Path) -> None:
    agent = (BUNDLED_AGENTS_DIR / "docstring" / "agent.yaml").read_text()
    folder = tmp_path / "docstring"
    shutil.copytree(BUNDLED_AGENTS_DIR / "docstring", folder)
    (folder / "agent.yaml").write_text(agent.replace("options: [style,", "options: [styel,"))
    with pytest.raises(
        AgentLoadError, match=r"options\[0\]: no tool .* 'styel'; did you mean 'style'"
    ):
        load_agent(folder / "agent.yaml")
