"""Instances the project builds and then fills, as its own code and doc examples do.

A class's instance is built as the project builds it when a module or an example of
its docs constructs it from literals and then gives it content through its own
methods: ``table = Texttable()``, ``table.set_cols_align(["l", "r"])``,
``table.add_rows([["Name", "Age"], ["Ann", 31]])``, or ``cache["key"] = "value"``.
:func:`built_owners` reads such sequences with :mod:`ast` from the texts that name the
class (:func:`~remora.code.values.owner_expressions.class_texts`: its Python files with
their docstrings' examples, then its Markdown, reST and text documents, a doctest
session's ``>>>`` statements read in order across a document's blocks):

- ``NAME = Cls(...)`` (or ``module.Cls(...)``) whose arguments are literals or the
  project's classes built from literals, bound to the class's parameters;
- then, in the same block of statements, each statement that names ``NAME`` and is a
  call of a public method of the class that changes its instance
  (:func:`~remora.code.values.method_state.changed_attributes`) or an item
  assignment (``NAME[key] = value``), with literal arguments. The first other
  statement naming ``NAME`` (a read, a print, another binding) ends the sequence;
  statements that do not name it are passed over.

A construction without such a call is the constructor's own usage
(:func:`~remora.code.values.project_values.project_instances`), not an instance with
content. An owner is the constructor's arguments with
:data:`~remora.code.values.filled_instances.CALLS_KEY`, the format of the instances the
filled-instance search makes: the probe builds and fills it, a test or a fixture writes
the calls after the construction. Words: ``as_built`` (the project's code),
``as_documented`` (a docstring's or a document's example). Nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import ast_tree
from remora.code.values.annotations import called_name
from remora.code.values.attribute_uses import classes_named
from remora.code.values.call_target import CallTarget, is_instance_method
from remora.code.values.call_text import arguments_from_text, value_from_text
from remora.code.values.class_lookup import project_class_lookup
from remora.code.values.derived_sets import ClassLookup
from remora.code.values.filled_instances import CALLS_KEY, ITEM_SETTER
from remora.code.values.input_search import Candidate
from remora.code.values.method_state import changed_attributes
from remora.code.values.owner_expressions import class_texts, text_sources
from remora.code.values.parameters import Parameter, parameter_of

__all__ = ["MAX_BUILT", "BuiltOwner", "built_candidates", "built_owners", "owners_in"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# (the owner's constructor arguments and calls, words for the test or fixture name)
BuiltOwner = tuple[dict[str, Any], str]

# The project's first few: each is a probe set, and a fixture or a test of its own.
MAX_BUILT = 3
# A longer sequence is a script, not an instance's set-up.
MAX_STEPS = 8


def _changing_methods(module_text: str, class_name: str) -> set[str]:
    """The public methods the class defines that change its instance."""
    cls = classes_named(python_ast.parse(module_text)).get(class_name)
    if cls is None:
        return set()
    methods = {s.name: s for s in cls.body if isinstance(s, Function)}
    return {
        name
        for name, method in methods.items()
        if not name.startswith("_") and changed_attributes(method, methods, private=True)
    }


def _constructs(node: ast.expr, class_name: str) -> ast.Call | None:
    """``node`` when it calls the class (``Cls(...)``, ``module.Cls(...)``)."""
    if not isinstance(node, ast.Call):
        return None
    return node if called_name(node) == class_name else None


def _call_text(call: ast.Call) -> str | None:
    """The call's arguments as text (``a, b=1``); None with ``*``/``**`` in it."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    parts = [ast.unparse(a) for a in call.args]
    parts += [f"{k.arg}={ast.unparse(k.value)}" for k in call.keywords]
    return ", ".join(parts)


def _step(
    statement: ast.stmt, variable: str, methods: set[str], classes: ClassLookup
) -> dict[str, Any] | None:
    """The fill a statement makes on ``variable`` (``{"method", "args", "keywords"}``), or
    None when it is none: another use, or arguments that are not literals."""
    try:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call, func = statement.value, statement.value.func
            if not (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == variable
                and func.attr in methods
                and _call_text(call) is not None
            ):
                return None
            args = [value_from_text(ast.unparse(a), classes) for a in call.args]
            keywords = {
                str(k.arg): value_from_text(ast.unparse(k.value), classes) for k in call.keywords
            }
            return {"method": func.attr, "args": args, "keywords": keywords}
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id == variable
            ):
                key = value_from_text(ast.unparse(target.slice), classes)
                value = value_from_text(ast.unparse(statement.value), classes)
                return {"method": ITEM_SETTER, "args": [key, value], "keywords": {}}
    except ValueError:
        return None  # a name, an attribute or a call of no class of the project
    return None


