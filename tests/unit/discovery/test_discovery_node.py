"""CSTNode: pickling (worker processes send nodes back) and ids."""

from __future__ import annotations

import dataclasses
import pickle

from remora.discovery import CSTNode, make_node_id, parse_source


def test_pickle_round_trip_keeps_every_field() -> None:
    source = b"class A:\n    @staticmethod\n    async def m():\n        pass\n"
    nodes, _ = parse_source(source, "pkg/a.py")
    back = pickle.loads(pickle.dumps(nodes))
    assert back == nodes
    method = back[-1]
    assert method.decorators == ("staticmethod",) and method.is_async
    # __reduce__ lists the fields by hand; a new field must be added there too.
    reduced = nodes[0].__reduce__()[1]
    assert len(reduced) == len(dataclasses.fields(CSTNode))
    assert reduced == tuple(getattr(nodes[0], f.name) for f in dataclasses.fields(CSTNode))


def test_make_node_id_occurrence() -> None:
    first = make_node_id("a.py", "A.x", "method")
    assert make_node_id("a.py", "A.x", "method", occurrence=1) == first
    assert make_node_id("a.py", "A.x", "method", occurrence=2) != first
    assert make_node_id("a.py", "A.x", "function") != first
    assert len(first) == 16
