"""A set-up call that changed nothing on its instance sets nothing up.

hyperlink's ``DecodedURL.remove`` test first called ``remove("Alice", ...)`` to hold the
name, threw the returned URL away, and was named ``when_name_is_already_stored``; the
blind reviewer: "the earlier call's result is thrown away, so nothing ever is". Made-up
module, probed as the sandbox probes it: an immutable query whose ``remove`` returns a
new one, and a mutable basket whose ``add`` keeps its items in a private list.
"""

from __future__ import annotations

from pathlib import Path

from probe_support import probe_outcome

QUERIES = """\
class Query:
    def __init__(self, pairs=()):
        self._pairs = tuple(pairs)

    def remove(self, name):
        return Query(p for p in self._pairs if p[0] != name)


class Basket:
    def __init__(self):
        self._items = []

    def add(self, item):
        self._items.append(item)

    def remove(self, item):
        self._items.remove(item)
        return len(self._items)
"""


def _filled(method: str, *args: object) -> dict[str, object]:
    return {"__calls__": [{"method": method, "args": list(args), "keywords": {}}]}


def test_a_set_up_call_that_changed_nothing_builds_no_instance(tmp_path: Path) -> None:
    (tmp_path / "queries.py").write_text(QUERIES)
    owner = _filled("remove", "a")
    row = probe_outcome(
        tmp_path, "queries", "Query.remove", {"name": "a"}, owner="Query", owner_args=owner
    )
    assert row["called"] is False, row  # no instance to call it on: no test
    # A set-up call that changed a private list did set the instance up.
    basket = probe_outcome(
        tmp_path,
        "queries",
        "Basket.remove",
        {"item": "x"},
        owner="Basket",
        owner_args=_filled("add", "x"),
    )
    assert basket["called"] and basket["returned"]["repr"] == "0", basket
