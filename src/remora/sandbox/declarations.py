"""Read a ``.pym`` script's declarations with ``ast`` and blank their lines.

``from remora.pym import Input, external``, every ``name: T = Input(...)`` and
every ``@external`` function are host-side declarations: they are collected
here and replaced by empty lines, so the code Monty runs has the same line
numbers as the file the author wrote.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from remora import python_ast
from remora.pym import CONSTRAINTS
from remora.sandbox.input_schema import UnsupportedAnnotation, annotation_schema
from remora.sandbox.signatures import ExternalSpec

__all__ = ["Declarations", "ExternalDecl", "Finding", "HostModuleStubs", "PymInput", "scan"]

_PYM_MODULE = "remora.pym"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in a script: ``file:line rule message``."""

    file: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} {self.rule} {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "rule": self.rule, "message": self.message}


@dataclass(frozen=True, slots=True)
class HostModuleStubs:
    """A host module scripts may import (``import remora_code``): its name and ``.pyi`` text.

    The caller that provides the module at run time names it when a script is
    loaded, so the checker type-checks calls into it; the sandbox itself knows
    no host module.
    """

    name: str
    stubs: str


@dataclass(frozen=True, slots=True)
class PymInput:
    name: str
    annotation: str
    json_schema: dict[str, Any]
    required: bool
    default: Any
    description: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class ExternalDecl:
    name: str
    is_async: bool
    params: tuple[str, ...]
    stub: str
    line: int


@dataclass
class Declarations:
    code: str
    inputs: list[PymInput] = field(default_factory=list)
    externals: list[ExternalDecl] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    parsed: bool = True


def _parse(source: str, file: str) -> ast.Module:
    # Tool scripts await externals at the top level.
    return python_ast.parse(source, file, top_level_await=True)


