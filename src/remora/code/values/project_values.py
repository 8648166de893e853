"""Values the project itself offers for a node's parameters.

:func:`project_calls`: the argument texts of the project's own literal calls of
the node (and :mod:`.project_literals` a literal it passes for one parameter where the
others are computed). :func:`named_defaults`: a default written as a constant's name
(``spec: str = CSS3``) is that constant's value, from the module or a project
module it imports from, where the derived typical value would be a made-up
string the code rejects. :func:`table_values`: strings worth trying for a
parameter the code looks up in a table.

``color_map.get(name.lower())`` takes one branch for a name the table holds and
another for one it does not; a derived ``"sample name"`` reaches only the
second. The tables such code reads are most often dict literals at module level,
in the node's module or in a project module it imports from
(``from ._definitions import ...``). :func:`table_values` gives, for each
parameter that appears inside a lookup (``.get(...)``'s key, a subscript, the
left side of ``in``), the first keys and values of those dicts. Everything is
read with :mod:`ast`; nothing of the project runs here.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Mapping
from typing import Any

from remora.code.context import CodeContext
from remora.code.parsing import ast_tree, located_definition
from remora.code.values.attribute_uses import (
    attribute_parameters,
    fitted_values,
    stored_kinds,
)
from remora.code.values.call_sites import call_site_arguments
from remora.code.values.call_target import CallTarget
from remora.code.values.call_text import arguments_from_text
from remora.code.values.class_lookup import project_class_lookup
from remora.code.values.derived_sets import (
    ClassLookup,
    argument_sets,
    literal_default,
    sample_value,
)
from remora.code.values.distinct_numbers import distinct_numbers
from remora.code.values.forwarded_defaults import forwarded_defaults
from remora.code.values.imported_modules import imported_modules, project_reader
from remora.code.values.input_sources import module_constants
from remora.code.values.method_state import first_parameter, is_self_attribute
from remora.code.values.parameters import CallParameter, Parameter, parameter_names, parameter_of
from remora.code.values.placeholders import none_for_made_up
from remora.code.values.sibling_defaults import sibling_defaults
from remora.code.values.sourced_strings import examples, project_documents
from remora.code.values.value_words import label
from remora.sandbox import search

__all__ = [
    "looked_up_parameters",
    "named_defaults",
    "near_miss",
    "owner_arguments",
    "project_built",
    "project_calls",
    "project_instances",
    "python_files",
    "table_strings",
    "table_values",
]

MAX_PROJECT_FILES = 200

# Of each dict, the first few keys and values: each one costs a call in the probe.
_PER_TABLE = 2
_MAX_STRINGS = 6


def looked_up_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Parameters that appear in a lookup's key: ``t.get(p...)``, ``t[p...]``, ``p in t``."""
    params = parameter_names(function)
    keys: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "get" and node.args:
                keys.append(node.args[0])
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            keys.append(node.slice)
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            keys.append(node.left)
    return {
        name.id
        for key in keys
        for name in ast.walk(key)
        if isinstance(name, ast.Name) and name.id in params
    }


def _dict_strings(module: ast.Module) -> list[str]:
    found: list[str] = []
    for statement in module.body:
        value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
        if not isinstance(value, ast.Dict):
            continue
        pairs = [(k, v) for k, v in zip(value.keys, value.values, strict=True) if k is not None]
        for key, item in pairs[:_PER_TABLE]:
            found += [
                node.value
                for node in (key, item)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            ]
    return found


def table_strings(
    module: ast.Module, file_path: str, read: Callable[[str], str | None]
) -> list[str]:
    """The first keys and values of the module's dict literals, then of those of the
    project modules it imports from (``read`` gives a project file's text, or None)."""
    found = _dict_strings(module)
    for imported in imported_modules(module, file_path, read):
        found += _dict_strings(imported)
    return list(dict.fromkeys(found))[:_MAX_STRINGS]


def table_values(
    context: CodeContext,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    module: ast.Module,
    kinds: Mapping[str, str],
) -> list[tuple[str, str, str]]:
    """``(parameter, string, words)`` for each parameter of the run's node looked up in a
    table that is a string or of no known kind (``kinds``)."""
    looked_up = looked_up_parameters(function)
    names = sorted(n for n in looked_up if kinds.get(n, "str") == "str")

    file_path = context.bound_node().file_path
    strings = table_strings(module, file_path, project_reader(context)) if names else []
    found = [(name, text, f"{name}_is_{label(text)}") for name in names for text in strings]
    misses = [m for text in strings[:_PER_TABLE] if (m := near_miss(text)) not in strings]
    return found + [(n, m, f"{n}_is_{label(m)}_not_in_the_table") for n in names for m in misses]


