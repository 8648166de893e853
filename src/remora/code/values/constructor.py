"""A class's constructor parameters, read from the module's syntax tree with Python's rules.

What ``ClassName(...)`` accepts is decided by, in this order: an ``__init__``
the class defines itself, else its own ``__new__``; the ``__init__`` a dataclass
generates (fields in base-first order, ``ClassVar`` left out, ``InitVar`` kept,
``field(init=False)`` left out, ``KW_ONLY`` and ``kw_only=True`` making fields keyword-only and
moving them after the others); a ``NamedTuple``'s fields; a ``TypedDict``'s
keys; otherwise the first base class of the same module that decides, or a
``namedtuple(...)`` call's fields (:mod:`.namedtuple_fields`), and a
class with no base of its own module takes ``object()``'s empty signature.
A base from another module (``Exception``, a library class) cannot be read
from this file: the result then says ``exact: False``.

Everything rests on :mod:`ast`; nothing is imported or run.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import TypedDict

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.host_function import host_function
from remora.code.parsing import ast_tree, comment_annotations, per_text
from remora.code.values.annotations import annotation_head, dotted_name
from remora.code.values.dataclass_fields import DataclassField, field_spec, keyword_flag
from remora.code.values.namedtuple_fields import namedtuple_fields
from remora.code.values.parameters import CallParameter, Kind, Parameter, function_parameters

__all__ = [
    "Constructor",
    "ConstructorParameters",
    "ModuleClasses",
    "constructor_of",
    "own_init",
    "parsed_classes",
    "reachable_class",
]

_DATACLASS_NAMES = {"dataclass", "dataclasses.dataclass"}
_NAMEDTUPLE_NAMES = {"NamedTuple", "typing.NamedTuple"}
_TYPEDDICT_NAMES = {"TypedDict", "typing.TypedDict", "typing_extensions.TypedDict"}


class ConstructorParameters(TypedDict):
    """What calling a class takes (:meth:`Constructor.to_dict`): ``origin`` where that was
    read, ``exact`` false when it is a guess (a base class outside the file)."""

    parameters: list[CallParameter]
    origin: str
    exact: bool


@dataclass(frozen=True)
class Constructor:
    """What calling the class takes, where that came from, and whether it is certain."""

    parameters: tuple[Parameter, ...]
    origin: str
    exact: bool

    def to_dict(self) -> ConstructorParameters:
        return {
            "parameters": [p.row() for p in self.parameters],
            "origin": self.origin,
            "exact": self.exact,
        }


def _annotation_tree(annotation: ast.expr, postponed: bool) -> ast.expr:
    """A quoted annotation (``"ClassVar[int]"``) parsed, as dataclasses read it.

    Under ``from __future__ import annotations`` every annotation is already a
    string, so a quoted one is a string of a string, which dataclasses do not
    recognise as ``ClassVar`` or ``InitVar``: it stays as written.
    """
    if not postponed and isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return python_ast.parse_expression(annotation.value)
        except SyntaxError:
            return annotation
    return annotation


def _annotation_head(annotation: ast.expr, postponed: bool) -> str:
    return annotation_head(_annotation_tree(annotation, postponed))


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists a compound statement holds (``if``/``else``, ``try``, ``with``...)."""
    lists = [getattr(stmt, name, None) for name in ("body", "orelse", "finalbody")]
    inner = [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]
    return [block for block in lists if isinstance(block, list)] + [part.body for part in inner]