class _Scanner:
    def __init__(self, source: str, file: str, known: Mapping[str, ExternalSpec | None]) -> None:
        self.source = source
        self.file = file
        self.known = known
        self.out = Declarations(code=source)
        self.input_names: set[str] = set()
        self.external_names: set[str] = set()
        self.blank: list[tuple[int, int]] = []

    def finding(self, node: ast.AST | int, rule: str, message: str) -> None:
        line = node if isinstance(node, int) else getattr(node, "lineno", 1)
        self.out.findings.append(Finding(self.file, line, rule, message))

    # -- imports ------------------------------------------------------------

    def imports(self, tree: ast.Module) -> None:
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == _PYM_MODULE and not node.level:
                for alias in node.names:
                    if alias.name == "Input":
                        self.input_names.add(alias.asname or alias.name)
                    elif alias.name == "external":
                        self.external_names.add(alias.asname or alias.name)
                    else:
                        self.finding(
                            node,
                            "pym-import",
                            f"remora.pym has no {alias.name!r} "
                            "for scripts; import Input and external only",
                        )
                self.blank.append((node.lineno, node.end_lineno or node.lineno))
        for item in ast.walk(tree):
            modules: list[str] = []
            if isinstance(item, ast.Import):
                modules = [alias.name for alias in item.names]
            elif isinstance(item, ast.ImportFrom) and not item.level and item.module:
                if item.module == _PYM_MODULE and item in tree.body:
                    continue
                modules = [item.module]
            for module in modules:
                if module == "remora" or module.startswith("remora."):
                    self.finding(
                        item,
                        "pym-import",
                        f"cannot import {module!r} in a tool "
                        "script; write `from remora.pym import Input, external` at "
                        "the top level",
                    )

    # -- inputs -------------------------------------------------------------

    def _is_input_call(self, node: ast.AST | None) -> bool:
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        return (isinstance(func, ast.Name) and func.id in self.input_names) or (
            isinstance(func, ast.Attribute)
            and func.attr == "Input"
            and isinstance(func.value, ast.Name)
            and func.value.id == "pym"
        )

    def _is_external_decorator(self, node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id in self.external_names) or (
            isinstance(node, ast.Attribute) and node.attr == "external"
        )

    def input(self, node: ast.AnnAssign) -> None:
        call = node.value
        assert isinstance(call, ast.Call) and isinstance(node.target, ast.Name)
        name = node.target.id
        self.blank.append((node.lineno, node.end_lineno or node.lineno))
        given: ast.expr | None = call.args[0] if call.args else None
        if len(call.args) > 1:
            self.finding(
                node, "pym-input", f"Input {name!r}: pass default= and description= by keyword"
            )
        default: Any = None
        required = True
        description = ""
        constraints: dict[str, int | float] = {}
        for kw in call.keywords:
            if kw.arg == "name":
                given = kw.value
            elif kw.arg == "default":
                try:
                    default = python_ast.literal_eval(kw.value)
                    required = False
                except ValueError:
                    self.finding(
                        kw.value,
                        "pym-input",
                        f"Input {name!r}: default must be a "
                        "literal (a number, string, list, dict, True/False/None)",
                    )
            elif kw.arg == "description":
                if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    description = kw.value.value
                else:
                    self.finding(
                        kw.value,
                        "pym-input",
                        f"Input {name!r}: description must be a string literal",
                    )
            elif kw.arg in CONSTRAINTS:
                value = kw.value.value if isinstance(kw.value, ast.Constant) else None
                if isinstance(value, int | float) and not isinstance(value, bool):
                    constraints[CONSTRAINTS[kw.arg]] = value
                else:
                    self.finding(
                        kw.value, "pym-input", f"Input {name!r}: {kw.arg} must be a number literal"
                    )
            else:
                known = ", ".join(["name", "default", "description", *CONSTRAINTS])
                self.finding(
                    node,
                    "pym-input",
                    f"Input {name!r}: unknown argument {kw.arg!r} (known: {known})",
                )
        if given is not None and not (isinstance(given, ast.Constant) and given.value == name):
            self.finding(
                node,
                "pym-input",
                f"Input name {ast.unparse(given)} must equal "
                f"the variable it is assigned to ({name!r})",
            )
        if name in {i.name for i in self.out.inputs}:
            self.finding(node, "pym-input", f"input {name!r} is declared twice")
            return
        try:
            schema = {**annotation_schema(node.annotation), **constraints}
        except UnsupportedAnnotation as exc:
            self.finding(node.annotation, "pym-input", f"Input {name!r}: {exc}")
            return
        if not required:
            try:
                jsonschema.validate(default, schema)
            except jsonschema.ValidationError as exc:
                self.finding(
                    node,
                    "pym-input",
                    f"Input {name!r}: default {default!r} does not "
                    f"match {ast.unparse(node.annotation)}: {exc.message}",
                )
        self.out.inputs.append(
            PymInput(
                name=name,
                annotation=ast.unparse(node.annotation),
                json_schema=schema,
                required=required,
                default=default,
                description=description,
                line=node.lineno,
            )
        )

    # -- externals ----------------------------------------------------------

    def external(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        self.blank.append((start, node.end_lineno or node.lineno))
        name = node.name
        others = [d for d in node.decorator_list if not self._is_external_decorator(d)]
        if others:
            self.finding(
                others[0], "pym-external", f"external {name!r}: @external takes no other decorators"
            )
        for stmt in node.body:
            if not (
                isinstance(stmt, ast.Pass)
                or (
                    isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Constant)
                    and (stmt.value.value is Ellipsis or isinstance(stmt.value.value, str))
                )
            ):
                self.finding(
                    stmt,
                    "pym-external",
                    f"external {name!r}: the body must be `...`; the host implements it",
                )
                break
        args = node.args
        if args.vararg or args.kwarg:
            self.finding(node, "pym-external", f"external {name!r}: no *args or **kwargs")
        params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
        is_async = isinstance(node, ast.AsyncFunctionDef)
        if name in self.known:
            spec = self.known[name]
            if spec is not None:
                self._check_against(node, spec, params, is_async)
        else:
            offered = ", ".join(sorted(self.known))
            self.finding(
                node, "pym-external", f"unknown external {name!r}; the host offers: {offered}"
            )
        if name in {e.name for e in self.out.externals}:
            self.finding(node, "pym-external", f"external {name!r} is declared twice")
            return
        stub_node = copy.copy(node)
        stub_node.decorator_list = []
        stub_node.body = [ast.Expr(ast.Constant(...))]
        stub = ast.unparse(ast.fix_missing_locations(stub_node))
        self.out.externals.append(ExternalDecl(name, is_async, params, stub, node.lineno))

    def _check_against(
        self, node: ast.AST, spec: ExternalSpec, params: tuple[str, ...], is_async: bool
    ) -> None:
        expected = ", ".join(spec.params)
        if params != spec.params[: len(params)] or len(params) < spec.required:
            self.finding(
                node,
                "pym-external",
                f"external {spec.name!r} takes ({expected}), "
                f"declared ({', '.join(params)}); declare it as: {spec.stub}",
            )
        if spec.must_await and not is_async:
            self.finding(
                node,
                "pym-external",
                f"external {spec.name!r} must be declared "
                "`async def` and awaited: the host runs it without blocking",
            )

    # -- the whole module -----------------------------------------------------

    def run(self, tree: ast.Module) -> Declarations:
        self.imports(tree)
        declared: set[int] = set()
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and self._is_input_call(node.value):
                if isinstance(node.target, ast.Name):
                    self.input(node)
                    declared.add(id(node))
                else:
                    self.finding(node, "pym-input", "assign Input(...) to a plain name")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                self._is_external_decorator(d) for d in node.decorator_list
            ):
                self.external(node)
                declared.add(id(node))
            elif isinstance(node, ast.ImportFrom) and node.module == _PYM_MODULE:
                declared.add(id(node))
            elif isinstance(node, ast.Assign) and self._is_input_call(node.value):
                self.finding(
                    node,
                    "pym-input",
                    "annotate the input so it gets a schema: `name: str = Input(...)`",
                )
        for item in ast.walk(tree):
            if id(item) in declared:
                continue
            if self._is_input_call(item) and not any(
                isinstance(top, ast.AnnAssign | ast.Assign) and top.value is item
                for top in tree.body
            ):
                self.finding(
                    item,
                    "pym-input",
                    "Input(...) belongs at the top level: `name: str = Input(...)`",
                )
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                self._is_external_decorator(d) for d in item.decorator_list
            ):
                self.finding(
                    item,
                    "pym-external",
                    f"external {item.name!r} must be declared at the top level",
                )
        self._check_shared_lines(tree, declared)
        clash = {i.name for i in self.out.inputs} & {e.name for e in self.out.externals}
        for name in sorted(clash):
            self.finding(1, "pym-input", f"{name!r} is both an input and an external")
        self.out.code = self._blanked()
        return self.out

    def _check_shared_lines(self, tree: ast.Module, declared: set[int]) -> None:
        ranges = self.blank
        for node in tree.body:
            if id(node) in declared:
                continue
            start, end = node.lineno, node.end_lineno or node.lineno
            for lo, hi in ranges:
                if start <= hi and lo <= end:
                    self.finding(
                        node,
                        "pym-declaration",
                        "put each declaration on lines of "
                        "its own (no `;` sharing a line with other code)",
                    )
                    break

    def _blanked(self) -> str:
        lines = self.source.split("\n")
        for lo, hi in self.blank:
            for index in range(lo - 1, min(hi, len(lines))):
                lines[index] = ""
        return "\n".join(lines)


def scan(source: str, file: str, known: Mapping[str, ExternalSpec | None]) -> Declarations:
    """Collect inputs and externals, report declaration problems, blank the declarations.

    ``known`` maps the external names the host offers to their spec (None: no
    signature to check against).
    """
    try:
        tree = _parse(source, file)
    except SyntaxError as exc:
        out = Declarations(code=source, parsed=False)
        out.findings.append(Finding(file, exc.lineno or 1, "pym-syntax", exc.msg))
        return out
    return _Scanner(source, file, known).run(tree)
