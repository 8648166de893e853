"""Where a function reads a parameter's value and the value's items, read with :mod:`ast`.

The places a parameter's value is read under its own name, or under one bound only to a
copy of it (``q = list(p)``, ``p = tuple(p)``, ``p[1:]``), and the value a constant key
reads from it (``node["children"]``); the expressions that are its items where the code
walks, indexes or zips it. :mod:`remora.code.values.non_text_uses` reads what those
uses say it is. Nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from remora.code.values.callable_arguments import parent_map
from remora.code.values.keyed_arguments import reads_of_keys
from remora.code.values.parameters import parameter_names

__all__ = [
    "Loop",
    "Place",
    "ValueReads",
    "call_name",
    "item_reads",
    "plain_name",
    "text_constant",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# A parameter, or a value read from one with a constant key: ("node", "children").
Place = tuple[str, str | None]
Loop = ast.For | ast.AsyncFor | ast.comprehension
# Copies of a collection's items under another name: ``p = tuple(p)``.
_COPIES = frozenset({"list", "tuple", "sorted", "reversed"})


def plain_name(node: ast.AST | None) -> str:
    """``p`` for the name ``p``, else ""."""
    return node.id if isinstance(node, ast.Name) else ""


def call_name(node: ast.AST | None) -> str:
    """``f`` for a call ``f(...)`` of a plain name, else "" (``x.m(...)`` too)."""
    return plain_name(node.func) if isinstance(node, ast.Call) else ""


def text_constant(node: ast.AST) -> str | None:
    """The string a constant node holds, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class ValueReads:
    """Where one function reads its parameters, their keyed values and their copies."""

    def __init__(self, function: Function) -> None:
        self.function = function
        self.parents = parent_map(function)
        # name -> what binds it: an assigned value, or the loop or ``with`` that binds it
        self.bound: dict[str, list[ast.AST]] = {}
        for node in ast.walk(function):
            targets: list[ast.AST] = []
            value: ast.AST = node
            if isinstance(node, ast.Assign):
                targets, value = list(node.targets), node.value
            elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
                targets, value = [node.target], node.value or node
            elif isinstance(node, Loop):
                targets = [node.target]
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                targets = [node.optional_vars]
            for name in (n for target in targets for n in ast.walk(target)):
                # a name the statement binds, not one it reads (``table`` of ``table[k] = v``)
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    self.bound.setdefault(name.id, []).append(value)

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def loads(self, name: str) -> list[ast.expr]:
        return [
            n
            for n in ast.walk(self.function)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        ]

    def places(self) -> Iterator[tuple[Place, list[ast.expr]]]:
        for name in sorted(parameter_names(self.function)):
            yield (name, None), self.loads(name)
            keyed: dict[str, list[ast.expr]] = {}
            for read in reads_of_keys(self.function, name)[0]:  # name["key"]
                keyed.setdefault(str(text_constant(read.slice)), []).append(read)
            yield from (((name, key), reads) for key, reads in sorted(keyed.items()))

    def copies_of(self, parameter: str, occurrences: list[ast.expr]) -> list[ast.expr] | None:
        """The occurrences with their copies (``list(p)``, ``p[1:]``) and the reads of names
        bound only to copies (``q = list(p)``, ``p = tuple(p)``); None when the parameter is
        rebound to anything else (``p = p.split()``, ``for p in p["children"]``): its reads
        are of two values."""
        found = list(occurrences)
        for _ in range(3):
            known = {id(n) for n in found}
            walked = ast.walk(self.function)
            found += [
                n
                for n in walked
                if isinstance(n, ast.expr) and self._copy_of(n, known, inline=True)
            ]
            known = {id(n) for n in found}
            for name, values in self.bound.items():
                copies = [v for v in values if self._copy_of(v, known)]
                if name == parameter and len(copies) < len(values):
                    return None
                if copies and len(copies) == len(values):
                    found += [n for n in self.loads(name) if id(n) not in known]
        return list({id(n): n for n in found}.values())

    def _copy_of(self, value: ast.AST, known: set[int], *, inline: bool = False) -> bool:
        if id(value) in known:
            return not inline
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
            return id(value.value) in known
        if not isinstance(value, ast.Call) or call_name(value) not in _COPIES:
            return False
        return any(id(a) in known for a in value.args[:1])

    def only_binding(self, name: str) -> bool:
        return len(self.bound.get(name, [])) == 1


def _loop_items(reader: ValueReads, loop: ast.AST, position: int, of: int) -> list[ast.expr]:
    """The item reads a loop binds from one of the ``of`` collections it walks (``for a, b
    in zip(p, q)``: ``position`` 0 gives ``a``); a target unpacking the one walked is
    returned itself (``for k, v in p``)."""
    target = loop.target if isinstance(loop, Loop) else None
    if of == 1 and isinstance(target, ast.Name):
        return reader.loads(target.id)
    if of == 1 and isinstance(target, ast.Tuple | ast.List):
        return [target]
    if isinstance(target, ast.Tuple) and len(target.elts) == of:
        part = target.elts[position]
        return reader.loads(part.id) if isinstance(part, ast.Name) else []
    return []


def _walked_by(reader: ValueReads, call: ast.AST) -> list[ast.AST]:
    """The loops walking ``call``, directly or through a name bound only to it
    (``i = zip(a, b)`` then ``for s, g in i``)."""
    parent = reader.parent(call)
    if isinstance(parent, Loop) and parent.iter is call:
        return [parent]
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
        return []
    target = parent.targets[0]
    if not (isinstance(target, ast.Name) and reader.only_binding(target.id)):
        return []
    loops = [reader.parent(load) for load in reader.loads(target.id)]
    return [p for p in loops if isinstance(p, Loop) and isinstance(p.iter, ast.Name)]


def item_reads(reader: ValueReads, occurrence: ast.expr) -> list[ast.expr]:
    """Expressions of a collection's items at one occurrence of it: ``x`` of ``for x in p``,
    ``p[i]`` (or the reads of ``cur`` bound only by ``cur = p[i]``), what ``enumerate(p)`` and
    ``zip(p, q)`` give a loop; a target unpacking the items (``for k, v in p``) itself."""
    parent = reader.parent(occurrence)
    if isinstance(parent, Loop) and parent.iter is occurrence:
        return _loop_items(reader, parent, 0, 1)
    if isinstance(parent, ast.Subscript) and parent.value is occurrence:
        if isinstance(parent.slice, ast.Slice) or text_constant(parent.slice) is not None:
            return []
        bound = reader.parent(parent)
        if isinstance(bound, ast.Assign) and len(bound.targets) == 1:
            target = bound.targets[0]  # ``cur = p[i]``: ``cur`` is an item
            if isinstance(target, ast.Name) and reader.only_binding(target.id):
                return reader.loads(target.id)
        return [parent]
    name = call_name(parent)
    if not isinstance(parent, ast.Call) or occurrence not in parent.args:
        return []
    position, of = parent.args.index(occurrence), len(parent.args)
    if name == "enumerate" and position == 0:
        position, of = 1, 2
    elif name != "zip":
        return []
    return [
        i for loop in _walked_by(reader, parent) for i in _loop_items(reader, loop, position, of)
    ]