class ModuleClasses:
    """The classes of one module, by qualified name, and the rules that read them."""

    def __init__(self, tree: ast.Module, text: str = "") -> None:
        self.tree = tree
        self.text = text  # its type comments annotate (parsing.type_comments)
        self.classes: dict[str, ast.ClassDef] = {}
        self.postponed = any(
            isinstance(stmt, ast.ImportFrom)
            and stmt.module == "__future__"
            and any(alias.name == "annotations" for alias in stmt.names)
            for stmt in tree.body
        )
        self._collect(tree.body, "")

    def _collect(self, body: list[ast.stmt], prefix: str) -> None:
        """The classes reached through classes and blocks (``if``, ``try``), not functions:
        one in a function exists only while the function runs."""
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                self.classes[prefix + stmt.name] = stmt
                self._collect(stmt.body, f"{prefix}{stmt.name}.")
            elif not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                for block in _blocks(stmt):
                    self._collect(block, prefix)

    def base_class(self, base: ast.expr) -> ast.ClassDef | None:
        return self.classes.get(dotted_name(base))

    def constructor(self, cls: ast.ClassDef, seen: frozenset[str] = frozenset()) -> Constructor:
        if cls.name in seen:  # a cycle of names cannot be a real hierarchy
            return Constructor((), f"unresolved base of {cls.name}", False)
        seen = seen | {cls.name}
        for special in ("__init__", "__new__"):  # an own __init__ is the more telling one
            own = next(
                (
                    stmt
                    for stmt in cls.body
                    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
                    and stmt.name == special
                ),
                None,
            )
            if own is not None:
                commented = comment_annotations(self.text, own.lineno)
                params = [
                    replace(p, annotation=p.annotation or commented.get(p.name))
                    for p in function_parameters(own.args, drop_first=True)
                ]
                return Constructor(tuple(params), f"{cls.name}.{special}", True)
        dataclass_decorator = self._dataclass_decorator(cls)
        if (
            dataclass_decorator is not None
            and keyword_flag(dataclass_decorator, "init") is not False
        ):
            return self._dataclass(cls, seen)
        base_names = {dotted_name(base) for base in cls.bases}
        if base_names & _NAMEDTUPLE_NAMES:
            fields = self._annotated_fields(cls, keyword_only=False)
            return Constructor(tuple(fields), f"NamedTuple {cls.name}", True)
        if base_names & _TYPEDDICT_NAMES:
            fields = self._annotated_fields(cls, keyword_only=True)
            return Constructor(tuple(fields), f"TypedDict {cls.name}", True)
        for base in cls.bases:
            local = self.base_class(base)
            if local is not None:
                return self.constructor(local, seen)
            if (generated := namedtuple_fields(base)) is not None:
                return Constructor(generated[0], f"namedtuple base of {cls.name}", generated[1])
            if dotted_name(base) not in {"object", "Generic", "typing.Generic", "Protocol"}:
                return Constructor((), f"base {ast.unparse(base)} of another module", False)
        return Constructor((), "object", True)

    def _dataclass_decorator(self, cls: ast.ClassDef) -> ast.expr | None:
        for decorator in cls.decorator_list:
            if dotted_name(decorator) in _DATACLASS_NAMES:
                return decorator
        return None

    def _dataclass_fields(
        self, cls: ast.ClassDef, seen: frozenset[str]
    ) -> tuple[dict[str, DataclassField], bool]:
        """(fields by name in definition order, exact) of a dataclass and its bases."""
        fields: dict[str, DataclassField] = {}
        exact = True
        # Fields of base dataclasses come first, the most basic base first; a
        # field redefined later keeps its first place and takes the new spec.
        for base in reversed(cls.bases):
            local = self.base_class(base)
            if local is None:
                exact = exact and dotted_name(base) in {"object", "Generic", "typing.Generic"}
                continue
            if local.name in seen or self._dataclass_decorator(local) is None:
                continue
            inherited, base_exact = self._dataclass_fields(local, seen | {local.name})
            fields.update(inherited)
            exact = exact and base_exact
        fields.update(self._own_dataclass_fields(cls))
        return fields, exact

    def _dataclass(self, cls: ast.ClassDef, seen: frozenset[str]) -> Constructor:
        fields, exact = self._dataclass_fields(cls, seen)
        ordered = [f for f in fields.values() if not f.kw_only]
        ordered += [f for f in fields.values() if f.kw_only]
        params = tuple(
            Parameter(
                f.name,
                "keyword_only" if f.kw_only else "positional_or_keyword",
                f.annotation,
                f.default,
            )
            for f in ordered
        )
        return Constructor(params, f"dataclass {cls.name}", exact)

    def _own_dataclass_fields(self, cls: ast.ClassDef) -> dict[str, DataclassField]:
        decorator = self._dataclass_decorator(cls)
        keyword_only = bool(decorator is not None and keyword_flag(decorator, "kw_only"))
        fields: dict[str, DataclassField] = {}
        for stmt in cls.body:
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            head = _annotation_head(stmt.annotation, self.postponed)
            if head in {"KW_ONLY", "dataclasses.KW_ONLY"}:
                keyword_only = True  # every later field of this class is keyword-only
                continue
            if head in {"ClassVar", "typing.ClassVar"}:
                continue
            in_init, default, kw_override = field_spec(stmt.value)
            name = stmt.target.id
            if not in_init:
                fields.pop(name, None)
                continue
            kw_only = keyword_only if kw_override is None else kw_override
            annotation = _init_annotation(stmt.annotation, self.postponed)
            fields[name] = DataclassField(name, annotation, default, kw_only)
        return fields

    def _annotated_fields(self, cls: ast.ClassDef, *, keyword_only: bool) -> list[Parameter]:
        found: list[Parameter] = []
        kind: Kind = "keyword_only" if keyword_only else "positional_or_keyword"
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                if _annotation_head(stmt.annotation, self.postponed) in {
                    "ClassVar",
                    "typing.ClassVar",
                }:
                    continue
                default = ast.unparse(stmt.value) if stmt.value is not None else None
                found.append(Parameter(stmt.target.id, kind, ast.unparse(stmt.annotation), default))
        return found


