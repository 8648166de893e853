"""A function whose every ``return`` gives a lazy iterator is drained as a generator is.

Made-up modules, read with ``ast`` (nothing runs): ``map``/``filter``/``zip``, an
``itertools`` function imported either way, and a generator expression count; a list,
a rebound ``map``, a nested function's return, or one plain return beside them do not.
"""

from __future__ import annotations

import ast

from remora.code.values.lazy_iterators import returns_lazy_iterator


def _lazy(source: str, name: str = "f") -> bool:
    module = ast.parse(source)
    function = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return returns_lazy_iterator(function, module)


def test_builtin_and_itertools_iterators_and_generator_expressions() -> None:
    assert _lazy("def f(xs):\n    return filter(None, xs)\n")
    assert _lazy("def f(k, ms):\n    if not ms:\n        return iter([])\n    return map(k, ms)\n")
    assert _lazy("from itertools import zip_longest\ndef f(a):\n    return zip_longest(a, a)\n")
    assert _lazy("from itertools import chain\ndef f(a):\n    return chain.from_iterable(a)\n")
    assert _lazy("import itertools\ndef f(a, n):\n    return itertools.islice(a, n)\n")
    assert _lazy("def f(a):\n    return (x * 2 for x in a)\n")


def test_values_rebound_names_and_nested_returns_are_not() -> None:
    assert not _lazy("def f(xs):\n    return list(map(str, xs))\n")
    rebound = "def map(f, xs):\n    return [f(x) for x in xs]\n"
    assert not _lazy(f"{rebound}def f(xs):\n    return map(str, xs)\n")
    assert not _lazy("def f(xs):\n    def g():\n        return map(str, xs)\n    return g\n")
    assert not _lazy("def f(xs):\n    if xs:\n        return map(str, xs)\n    return None\n")
    assert not _lazy("def f(xs):\n    xs.sort()\n")
