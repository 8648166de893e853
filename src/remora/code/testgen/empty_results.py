"""What a call of a node that returns values gives when it did nothing (issue 56).

``values(obj, "no/match") == []``, ``set(obj, "no/match", 1) == 0``,
``search(obj, "x") == {}``, ``types(None, []) == ()``, ``fold({}, f, acc) == acc``: a
test that sees only that pins the call doing nothing, and would pass were the body
``return []`` or ``return acc`` (blind reviewers: "trivial", "pins nothing"). The
mutation check holds a node's kept tests to showing it doing something with one mutant
per such value, its body replaced by ``return <that value>``
(:mod:`remora.code.testgen.shown_outcomes`):

- the empty value of each kind its results take: the kinds the kept tests observed (the
  builtin type of the value a probed call returned: :func:`observed_kind`), then those
  the node's own code gives, read with :mod:`ast`: its return annotation (``list[str]``,
  ``Optional[int]``), and each branch of each of its own ``return`` values (nested
  functions and classes aside): a display or comprehension, a literal, an f-string, a
  call of a builtin that builds that kind (``list(...)``, ``len(...)``, ``sorted(...)``),
  ``"".join(...)``/``"".format(...)``;
- the parameter every one of its own returns hands back as it was given (``return acc``,
  ``return self``): the call that did nothing to it gives it back unchanged
  (:func:`handed_back`).

``None`` is none of them: ``visit_index(node, None) is None``, ``find(key) is None`` is
a result the code chose, and of the labelled tests a ``return None`` mutant would have
dropped, blind reviewers marked 8 "edit" (worth pinning) and 1 "accept", 2 "reject". A
node that returns no value but ``None`` has none; a generator function's call that did
nothing yields nothing (``list(match_files([])) == []``): its body becomes ``return
(yield from ())``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from remora import python_ast
from remora.code.testgen.boolean_results import own_nodes
from remora.code.testgen.no_op_calls import returned_branches
from remora.code.values.annotations import head_name, parsed_annotation, union_parts
from remora.code.values.parameters import parameter_names

__all__ = [
    "EMPTY_OF",
    "YIELDS_NOTHING",
    "empty_results",
    "gives_nothing",
    "handed_back",
    "is_empty",
    "nothing_results",
    "observed_kind",
    "returns_values",
    "yields",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef

# A generator function's body that yields nothing, as a mutant's ``return`` writes it.
YIELDS_NOTHING = "(yield from ())"
# Each builtin kind's empty value, as a mutant's ``return`` writes it.
EMPTY_OF: dict[str, str] = {
    "list": "[]",
    "dict": "{}",
    "tuple": "()",
    "str": "''",
    "int": "0",
    "float": "0.0",
    "bytes": "b''",
    "set": "set()",
    "frozenset": "frozenset()",
}
# How many empty values one node's mutants return, at most (each runs every test).
MAX_EMPTY = 3
_TYPING = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set", "FrozenSet": "frozenset"}
_BUILDERS = {**{kind: kind for kind in EMPTY_OF}, "len": "int", "sorted": "list", "repr": "str"}
_DISPLAYS: dict[type[ast.expr], str] = {
    ast.List: "list",
    ast.ListComp: "list",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.Tuple: "tuple",
    ast.JoinedStr: "str",
}


def _annotated(annotation: ast.expr | None) -> list[str]:
    """The kinds a return annotation names: ``list[int]`` list, ``Optional[str]`` str,
    ``dict | None`` dict; none for an abstract or a project type."""
    tree = parsed_annotation(ast.unparse(annotation)) if annotation is not None else None
    heads = [head_name(part) for part in union_parts(tree)] if tree is not None else []
    return [kind for kind in (_TYPING.get(head, head) for head in heads) if kind in EMPTY_OF]


def _returned_kind(value: ast.expr) -> str | None:
    for display, kind in _DISPLAYS.items():
        if isinstance(value, display):
            return kind
    if isinstance(value, ast.Constant):
        kind = type(value.value).__name__
        return kind if kind in EMPTY_OF else None  # a bool is no kind here
    if isinstance(value, ast.Call):
        called = value.func
        if isinstance(called, ast.Name):
            return _BUILDERS.get(called.id)
        if isinstance(called, ast.Attribute) and called.attr in ("join", "format"):
            return "str" if isinstance(called.value, ast.Constant) else None
    return None


def _own_returns(function: Function) -> list[ast.Return] | None:
    """The function's own returns in source order; None when it yields or returns no
    value but ``None`` anywhere."""
    own = list(own_nodes(function))
    if any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own):
        return None
    returns = [node for node in own if isinstance(node, ast.Return)]
    if all(_is_none(node.value) for node in returns):
        return None
    return sorted(returns, key=lambda node: (node.lineno, node.col_offset))


def returns_values(function: Function) -> bool:
    """Whether ``function`` returns a value other than ``None`` somewhere and yields
    nothing."""
    return _own_returns(function) is not None


def _is_none(value: ast.expr | None) -> bool:
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def empty_results(function: Function, observed: Iterable[str] = ()) -> list[str]:
    """The empty values (as :data:`EMPTY_OF` writes them) a call of ``function`` that did
    nothing may give: of the kinds ``observed`` (builtin type names of values its tests
    saw returned), then of its annotation's and its own returns'; at most ``MAX_EMPTY``.
    None for a node that yields or returns no value but ``None``."""
    returns = _own_returns(function)
    if returns is None:
        return []
    own = [
        _returned_kind(branch)
        for node in returns
        for branch in returned_branches(node.value or ast.Constant(None))
    ]
    kinds = [*observed, *_annotated(function.returns), *(kind for kind in own if kind)]
    values = [EMPTY_OF[kind] for kind in kinds if kind in EMPTY_OF]
    return list(dict.fromkeys(values))[:MAX_EMPTY]


def handed_back(function: Function) -> str | None:
    """The parameter every own ``return`` of ``function`` gives back as it was given, in
    every branch (``return acc``, ``return self``); None where there is none."""
    returns = _own_returns(function)
    names = {
        branch.id if isinstance(branch, ast.Name) else ""
        for node in returns or []
        for branch in returned_branches(node.value or ast.Constant(None))
    }
    name = names.pop() if len(names) == 1 else ""
    return name if name in parameter_names(function) else None


def yields(function: Function) -> bool:
    """Whether ``function`` is a generator function of its own (nested ones aside)."""
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own_nodes(function))


def nothing_results(function: Function, observed: Iterable[str] = ()) -> list[str]:
    """What a call of ``function`` that did nothing gives, as a ``return`` writes it: the
    parameter it hands back (:func:`handed_back`), then its empty values
    (:func:`empty_results`); a generator function's, ``(yield from ())``: it yields
    nothing (an ``async`` one has none: ``yield from`` is not allowed there)."""
    if yields(function):
        return [] if isinstance(function, ast.AsyncFunctionDef) else [YIELDS_NOTHING]
    parameter = handed_back(function)
    return [*([parameter] if parameter else []), *empty_results(function, observed)]


def observed_kind(row: Mapping[str, Any]) -> str | None:
    """The builtin type name of the value a probed call returned (``list``, ``bool``,
    ``NoneType``), ``object`` for a value of another class; None for a raise."""
    returned = row.get("returned")
    if row.get("raised") or not returned:
        return None
    if returned.get("type_module") != "builtins":
        return "object"
    return str(returned.get("type") or "object")


def is_empty(returned: Mapping[str, Any]) -> bool:
    """Whether an observed value is the empty value of its type: ``0``, ``""``, ``[]``,
    ``{}``, or a collection without a literal form reported with length 0; never ``None``
    or a boolean."""
    if returned.get("literal"):
        try:
            value = python_ast.literal_eval(str(returned["repr"]))
        except (ValueError, SyntaxError):
            return False
        if value is None or isinstance(value, bool):
            return False
        collections = (list, tuple, dict, set, frozenset)
        return isinstance(value, (int, float, str, bytes, *collections)) and not value
    return returned.get("length") == 0


def gives_nothing(row: Mapping[str, Any]) -> bool:
    """Whether a probed call did nothing a test sees: it returned ``None`` or an empty
    value (:func:`is_empty`), raised nothing and changed no state or item."""
    if row.get("raised") or row.get("contents"):
        return False
    if (row.get("state") or {}) != (row.get("state_before") or {}):
        return False
    returned = row.get("returned") or {}
    return returned.get("repr") == "None" or is_empty(returned)