def _init_annotation(annotation: ast.expr, postponed: bool) -> str:
    """The type a caller passes: ``InitVar[int]`` is given as an ``int``."""
    tree = _annotation_tree(annotation, postponed)
    if isinstance(tree, ast.Subscript) and dotted_name(tree.value) in {
        "InitVar",
        "dataclasses.InitVar",
    }:
        return ast.unparse(tree.slice)
    return ast.unparse(annotation)


@per_text(max_entries=16)
def parsed_classes(source: str) -> ModuleClasses:
    """The module's classes (the last few texts kept: every class and method node of a file
    asks about the same text, and parsing it is the whole file's cost). On the tree every
    reader shares (:func:`ast_tree`): a tree of its own was another copy of each file's."""
    tree = ast_tree(source)
    if tree is None:
        try:
            python_ast.parse(source)  # again, for the error's place and words
        except SyntaxError as exc:
            raise ValueError(
                f"line {exc.lineno}: this Python cannot parse the module ({exc.msg})"
            ) from None
        raise AssertionError("ast_tree found no tree of a text the parser reads")
    return ModuleClasses(tree, source)


def constructor_of(source: str, class_name: str) -> Constructor:
    """The constructor of ``class_name`` (dotted for nested classes) in ``source``.

    Raises ValueError when the source does not parse or has no such class.
    """
    module = parsed_classes(source)
    cls = module.classes.get(class_name)
    if cls is None:
        known = ", ".join(sorted(module.classes)) or "none"
        raise ValueError(f"no class {class_name!r} in the module (classes: {known})")
    return module.constructor(cls)


def own_init(source: str, class_name: str) -> ast.FunctionDef | None:
    """The ``__init__`` ``class_name`` defines itself (dotted for nested classes), whose
    branches a class's own candidates are searched at; None without one."""
    cls = parsed_classes(source).classes.get(class_name)
    found = (
        stmt
        for stmt in (cls.body if cls is not None else [])
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__"
    )
    return next(found, None)


def reachable_class(source: str, class_name: str) -> bool:
    """Whether ``class_name`` is not defined in a function; ValueError: the text does not parse."""
    return class_name in parsed_classes(source).classes


@host_function
def constructor_parameters(context: CodeContext, class_name: str = "") -> ConstructorParameters:
    """What calling a class of the node's file takes: ``{parameters, origin, exact}``.

    ``class_name`` defaults to the node itself (a class) or the class owning the
    node (a method). Each parameter: ``{name, kind, annotation, default, required}``.
    """
    node = context.bound_node()
    if not class_name:
        parts = node.full_name.split(".")
        class_name = node.full_name if node.node_type == "class" else ".".join(parts[:-1])
    if not class_name:
        raise ValueError(f"{node.full_name} is not a class or a method; name the class")
    return constructor_of(context.node_file_text(), class_name).to_dict()
