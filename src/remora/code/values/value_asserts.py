"""The asserts of values the call probe observed: a result, an attribute, an item.

The probe reports a value as ``{repr, literal, constructed?, length?}``
(:mod:`remora.code.probes.programs.returned_values`). :func:`value_assert` writes ``==``
its literal form (``pytest.approx`` for a float, ``is`` for None and the booleans), else
``==`` the calls that rebuild it (``Point(x=1, y=2)``, ``datetime.date(2024, 1, 1)``), its
classes imported, else its length (of :data:`MAX_COUNTED` items at most: a count of more
is a table's size, which pins data); :func:`state_asserts` does so for each attribute a
method changed.
"""

from __future__ import annotations

from typing import Any, Protocol

from remora import python_ast

__all__ = [
    "MAX_COUNTED",
    "Imports",
    "approx_text",
    "counted",
    "state_asserts",
    "truth_assert",
    "value_assert",
    "value_asserts",
]


class Imports(Protocol):
    """What a test's asserts need imported: ``import module``, ``from module import name``,
    a name of the node's module (``imports``; ``module_names``: every name it binds)
    (:class:`remora.code.values.CallRender` keeps them)."""

    modules: set[str]
    from_imports: set[tuple[str, str]]
    imports: set[str]
    module_names: set[str]


def _rebuilt(where: str, seen: dict[str, Any], imports: Imports) -> str:
    """``assert where == Name(...)``: a value whose repr rebuilds it (the probe's
    ``constructed``), its classes imported as the probe found them; a class the node's
    module binds by that name is imported from it, as the test imports the node (a package
    that re-exports it, ``bidict.BidictBase`` beside ``bidict._base.BidictBase``, would bind
    the name twice). Were the two names different classes, the test would fail its run."""
    for needed in seen["constructed"]["imports"]:
        if len(needed) == 1:
            imports.modules.add(str(needed[0]))
        elif str(needed[1]) in imports.module_names:
            imports.imports.add(str(needed[1]))
        else:
            imports.from_imports.add((str(needed[0]), str(needed[1])))
    return f"assert {where} == {seen['constructed'].get('text', seen['repr'])}"


# The most items a length alone pins: a count of more is the size of a table of data
# (nameparser's 1,256 titles, prefixes and suffixes), which any added entry changes; it
# pins no behaviour (blind reviewers: "breaks whenever anyone adds a title").
MAX_COUNTED = 100


def counted(seen: dict[str, Any]) -> bool:
    """Whether ``seen`` has a length a test may pin (:data:`MAX_COUNTED` items at most)."""
    length = seen.get("length")
    return isinstance(length, int) and length <= MAX_COUNTED


# A float's shortest text within this relative distance of it: what is left of it is the
# arithmetic's rounding (0.09999999999999998 for 1 - 0.9), far inside pytest.approx's 1e-6.
_ROUNDING = 1e-12


def approx_text(value: float) -> str:
    """The float as ``pytest.approx`` is given it: its shortest decimal text within the
    arithmetic's rounding (``0.1`` for ``0.09999999999999998``; a blind reviewer: "should
    be written as 0.1"), else its repr."""
    for digits in range(1, 16):
        shorter = float(f"{value:.{digits}g}")
        if abs(shorter - value) <= _ROUNDING * abs(value):
            return repr(shorter)  # as Python writes it: 150.0, not 1.5e+02
    return repr(value)


def value_assert(where: str, seen: dict[str, Any], imports: Imports) -> str | None:
    """The assert of one observed value (``{repr, literal, constructed?, length?}``) read
    at ``where``: ``==`` its literal form (``pytest.approx`` for a float, ``is`` for None
    and the booleans), else ``==`` the calls that rebuild it, else a tuple subclass's items
    (``tuple(result) == ("IDENT", "a")``; ``[tuple(item) for item in result] == [...]`` for a
    list of them; each one's repr for a list of objects whose class writes one), else its
    length where it holds a few items (:func:`counted`); None for one with none of these."""
    if seen.get("literal"):
        value = python_ast.literal_eval(seen["repr"])
        if isinstance(value, float):
            imports.modules.add("pytest")
            return f"assert {where} == pytest.approx({approx_text(value)})"
        if value is None or isinstance(value, bool):
            return f"assert {where} is {seen['repr']}"
        return f"assert {where} == {seen['repr']}"
    if seen.get("constructed"):
        return _rebuilt(where, seen, imports)
    if seen.get("with_functions"):  # the test's own functions by name: [(receiver, None)]
        return f"assert {where} == {seen['with_functions']}"
    if seen.get("items"):  # a tuple subclass's items: its length is its class's
        return f"assert tuple({where}) == {seen['items']}"
    if seen.get("each_items"):  # a list of them: each one's items, not how many
        return f"assert [tuple(item) for item in {where}] == {seen['each_items']}"
    if seen.get("each_repr"):  # objects whose class shows what they hold: a parse tree
        return f"assert [repr(item) for item in {where}] == {seen['each_repr']}"
    if counted(seen):
        return f"assert len({where}) == {seen['length']}"
    return None


def value_asserts(where: str, seen: dict[str, Any], imports: Imports) -> list[str]:
    """:func:`value_assert`'s one line, or for a plain tuple no single form writes, one
    for each item that has one (``assert result[0] == [...]``): its length is the arity
    its ``return`` fixes, which pins nothing."""
    if "parts" not in seen:
        line = value_assert(where, seen, imports)
        return [line] if line is not None else []
    return [
        line
        for index, part in enumerate(seen["parts"])
        for line in value_asserts(f"{where}[{index}]", part, imports)
    ]


def state_asserts(variable: str, state: dict[str, Any], imports: Imports) -> list[str]:
    """Asserts of the attributes observed after the call (``state``: attribute ->
    ``{repr, literal, constructed?, length?}``); one :func:`value_assert` cannot write is left
    out."""
    return [
        line
        for attribute, seen in state.items()
        for line in value_asserts(f"{variable}.{attribute}", seen, imports)
    ]


def truth_assert(returned: dict[str, Any]) -> str | None:
    """``assert result`` or ``assert not result`` for an observed literal that is no
    boolean, from a node that answers by truth (the operand an ``and``/``or`` chain handed
    back: :func:`remora.code.testgen.boolean_results.answers_by_truth`); None otherwise."""
    if not returned.get("literal"):
        return None
    value = python_ast.literal_eval(returned["repr"])
    if isinstance(value, bool):
        return None
    return "assert result" if value else "assert not result"
