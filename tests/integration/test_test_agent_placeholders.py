"""No test shows a placeholder where a reader expects the project's value (issue 56).

An invented parser kit. Blind reviewers of a Markdown parser's tests rejected tokens
made of the search's own keys (``{"alpha": ..., "beta": ...}``: "not tokens at all"), a
``"sample self"`` given to a plugin's module-level renderer ("a fake self"), and
``len(result) == 2`` of a ``return tokens, state`` ("always true; checks no parsing"), and
a key made of ``None`` for every argument ("input that never happens"), a coercion of
``None`` (``str_coerce(None) == "None"``: "only restates Python's built-in behaviour"),
and a composition of one string handed back (``compose("a") == "a"``: "never checks the
order").
The sandbox, the probe, pytest and the mutation check are real; no model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

KIT = """\
import functools
from hashlib import md5
from typing import Any, Dict, List


class State:
    def __init__(self) -> None:
        self.tokens: List[Dict[str, Any]] = []

    def append_token(self, token: Dict[str, Any]) -> None:
        self.tokens.append(token)


class Parser:
    def parse(self, text: str):
        state = State()
        for word in text.split():
            state.append_token({"type": "word", "text": word})
        return state.tokens, state


def render_note(self, text: str, name: str) -> str:
    html = '<section class="note ' + name + '">' + text
    if "&" in name:
        html = html.replace("&", "&amp;")
    return html + "</section>"


def fake_key(title, author="unknown", sid=1):
    key = "%s %s" % (title, author)
    return (str(sid) + str(int(md5(key.encode()).hexdigest()[:10], 16)))[:13]


def chain(*steps):
    def two(f1, f2):
        return lambda *args, **kwargs: f1(f2(*args, **kwargs))

    return functools.reduce(two, steps)


def to_text(value):
    return str(value)


def render_aside(self, text: str) -> str:
    if self.escape:
        text = text.replace("&", "&amp;")
    return "<aside>" + text + "</aside>"
"""


async def _search(tmp_path: Path, node: str) -> tuple[dict[str, Any], str]:
    tmp_path.mkdir(exist_ok=True)  # noqa: ASYNC240 - before the search, nothing awaits
    found, data = await search_tests_on(
        tmp_path, {"kit.py": KIT}, "kit.py", node, "tests/test_kit.py"
    )
    return found, (data or b"").decode()


async def test_a_stored_mapping_of_made_up_keys_is_never_shown(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "State.append_token")
    assert "alpha" not in written, written
    assert any("shows made-up token" in reason for reason in found["dropped"]), found


async def test_a_fixed_pair_is_asserted_by_its_items_not_its_length(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "Parser.parse")
    assert found["kept"], found
    assert "len(result)" not in written, written
    assert "result[0] == [" in written and '"type": "word"' in written, written


async def test_a_plugin_function_s_unread_self_is_none_and_a_read_one_gives_no_test(
    tmp_path: Path,
) -> None:
    found, written = await _search(tmp_path / "note", "render_note")
    assert found["kept"] and "sample self" not in written, written
    assert "render_note(None, " in written, written
    found, written = await _search(tmp_path / "aside", "render_aside")
    assert found["kept"] == [] and "sample self" not in written, (found, written)


async def test_a_call_given_none_for_every_argument_is_no_test(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "fake_key")
    assert "fake_key(None, " not in written, (found, written)


async def test_a_none_the_node_never_tells_apart_is_no_test(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "to_text")
    assert "to_text(None)" not in written and "to_text(value=None)" not in written, (
        found,
        written,
    )


async def test_a_star_args_item_handed_back_is_no_test(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "chain")
    assert 'chain("a")' not in written and "chain('a')" not in written, (found, written)
