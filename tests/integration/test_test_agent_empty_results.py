"""A node's kept tests show its call doing something, not only a call that did nothing.

An invented kit (issue 56): ``anagrams`` finds names the value search cannot spell (it has
names, not placeholders: a made-up value the code reads gives no test at all), so
each of its calls returns ``[]``; ``fold`` hands back ``acc``, which the search's calls
leave as they gave it; ``tally`` returns ``0`` for a missing key and the count of a
present one. Blind reviewers rejected ``values(obj, glob) == []`` and ``fold({}, f,
acc) == acc`` as "trivial" (dpath). The sandbox, the probe, pytest and the mutation
check are real; no model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

WORDS = '''\
def anagrams(names, name):
    """The other names of ``names`` spelled with the letters of ``name``."""
    return [n for n in names if sorted(n) == sorted(name) and n != name]


def tally(counts, key):
    """How many times ``key`` was counted."""
    if key not in counts:
        return 0
    return counts[key]


def fold(pairs, combine, acc):
    """Combine each pair into ``acc``; stop where ``combine`` returns False."""
    for pair in pairs:
        if combine(pair, acc) is False:
            break
    return acc
'''

FILES = {"kit/__init__.py": "", "kit/words.py": WORDS}


async def _search(tmp_path: Path, node: str) -> tuple[dict[str, Any], str]:
    found, data = await search_tests_on(
        tmp_path, FILES, "kit/words.py", node, "tests/test_words.py"
    )
    return found, (data or b"").decode()


@pytest.mark.parametrize(
    ("node", "nothing"),
    [
        ("anagrams", "`return []`"),
        # Each call the search has gives ``pairs`` empty: no loop runs, and no call is a
        # candidate at all (testgen/no_op_calls.shows_nothing), before any mutant.
        ("fold", ""),
    ],
)
async def test_a_node_whose_every_call_did_nothing_gets_no_test(
    tmp_path: Path, node: str, nothing: str
) -> None:
    found, written = await _search(tmp_path, node)
    assert found["kept"] == [] and written == "", found
    reasons = [d for d in found["dropped"] if "no test shows the call doing something" in d]
    assert (reasons and nothing in reasons[0]) if nothing else not found["dropped"], found


async def test_the_empty_result_of_a_branch_stays_beside_a_call_that_did_something(
    tmp_path: Path,
) -> None:
    found, written = await _search(tmp_path, "tally")
    assert len(found["kept"]) == 2, found
    asserted = [line.strip() for line in written.splitlines() if "assert result ==" in line]
    assert "assert result == 0" in asserted, written  # the missing key's branch
    assert any(line != "assert result == 0" for line in asserted), written
