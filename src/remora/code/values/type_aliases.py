"""Whether a parameter's annotation takes None, its aliases read through the module's assignments.

``key: Key`` with ``Key = Tuple[str, ...]`` (in the module, or in the project module it
imports ``Key`` from) takes no None, nor does ``parse_float: ParseFloat`` with
``ParseFloat = Callable[[str], Any]``: a test calling ``is_(key=None)`` pins what the
code does with an argument its own signature rules out (blind reviewers asked for
such tests to be taken out). An annotation takes None when it has no annotation, its
default is ``None``, or it is (once its aliases are put in) ``None``, ``Optional``, a
union with ``None``, ``Any``, ``object``, ``Hashable``, a ``Literal`` holding ``None``, or a
name bound to a call (``T = TypeVar("T")``); a forward reference (``"Element"``) is read as
what it names. Read with :mod:`ast`; nothing is imported.

A generic alias given its type arguments (``pairs: Many[str]`` with ``Many =
Union[Set[T], Sequence[T]]``) stands for its text with each type variable, in the
order they first appear, replaced by the argument in its place (``Union[Set[str],
Sequence[str]]``), as ``typing`` substitutes them; a type variable itself stands for its
``bound``, its constraints as a union, or ``Any`` (what it may be given). Put in as plain
names instead, ``Many[T]`` read as ``Union[...][TypeVar('T')]``, which no value fits: the
search tried the parameter with None alone.
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.import_paths import package_of
from remora.code.values.annotations import (
    dotted_name,
    head_name,
    parsed_annotation,
    union_parts,
)
from remora.code.values.input_sources import top_level_bindings
from remora.code.values.parameters import Parameter
from remora.code.values.project_imports import imported_names, project_module_text

__all__ = [
    "admits_none",
    "module_aliases",
    "project_aliases",
    "resolved_annotation",
    "resolved_parameters",
]

_TAKES_NONE = {"Any", "object", "Hashable", "Optional", "None", "NoneType"}
_MAX_DEPTH = 4  # an alias of an alias ...; a cycle stops here


def module_aliases(tree: ast.Module) -> dict[str, str]:
    """``name -> the annotation text it stands for`` for each name the module binds once,
    at its top level (``Key = Tuple[str, ...]``, ``Pos: TypeAlias = int``), or under ``if
    TYPE_CHECKING:`` there, where only a type checker reads it (``F = TypeVar("F",
    bound=Callable[..., Any])``)."""
    checked = [
        statement
        for block in tree.body
        if isinstance(block, ast.If) and dotted_name(block.test).endswith("TYPE_CHECKING")
        for statement in block.body
    ]
    bindings = top_level_bindings(tree) + top_level_bindings(ast.Module(checked, []))
    bound = Counter(name for name, _ in bindings)
    return {name: ast.unparse(value) for name, value in bindings if bound[name] == 1}


def project_aliases(context: CodeContext) -> dict[str, str]:
    """The aliases of the node's module and those it imports from the project's modules."""
    text = context.node_file_text()
    try:
        tree = python_ast.parse(text)
    except SyntaxError:
        return {}
    found: dict[str, str] = {}
    try:
        imported = imported_names(tree, package_of(context, context.bound_node().file_path))
    except ValueError:
        imported = {}
    per_module: dict[str, dict[str, str]] = {}  # each imported module read once

    def aliases_of(module: str) -> dict[str, str]:
        if module not in per_module:
            their_text = project_module_text(context, module)
            try:
                per_module[module] = (
                    module_aliases(python_ast.parse(their_text)) if their_text is not None else {}
                )
            except SyntaxError:
                per_module[module] = {}
        return per_module[module]

    for name, (module, original) in imported.items():
        if original in aliases_of(module):
            found[name] = per_module[module][original]
        # ``from . import hints`` and ``value: hints.Buffer``: the module's aliases, dotted.
        elif project_module_text(context, f"{module}.{original}".lstrip(".")) is not None:
            inner = aliases_of(f"{module}.{original}".lstrip("."))
            found |= {f"{name}.{alias}": text for alias, text in inner.items()}
    return {**found, **module_aliases(tree)}


def _type_variable(tree: ast.expr) -> bool:
    return isinstance(tree, ast.Call) and head_name(tree.func) == "TypeVar"


def _type_variable_meaning(call: ast.Call) -> ast.expr:
    """What a ``TypeVar(...)`` may be given: its bound, its constraints' union, or Any."""
    bound = next((k.value for k in call.keywords if k.arg == "bound"), None)
    if isinstance(bound, ast.Constant) and isinstance(bound.value, str):  # bound="Node"
        return parsed_annotation(bound.value) or ast.Name("Any", ast.Load())
    if bound is not None:
        return bound
    constraints = call.args[1:]
    if constraints:
        items = constraints[0] if len(constraints) == 1 else ast.Tuple(constraints, ast.Load())
        return ast.Subscript(ast.Name("Union", ast.Load()), items, ast.Load())
    return ast.Name("Any", ast.Load())