def near_miss(text: str) -> str:
    """``text`` with its last letter or digit changed, in kind: a string of the same shape
    as a table's entry that the table does not hold (``#00ffff`` -> ``#00fffe``)."""
    for index in range(len(text) - 1, -1, -1):
        char = text[index]
        if char.isdigit():
            return text[:index] + str((int(char) + 1) % 10) + text[index + 1 :]
        if char.isascii() and char.isalpha():
            other = "e" if char.lower() != "e" else "d"
            other = other.upper() if char.isupper() else other
            return text[:index] + other + text[index + 1 :]
    return text + "x"


@functools.lru_cache(maxsize=512)
def _calls_in(text: str, name: str) -> tuple[str, ...]:
    return tuple(call_site_arguments(text, name))


@functools.lru_cache(maxsize=512)
def _example_calls_in(text: str, name: str, python: bool) -> tuple[str, ...]:
    """The calls of ``name`` in a text's examples: a Python file's docstrings' ``>>>`` lines,
    a document's ``>>>`` lines and fenced Python blocks."""
    docs = [text]
    if python:
        tree = ast_tree(text)
        docs = [] if tree is None else [d for n in ast.walk(tree) if (d := _docstring(n))]
    found: list[str] = []
    for doc in docs:  # a doc's examples as one session: `>>> a = [...]`, then `>>> f(a)`
        session = "\n".join(source for source in examples(doc) if ast_tree(source) is not None)
        found += [t for t in call_site_arguments(session, name) if t not in found]
    return tuple(found)


def _docstring(node: ast.AST) -> str:
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        text = ast.get_docstring(node) or ""
        return text if ">>>" in text else ""
    return ""


def python_files(context: CodeContext) -> list[str]:
    """The project's Python files outside hidden folders, the first ``MAX_PROJECT_FILES``."""
    paths = [p for p in search.search_files(context.workspace, "**/*.py") if "/." not in f"/{p}"]
    return paths[:MAX_PROJECT_FILES]


@functools.lru_cache(maxsize=64)
def _aliases(text: str, name: str) -> tuple[str, ...]:
    """The names the module binds to ``name`` itself at its top level (``shift = shift_ascii``):
    the project's calls of those are calls of it (its README's ``shift("é")``)."""
    tree = ast_tree(text)
    return tuple(
        target.id
        for stmt in (tree.body if tree is not None else [])
        if isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Name)
        and stmt.value.id == name
        for target in stmt.targets
        if isinstance(target, ast.Name)
    )


def project_calls(context: CodeContext, name: str) -> list[str]:
    """Argument texts of the project's own literal calls of ``name``, or of a name the node's
    module binds to it: its code and tests, their docstrings' examples, and the examples of
    its docs (Markdown, reST, text)."""
    sources = [context.read_text(path) for path in python_files(context)]  # read once
    documents = project_documents(context)
    found: list[str] = []
    for called in (name, *_aliases(context.node_file_text(), name)):
        for text in sources:
            if called in text:  # a cheap filter before parsing
                found += [t for t in _calls_in(text, called) if t not in found]
                found += [t for t in _example_calls_in(text, called, True) if t not in found]
        for text in documents:
            if called in text:
                found += [t for t in _example_calls_in(text, called, False) if t not in found]
    return found


def named_defaults(
    context: CodeContext, module: ast.Module, parameters: list[CallParameter]
) -> dict[str, Any]:
    """``{parameter: value}`` for each default that names a constant of the module or of
    a project module it imports from (``parameters``: rows with ``name`` and ``default``)."""
    named = {
        str(p["name"]): str(p["default"])
        for p in parameters
        if str(p.get("default")).isidentifier()
    }
    if not named:
        return {}
    constants = module_constants(module)
    file_path = context.bound_node().file_path
    for imported in imported_modules(module, file_path, project_reader(context)):
        if not set(named.values()) - set(constants):
            break  # every named default is known
        constants = {**module_constants(imported), **constants}
    return {
        name: constants[default]
        for name, default in named.items()
        if default in constants and isinstance(constants[default], str | int | float | bool)
    }


