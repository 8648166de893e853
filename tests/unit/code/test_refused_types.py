"""A TypeError a type check stated names the argument it refused, and its type.

hyperlink's ``URL.sibling(1)`` raises through its helper ``_textcheck``; its test was
named ``test_url_sibling_raises_type_error``, and the blind reviewer asked for the name to
"say the segment is non-text". Made-up module, probed as the sandbox probes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from probe_support import probe_outcome

from remora.code.testgen.test_names import behaviour_name

PATHS = """\
def _textcheck(name, value):
    if not isinstance(value, str):
        raise TypeError("expected text for %s, not %r" % (name, value))
    return value


class Route:
    def __init__(self, segments=()):
        self.segments = tuple(segments)

    def sibling(self, segment):
        _textcheck("segment", segment)
        return Route(self.segments[:-1] + (segment,))

    def child(self, *segments):
        for segment in segments:
            _textcheck("segment", segment)
        return Route(self.segments + segments)

    def depth(self, limit):
        return len(self.segments) + limit
"""


def _name(tmp_path: Path, method: str, args: dict[str, object]) -> str | None:
    (tmp_path / "routes.py").write_text(PATHS)
    row = probe_outcome(tmp_path, "routes", f"Route.{method}", args, owner="Route")
    row["args"] = args
    function = next(
        n for n in ast.walk(ast.parse(PATHS)) if isinstance(n, ast.FunctionDef) and n.name == method
    )
    return behaviour_name(method, row, "typical", set(), set(), function=function, lines={1})


def test_a_type_check_in_a_helper_names_the_argument_it_refused(tmp_path: Path) -> None:
    assert _name(tmp_path, "sibling", {"segment": 1}) == (
        "test_sibling_when_segment_is_int_raises_type_error"
    )
    assert _name(tmp_path, "child", {"segments": ["a", 2.5]}) == (
        "test_child_when_segments_has_a_float_raises_type_error"
    )
    assert _name(tmp_path, "sibling", {"segment": None}) == (
        "test_sibling_when_segment_is_none_raises_type_error"
    )
    # A TypeError no raise stated (an operation that failed) names no argument this way.
    assert _name(tmp_path, "depth", {"limit": "x"}) == "test_depth_raises_type_error"
