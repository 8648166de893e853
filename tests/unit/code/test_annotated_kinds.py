"""A parameter's annotation decides its kind over what an operator in the body suggests.

Made-up module; real discovery, ``ast`` and a real workspace; nothing of it runs.
"""

from __future__ import annotations

from pathlib import Path

from candidate_support import candidates_of


def test_an_annotated_set_is_a_set_whatever_operator_the_code_applies(tmp_path: Path) -> None:
    # deepmerge's set strategies: `base | nxt` read as a bit-or gave `base=1, nxt=1`, and the
    # tests pinned an int where the annotation says set (blind reviewer: "an accident").
    source = "def union(base: set, nxt: set) -> set:\n    return base | nxt\n"
    found = candidates_of(tmp_path, "sets.py", source, "union")
    assert found and all(
        isinstance(c.args.get("base"), dict) and "__set__" in c.args["base"] for c in found
    ), [c.args for c in found]