def project_instances(
    context: CodeContext, class_name: str, parameters: list[Parameter], classes: ClassLookup
) -> list[dict[str, Any]]:
    """The constructor arguments of ``class_name`` as the project's own code, tests and
    docs build it (:func:`project_calls` of the class, each bound to ``parameters``)."""
    found: list[dict[str, Any]] = []
    for text in project_calls(context, class_name.split(".")[-1]):
        try:
            args = arguments_from_text(text, parameters, classes)
        except ValueError:
            continue  # a call of another class of that name, or arguments it does not take
        if args not in found:
            found.append(args)
    return found


def project_built(
    context: CodeContext, args: dict[str, Any], classes: ClassLookup
) -> dict[str, Any]:
    """``args`` with each instance of a class derived from its constructor's parameters
    built as the project first builds it instead (:func:`project_instances`): a merger
    from the strategies the package configures, not from made-up strategy names."""
    built = dict(args)
    for name, value in args.items():
        if isinstance(value, dict) and set(value) == {"__class__", "args"}:
            class_name = str(value["__class__"])
            params = classes(class_name)
            if params is not None and (
                found := project_instances(context, class_name, list(params), classes)
            ):
                built[name] = {**value, "args": found[0]}
    return built


def _read_attributes(context: CodeContext) -> set[str]:
    """The attributes of its instance the run's method reads or changes."""
    node = context.bound_node()
    method = located_definition(context.node_file_text(), node.full_name, node.start_line)
    if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    self_name = first_parameter(method) or "self"
    return {
        n.attr
        for n in ast.walk(method)
        if isinstance(n, ast.Attribute) and is_self_attribute(n, self_name)
    }


def owner_arguments(context: CodeContext, target: CallTarget) -> dict[str, Any]:
    """The arguments a method's instance is built with, as the project builds it: its own
    first literal construction (code, tests, docs; its whole numbers made distinct where
    they are all one value), else the derived defaults, where a number the method reads
    is not left at a zero default (an empty stock is the set-up's edge, not the method's
    typical case: its boundaries are tried apart), a parameter stored as an attribute the
    class uses as a mapping or calls is one
    (:func:`~remora.code.values.attribute_uses.stored_kinds`), not a made-up string, a
    required one takes the default the module gives that name elsewhere
    (:func:`~remora.code.values.sibling_defaults.sibling_defaults`) or the base class
    gives the parameter it is handed on to
    (:func:`~remora.code.values.forwarded_defaults.forwarded_defaults`); nor is one
    annotated to take None (:func:`~remora.code.values.derived_sets.none_for_made_up`)."""
    params = [parameter_of(p) for p in target["owner_parameters"]]
    lookup = project_class_lookup(context)
    if target["owner"] and (built := project_instances(context, target["owner"], params, lookup)):
        return distinct_numbers(built[0])
    sets = argument_sets(params, lookup, 1)
    args: dict[str, Any] = dict(sets[0]["args"]) if sets else {}
    for param in params:  # ``dict_constructor=_dict``: its own default, not ``str`` for it
        if param.default is not None and not literal_default(param.default)[0]:
            args.pop(param.name, None)
    text = context.node_file_text()
    if target["owner"] and (tree := ast_tree(text)) is not None:
        # ``Figlet(width=80)`` beside ``FigletBuilder(width)``: 80; ``Jaccard(k)`` handing
        # k to ``ShingleBased(k=3)``: 3
        given = sibling_defaults(tree, params)
        given.update(forwarded_defaults(text, target["owner"], params, lookup))
        args.update({name: value for name, value in given.items() if name in args})
    args = none_for_made_up(args, params)
    if target["kind"] != "method" or not args:
        return args
    args = fitted_values(args, stored_kinds(text, target["owner"], params))  # a mapping: a dict
    attributes = attribute_parameters(text, target["owner"], params)
    for attribute in _read_attributes(context) & set(attributes):
        parameter = attributes[attribute]
        known, default = literal_default(parameter.default)
        if known and default == 0 and not isinstance(default, bool) and parameter.name in args:
            kind = type(default).__name__
            args[parameter.name] = sample_value(
                parameter.name, parameter.annotation or kind, 1, lookup
            )
    return args
