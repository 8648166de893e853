"""A parameter compared with the sentinel its default names gets a set that leaves it out.

Made-up module: ``first(pred, seq=MISSING)`` branches on ``seq is MISSING``; no value a
test can write is that object, so only a set without ``seq`` reaches that side. Real
``ast``, discovery and a real workspace; nothing runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

from candidate_support import candidates_of

from remora.code.values.sentinel_defaults import sentinel_parameters

PICKS = """\
MISSING = object()


def first(pred, seq=MISSING):
    if seq is MISSING:
        return pred[0]
    return next(x for x in seq if pred(x))
"""


def _function(source: str) -> ast.FunctionDef:
    found = ast.parse(source).body[-1]
    assert isinstance(found, ast.FunctionDef)
    return found


def _defaults(function: ast.FunctionDef) -> dict[str, str | None]:
    args = function.args
    names = [a.arg for a in args.args]
    given = [None] * (len(names) - len(args.defaults)) + [ast.unparse(d) for d in args.defaults]
    return dict(zip(names, given, strict=True))


def _sentinels(source: str) -> list[str]:
    function = _function(source)
    return sentinel_parameters(function, _defaults(function))


def test_a_parameter_compared_with_the_name_its_default_is_is_found() -> None:
    assert _sentinels(PICKS) == ["seq"]
    assert _sentinels("def f(a, b=no_default):\n    return b == no_default\n") == ["b"]
    dotted = "def f(a, init=utils.no_default):\n    if utils.no_default is not init:\n        a = 1"
    assert _sentinels(dotted) == ["init"]


def test_a_literal_default_or_another_name_compared_is_no_sentinel() -> None:
    # ``x is None`` is a boundary of its own (the value None); ``flag=True`` a literal.
    assert _sentinels("def f(x=None, flag=True):\n    return x is None or flag is True\n") == []
    assert _sentinels("def f(seq=MISSING):\n    return seq is OTHER\n") == []
    assert _sentinels("def f(seq=MISSING):\n    return len(seq)\n") == []


def test_the_search_tries_the_call_without_it(tmp_path: Path) -> None:
    found = candidates_of(tmp_path, "picks.py", PICKS, "first")
    omitted = [c for c in found if c.why == "seq_is_omitted"]
    assert len(omitted) == 1 and set(omitted[0].args) == {"pred"}
