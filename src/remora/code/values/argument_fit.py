"""Values a parameter's annotation or its uses exclude: no string where the code reads ``.year``.

A call given a string where the code wants a ``datetime`` may still finish: it
reaches an early return, or stores the string, and its test passes for another
reason than its name says (issue 56). So a derived value is left out before any
call when the node's own code says it cannot be one: the parameter's annotation
names builtin types and classes only (``str | bytes``, a project class,
``datetime``) and the value is of none of its builtin types, or the code reads
an attribute on the parameter (``when.isoformat()``, ``product.sku``, ``kind.__name__``)
the value does not have (``str.__name__`` exists, ``"int".__name__`` does not), or
uses the parameter as a mapping (``data.items()``, ``data[key]`` over its keys,
handed to a helper that does:
:func:`~remora.code.values.collection_arguments.dict_parameters`), where no
string fits, not even an empty one; nor where the code uses it as a type, a mapping
(``node["type"]``) or a collection of items no character is (``for cls in sig:
issubclass(cls, base)``), or walks it whole where the string is the one the search
made up (:mod:`~remora.code.values.non_text_uses`; not where the annotation says
text). A parameter the code rebinds or tests with ``isinstance`` takes several
kinds: no rule for it (a mapping's is kept over a rebinding, ``data = {k: ... for k,
v in data.items()}``, whose first read is the argument's). Read with :mod:`ast`;
nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from remora.code.values.annotations import head_name, parsed_annotation, union_parts
from remora.code.values.collection_arguments import dict_parameters
from remora.code.values.compared_kinds import compared_kinds
from remora.code.values.derived_sets import ClassLookup
from remora.code.values.non_text_uses import non_text_places, string_misfit
from remora.code.values.parameters import Parameter, parameter_names
from remora.code.values.type_aliases import admits_none
from remora.code.values.unspelled_values import UNKNOWN, stand_in

__all__ = ["excluded_value", "read_attributes"]

Function = ast.FunctionDef | ast.AsyncFunctionDef

_BUILTIN_TYPES: dict[str, type] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "list": list,
    "dict": dict,
    "bytes": bytes,
    "complex": complex,
    "tuple": tuple,  # sent as {"__tuple__": [...]}: values.unspelled_values
    "none": type(None),
}
# What a builtin annotation takes besides its own type (PEP 484's numeric tower).
_ALSO_TAKES: dict[type, tuple[type, ...]] = {float: (int,), complex: (int, float)}
_STDLIB_CLASSES = {"datetime", "date", "time", "timedelta", "decimal"}


def _several_kinds(function: Function, *, rebound: bool = True) -> set[str]:
    """Parameters the function asks ``isinstance`` about, or (``rebound``) rebinds."""
    params = parameter_names(function)
    found: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in params:
            found |= {node.id} if rebound else set()
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "hasattr", "type", "getattr")
            and node.args
            and isinstance(node.args[0], ast.Name)
        ):
            found.add(node.args[0].id)
    return found & params


# What a handler catches for a read that may fail: ``except AttributeError`` and wider.
_CATCHES_MISSING = frozenset({"AttributeError", "Exception", "BaseException"})


def _caught(handler: ast.ExceptHandler) -> set[str]:
    """The last names of the classes a handler catches (a bare ``except`` catches all)."""
    if handler.type is None:
        return {"BaseException"}
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {head_name(kind) for kind in kinds}


def _guarded_reads(function: Function) -> set[int]:
    """The nodes (ids) inside a ``try`` body whose handlers catch a missing attribute
    (``try: return kind.__name__ except AttributeError: ...``): the code expects a value
    without it."""
    found: set[int] = set()
    for node in ast.walk(function):
        caught = (
            {kind for handler in node.handlers for kind in _caught(handler)}
            if isinstance(node, ast.Try)
            else set()
        )
        if isinstance(node, ast.Try) and caught & _CATCHES_MISSING:
            found |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return found


def read_attributes(function: Function, *, guarded: bool = False) -> dict[str, set[str]]:
    """``parameter -> attributes the function reads on it`` (``x.year``, ``x.isoformat()``),
    for the parameters of one kind (:func:`_several_kinds` left out); a read in a ``try``
    that catches ``AttributeError`` only with ``guarded``."""
    params = parameter_names(function) - _several_kinds(function)
    skipped = set() if guarded else _guarded_reads(function)
    found: dict[str, set[str]] = {}
    for node in ast.walk(function):
        if id(node) in skipped:
            continue
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id in params
        ):
            found.setdefault(node.value.id, set()).add(node.attr)
    return found


def _heads(annotation: str | None) -> list[str]:
    """The last names of an annotation's alternatives (``date | None``, ``Optional[date]``
    -> date, None); empty when it cannot be read."""
    tree = parsed_annotation(annotation)
    heads = [head_name(part) for part in union_parts(tree)] if tree is not None else []
    return heads if all(heads) else []


def _text_annotated(annotation: str | None) -> bool:
    """Whether the annotation takes text alone (``str``, ``Optional[str]``): the contract
    says text, whatever the code does with its characters."""
    heads = [head.lower() for head in _heads(annotation)]
    return bool(heads) and set(heads) <= {"str", "none", "anystr", "text"}


def _annotation_excludes(annotation: str | None, value: Any, classes: ClassLookup) -> bool:
    """Whether every alternative of the annotation is a builtin type or a class and the
    builtin value is of none of the builtin ones (``1`` for ``str | bytes``)."""
    heads = _heads(annotation)
    allowed: list[type] = []
    for head in heads:
        if head.lower() in _BUILTIN_TYPES:
            kind = _BUILTIN_TYPES[head.lower()]
            allowed += [kind, *_ALSO_TAKES.get(kind, ())]
        elif head not in _STDLIB_CLASSES and classes(head) is None:
            return False  # Sequence, Path, Any, a protocol: not read here
    return bool(heads) and not isinstance(value, tuple(allowed))


def excluded_value(
    function: Function | None,
    parameters: Sequence[Parameter],
    args: Mapping[str, Any],
    classes: ClassLookup,
    module: ast.Module | None = None,
    aliases: Mapping[str, str] | None = None,
) -> str | None:
    """Why the node's code excludes one of ``args`` (``"when: a str has no attribute
    'isoformat'"``), or None when it excludes none. With ``aliases`` (the module's, see
    :func:`remora.code.values.type_aliases.project_aliases`) a None is excluded where the
    annotation takes none; an unannotated parameter the code compares only with numbers
    takes no string (``module`` resolves the constants compared with)."""
    reads = read_attributes(function) if function is not None else {}
    annotations = {p.name: p.annotation for p in parameters}
    defaults = {p.name: p.default for p in parameters}
    compared = compared_kinds(function, module) if function is not None else {}
    mappings = (
        dict_parameters(function, module) - _several_kinds(function, rebound=False)
        if function is not None
        else set()
    )
    not_text = non_text_places(function) if function is not None else {}
    for name, value in args.items():
        takes_none = aliases is None or name not in annotations
        if (
            value is None
            and not takes_none
            and not admits_none(annotations[name], defaults[name], aliases or {})
        ):
            return f"{name}: annotated {annotations[name]}, which takes no None"
        # What the JSON value stands for: a tuple, a builtin class (values.unspelled_values).
        value = stand_in(value)
        if value is UNKNOWN or value is None:
            continue  # an instance, a class of the module, a callable: the project makes it
        if not _text_annotated(annotations.get(name)) and (
            why := string_misfit(not_text, name, value)
        ):
            return why
        kind = type(value).__name__
        # Not the other way: a string compared with (``"auto"``) is often a sentinel beside
        # numbers; a number compared with is never a string's.
        wanted = compared.get(name, ("", None))[0] if annotations.get(name) is None else ""
        if wanted == "number" and isinstance(value, str):
            return f"{name}: compared with number constants only, not a {kind}"
        if name in mappings and annotations.get(name) is None and isinstance(value, str):
            return f"{name}: used as a mapping, not a {kind}"
        if _annotation_excludes(annotations.get(name), value, classes):
            return f"{name}: annotated {annotations[name]}, not a {kind}"
        for attribute in sorted(reads.get(name, ())):
            if not hasattr(value, attribute):  # the value's: a str has no ``__name__``
                return f"{name}: a {kind} has no attribute {attribute!r} the code reads"
    return None
