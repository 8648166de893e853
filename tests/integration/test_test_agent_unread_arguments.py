"""No kept test passes an argument the search made up that its call never reads (issue 56).

An invented stock module: each function's first check raises before a second
parameter is read, so the search's call ``(count=-1, warehouse="sample warehouse")``
pins the check on ``count`` alone, with a value a reader takes for meaningful. Where the
parameter has a default the written call leaves it out; where the search has a value of
the code's own for it (the ``"main"`` it is compared with) the call passes that; where
there is neither, or the call reads it, the call gives no test: it would show the
placeholder. The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

STOCK = """\
import os


def level(count, warehouse):
    if count < 0:
        raise ValueError("count cannot be negative")
    if warehouse == "main":
        return count * 2
    return count


def restock(count, note=os.linesep):
    if count < 0:
        raise ValueError("count cannot be negative")
    return f"{count}{note}"


def power(base, exponent):
    if base > 1000:
        raise ValueError("base is too big")
    return base ** exponent


KINDS = {}
UNCOUNTED = set()


def register(name, countable=True, plural=None, shown=True):
    name = name.lower()
    if plural is not None:
        plural = str(plural)
    if countable is True:
        KINDS[name] = plural
    elif countable is False:
        UNCOUNTED.add(name)
    else:
        raise ValueError("countable expected bool, not: %r" % countable)
    if not shown:
        UNCOUNTED.discard(name)
"""


async def _search(tmp_path: Path, name: str) -> tuple[dict[str, object], str]:
    found, data = await search_tests_on(
        tmp_path, {"stock.py": STOCK}, "stock.py", name, "tests/test_stock.py"
    )
    return found, (data or b"").decode()


@pytest.mark.parametrize(
    ("name", "call"),
    [("level", 'level(-1, "main")'), ("restock", "restock(-1)")],
)
async def test_an_unread_made_up_argument_is_replaced(tmp_path: Path, name: str, call: str) -> None:
    _found, written = await _search(tmp_path, name)
    assert call in written, written
    assert "count cannot be negative" in written, written


async def test_a_read_made_up_argument_gives_no_test(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "restock")
    assert "sample note" not in written, written
    dropped = found["dropped"]
    assert any("shows made-up note" in d for d in dropped), found  # type: ignore[attr-defined]


async def test_an_unread_argument_nothing_replaces_gives_no_test(tmp_path: Path) -> None:
    found, written = await _search(tmp_path, "power")
    assert "sample" not in written, written
    dropped = found["dropped"]
    assert any("shows made-up exponent" in d for d in dropped), found  # type: ignore[attr-defined]


async def test_an_optional_argument_the_call_does_without_is_left_out(tmp_path: Path) -> None:
    # hyperlink's register_scheme("", uses_netloc=None, query_plus_is_space=None): "drop the
    # extra argument". The raise comes before ``plural`` is read: the test leaves it out.
    _found, written = await _search(tmp_path, "register")
    assert "countable expected bool" in written, written
    raising = written[written.index("countable_is") :].split("def ")[0]
    assert "shown=" not in raising, written