def _fills(
    statements: Sequence[ast.stmt], variable: str, methods: set[str], classes: ClassLookup
) -> list[dict[str, Any]]:
    """The fills made on ``variable`` by the statements after its construction."""
    steps: list[dict[str, Any]] = []
    for statement in statements:
        named = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name)}
        if variable not in named:
            continue
        step = _step(statement, variable, methods, classes)
        if step is None or len(steps) == MAX_STEPS:
            break
        steps.append(step)
    return steps


def _blocks(trees: Sequence[ast.Module]) -> list[list[ast.stmt]]:
    """The statement lists of the trees: their top-level statements read in order as one
    (a session's statements are one tree each), then every body nested in them."""
    found: list[list[ast.stmt]] = [[s for tree in trees for s in tree.body]]
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Module):
                continue
            for field in ("body", "orelse", "finalbody"):
                body = getattr(node, field, None)
                if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                    found.append(body)
    return found


def owners_in(
    trees: Sequence[ast.Module],
    class_name: str,
    methods: set[str],
    parameters: Sequence[Parameter],
    classes: ClassLookup,
) -> list[dict[str, Any]]:
    """The owners (constructor arguments and :data:`CALLS_KEY`) the trees build and fill
    (see the module's words); ``methods``: the class's public methods that change it."""
    found: list[dict[str, Any]] = []
    for block in _blocks(trees):
        for index, statement in enumerate(block):
            if not (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and (call := _constructs(statement.value, class_name)) is not None
                and (text := _call_text(call)) is not None
            ):
                continue
            try:
                args = arguments_from_text(text, parameters, classes) if text else {}
            except ValueError:
                continue  # arguments that are not literals, or not the class's
            steps = _fills(block[index + 1 :], statement.targets[0].id, methods, classes)
            owner = {**args, CALLS_KEY: steps}
            if steps and owner not in found:
                found.append(owner)
    return found


def _trees(sources: Sequence[str]) -> list[ast.Module]:
    return [tree for source in sources if (tree := ast_tree(source)) is not None]


def built_owners(
    context: CodeContext, owner: str, parameters: Sequence[Parameter], classes: ClassLookup
) -> list[BuiltOwner]:
    """The instances of ``owner`` (a class of the run's module) the project builds and
    fills, code first, then its docstrings' and documents' examples; at most
    :data:`MAX_BUILT` (kept until the run writes)."""
    class_name = owner.split(".")[-1]

    def find() -> list[BuiltOwner]:
        methods = _changing_methods(context.node_file_text(), class_name)
        found: list[BuiltOwner] = []
        seen: list[Mapping[str, Any]] = []
        for text, python in class_texts(context, class_name):
            sources = text_sources(text, python)
            groups = [(sources[:1], "as_built"), (sources[1:], "as_documented")]
            for group, words in groups if python else [(sources, "as_documented")]:
                for built in owners_in(_trees(group), class_name, methods, parameters, classes):
                    if built not in seen:
                        seen.append(built)
                        found.append((built, words))
        return found[:MAX_BUILT]

    return list(context.kept(("built owners", owner), find))


def built_candidates(
    context: CodeContext, target: CallTarget, method_args: Mapping[str, Any]
) -> list[Candidate]:
    """A reader's call on each instance of its class the project builds and fills
    (:func:`built_owners`): the state its users give it. Only for an instance method or
    property that takes no argument, whose instance is all it reads: a method that takes
    some is called on the search's filled instances with its own values, where made-up
    arguments on the project's instance only meet its guards (a row of another size)."""
    required = [p for p in target["parameters"] if parameter_of(p).required]
    if not is_instance_method(target) or required:
        return []
    parameters = [parameter_of(p) for p in target["owner_parameters"]]
    owners = built_owners(context, str(target["owner"]), parameters, project_class_lookup(context))
    return [Candidate(dict(method_args), words, owner) for owner, words in owners]