def _position(node: ast.expr) -> tuple[int, int]:
    return (node.lineno, node.col_offset)


class _Substitute(ast.NodeTransformer):
    def __init__(self, replacements: Mapping[str, ast.expr]) -> None:
        self.replacements = replacements

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy.deepcopy(self.replacements.get(node.id, node))


class _PutAliases(ast.NodeTransformer):
    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.aliases = aliases

    def _parsed(self, name: str) -> ast.expr | None:
        text = self.aliases.get(name)
        if text is None:
            return None
        try:
            return python_ast.parse_expression(text)
        except SyntaxError:
            return None

    def visit_Name(self, node: ast.Name) -> ast.expr:
        tree = self._parsed(node.id)
        if tree is None:
            return node
        if isinstance(tree, ast.Call) and _type_variable(tree):
            return _type_variable_meaning(tree)
        return tree

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        """``hints.Buffer``: an alias of a project module the module imports."""
        tree = self._parsed(dotted_name(node))
        return node if tree is None else tree

    def _variables(self, tree: ast.expr) -> list[str]:
        """The type variables of an alias's text, in the order they first appear."""
        # ast.walk goes breadth first; typing orders them as they are written.
        written = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)), key=_position)
        names = [n.id for n in written]
        found = [n for n in names if (meaning := self._parsed(n)) and _type_variable(meaning)]
        return list(dict.fromkeys(found))

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        """``Alias[A, B]``: the alias's text with its type variables replaced by A, B."""
        tree = self._parsed(node.value.id) if isinstance(node.value, ast.Name) else None
        ordered = self._variables(tree) if tree is not None else []
        if tree is None or not ordered:  # ``Vector[int]`` with ``Vector = list``: kept
            visited = self.generic_visit(node)
            return visited if isinstance(visited, ast.expr) else node
        given = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(given) != len(ordered):  # not read as typing would: the alias's text alone
            return tree
        arguments = [self.visit(argument) for argument in given]
        substituted = _Substitute(dict(zip(ordered, arguments, strict=True))).visit(tree)
        return substituted if isinstance(substituted, ast.expr) else tree


def resolved_annotation(annotation: str | None, aliases: Mapping[str, str]) -> str | None:
    """The annotation with each alias replaced by what it stands for (``Key`` ->
    ``Tuple[str, ...]``); the annotation itself where nothing is replaced."""
    tree = parsed_annotation(annotation)
    if tree is None or not aliases:
        return annotation
    for _ in range(_MAX_DEPTH):
        changed = _PutAliases(aliases).visit(python_ast.parse_expression(ast.unparse(tree)))
        if not isinstance(changed, ast.expr) or ast.dump(changed) == ast.dump(tree):
            break
        tree = changed
    text = ast.unparse(tree)
    return annotation if text == annotation else text


def _takes_none(part: ast.expr) -> bool:
    if isinstance(part, ast.Constant) and isinstance(part.value, str):
        return True  # a forward reference that does not parse (union_parts reads the others)
    if isinstance(part, ast.Constant):
        return part.value is None
    if isinstance(part, ast.Call):
        return True  # ``TypeVar("T")``, ``NewType(...)``: not read here
    head = head_name(part)
    if head == "Literal" and isinstance(part, ast.Subscript):
        items = part.slice.elts if isinstance(part.slice, ast.Tuple) else [part.slice]
        return any(isinstance(i, ast.Constant) and i.value is None for i in items)
    return not head or head in _TAKES_NONE


def admits_none(annotation: str | None, default: str | None, aliases: Mapping[str, str]) -> bool:
    """Whether the parameter may be given None: no annotation, a ``None`` default, or an
    annotation (its aliases put in) one of whose alternatives takes None."""
    if default == "None":
        return True
    tree = parsed_annotation(resolved_annotation(annotation, aliases))
    return tree is None or any(_takes_none(part) for part in union_parts(tree))


def resolved_parameters(
    parameters: Sequence[Parameter], aliases: Mapping[str, str]
) -> list[Parameter]:
    """The parameters with their annotations' aliases put in, so a value derived for
    ``key: Key`` is a tuple of strings, not the None of a name nothing here knows."""
    return [replace(p, annotation=resolved_annotation(p.annotation, aliases)) for p in parameters]
