"""Checks on one change an agent left, from the files' text before and after.

Reusable for any change on any project: ``check_change`` applies the checks of
an operation and returns the problems found (empty when the change is correct
by every check that needs no judgement). Python is read with ``ast``, docstring
sections with ``docstring_parser``, lint findings and fixes come from ruff.
"""

from __future__ import annotations

import ast
import copy
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import docstring_parser

from competence_lib.real_signature import class_parameters

DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_STYLES = {
    "google": docstring_parser.DocstringStyle.GOOGLE,
    "numpy": docstring_parser.DocstringStyle.NUMPYDOC,
    "sphinx": docstring_parser.DocstringStyle.REST,
}
# ruff repeats its fixes until none applies; it gives up after 100 passes.
_MAX_FIX_PASSES = 100


@dataclass(frozen=True, slots=True)
class Definition:
    """A function or class of a module, by qualified name (``Class.method``)."""

    qualname: str
    node: DefNode
    in_class: bool
    # How many times the module defines this name (property setters repeat it).
    count: int = 1

    @property
    def first_line(self) -> int:
        """1-based first line, decorators included."""
        return min([d.lineno for d in self.node.decorator_list] + [self.node.lineno])

    @property
    def last_line(self) -> int:
        return int(self.node.end_lineno or self.node.lineno)


def definitions(tree: ast.Module) -> dict[str, Definition]:
    """Every function and class of ``tree``; the first of a repeated name is kept."""
    found: dict[str, Definition] = {}

    def visit(parent: ast.AST, prefix: str, in_class: bool) -> None:
        for child in ast.iter_child_nodes(parent):
            if isinstance(child, _DEF_TYPES):
                name = prefix + child.name
                old = found.get(name)
                if old is None:
                    found[name] = Definition(name, child, in_class)
                else:
                    found[name] = Definition(name, old.node, old.in_class, old.count + 1)
                visit(child, name + ".", isinstance(child, ast.ClassDef))
            elif isinstance(child, ast.stmt):
                visit(child, prefix, in_class)

    visit(tree, "", False)
    return found


def find_definition(text: str, qualname: str) -> Definition:
    found = definitions(ast.parse(text)).get(qualname)
    if found is None:
        raise KeyError(f"no function or class {qualname!r} in the module")
    return found


def docstring_stmt(node: DefNode | ast.Module) -> ast.Expr | None:
    """The string statement that opens ``node``'s body (its docstring), or None."""
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first
    return None


def _without_docstring(tree: ast.Module, qualname: str) -> ast.Module:
    """A copy of ``tree`` whose definition ``qualname`` has no docstring."""
    clone = copy.deepcopy(tree)
    target = definitions(clone)[qualname].node
    if docstring_stmt(target) is not None:
        target.body = target.body[1:] or [ast.Pass()]
    return clone


def strip_docstring(text: str, qualname: str) -> str:
    """``text`` without the docstring of ``qualname``; every other byte kept.

    Raises ValueError when the docstring does not stand alone on its lines or is
    the whole body (removing it would change or break other code).
    """
    tree = ast.parse(text)
    target = definitions(tree)[qualname].node
    stmt = docstring_stmt(target)
    if stmt is None:
        raise ValueError(f"{qualname} has no docstring")
    if len(target.body) < 2 or target.body[1].lineno <= int(stmt.end_lineno or 0):
        raise ValueError(f"{qualname}: the docstring is the whole body or shares a line")
    lines = text.splitlines(keepends=True)
    first, last = stmt.lineno, int(stmt.end_lineno or stmt.lineno)
    before = lines[first - 1].encode()[: stmt.col_offset]
    after = lines[last - 1].encode()[int(stmt.end_col_offset or 0) :].decode().strip()
    if before.strip() or (after and not after.startswith("#")):
        raise ValueError(f"{qualname}: the docstring shares its lines with other code")
    stripped = "".join(lines[: first - 1] + lines[last:])
    if ast.dump(ast.parse(stripped)) != ast.dump(_without_docstring(tree, qualname)):
        raise RuntimeError(f"removing the docstring of {qualname} changed other code")
    return stripped


def summary_line(doc: str | None) -> str:
    """The first non-blank line of a docstring, stripped ('' when there is none)."""
    for line in (doc or "").strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def signature_names(definition: Definition) -> list[str]:
    """The parameters a function's or method's docstring names, in declaration order.

    ``self``/``cls`` of a method are left out (``inspect.signature`` of a bound
    method does the same); positional-only parameters are named like the others;
    ``*args`` and ``**kwargs`` keep their stars, as the Google style guide
    (section 3.8.3: "listed as ``*foo`` and ``**bar``") and numpydoc's
    Parameters section write them. A class has no signature of its own: its
    docstring documents the constructor (``real_signature.class_parameters``).
    """
    node = definition.node
    if isinstance(node, ast.ClassDef):
        raise TypeError(f"{definition.qualname} is a class: use real_signature.class_parameters")
    args = node.args
    positional = [a.arg for a in [*args.posonlyargs, *args.args]]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    if definition.in_class and not static and positional:
        positional = positional[1:]
    names = positional + ([f"*{args.vararg.arg}"] if args.vararg else [])
    names += [a.arg for a in args.kwonlyargs] + ([f"**{args.kwarg.arg}"] if args.kwarg else [])
    return names


def documented_names(doc: str, style: str) -> list[str]:
    """Parameter names of the docstring's parameter section, as written (stars kept).

    numpydoc lets parameters that share a type and text share one entry
    (``x1, x2 : array_like``): such an entry counts for each name. In reST a
    bare ``*`` opens emphasis, so Sphinx docstrings often escape the stars
    (``:param \\*args:``, as Napoleon writes them); the escape is not part of
    the name.
    """
    parsed = docstring_parser.parse(doc, _STYLES[style])
    names: list[str] = []
    for param in parsed.params:
        entry = param.arg_name.replace("\\*", "*") if style == "sphinx" else param.arg_name
        names += [name.strip() for name in entry.split(",") if name.strip()]
    return names


def expected_names(
    found: Definition, project: Path | None, rel_path: str | None
) -> tuple[list[str] | None, str]:
    """What the parameter section must name, or (None, why it cannot be judged)."""
    if not isinstance(found.node, ast.ClassDef):
        return signature_names(found), ""
    if project is None or rel_path is None:
        return None, "a class's constructor needs the project to import it"
    constructor = class_parameters(project, rel_path, found.qualname)
    return constructor.names, constructor.reason


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a change: ``kind`` is for counting, ``message`` for reading."""

    kind: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(slots=True)
class DocstringCheck:
    """What a docstring change left on one definition."""

    parses: bool
    summary: str = ""
    code_unchanged: bool = False
    params_match: bool = False
    # Why the parameter section could not be judged ('' when it was): a class
    # whose module does not import. Not counted as a wrong section.
    params_unjudged: str = ""
    problems: list[Problem] = field(default_factory=list)


def check_docstring(
    before: str,
    after: str,
    qualname: str,
    style: str,
    *,
    project: Path | None = None,
    rel_path: str | None = None,
) -> DocstringCheck:
    """The file parses, nothing but the docstring of ``qualname`` changed, sections are exact.

    A function's or method's section is judged against its signature (``ast``);
    a class's against its constructor as ``inspect.signature`` sees it after
    importing ``rel_path`` from ``project`` (the copy before the change).
    """
    try:
        after_tree = ast.parse(after)
    except SyntaxError as exc:
        message = f"does not parse: line {exc.lineno}: {exc.msg}"
        return DocstringCheck(False, problems=[Problem("does not parse", message)])
    found = definitions(after_tree).get(qualname)
    if found is None:
        return DocstringCheck(True, problems=[Problem("node gone", f"{qualname} is gone")])
    doc = ast.get_docstring(found.node, clean=True)
    result = DocstringCheck(True, summary=summary_line(doc))
    result.code_unchanged = ast.dump(_without_docstring(after_tree, qualname)) == ast.dump(
        _without_docstring(ast.parse(before), qualname)
    )
    if not result.code_unchanged:
        result.problems.append(Problem("code changed", "code outside the docstring changed"))
    if doc is None:
        result.problems.append(Problem("no docstring", "no docstring"))
        return result
    expected, unjudged = expected_names(found, project, rel_path)
    try:
        written = documented_names(doc, style)
    except docstring_parser.ParseError as exc:
        message = f"the docstring is not valid {style} style: {exc}"
        result.problems.append(Problem("style unparseable", message))
        return result
    if expected is None:
        result.params_unjudged = unjudged
        return result
    result.params_match = sorted(written) == sorted(expected)
    # A section left out says nothing wrong (the agents' contract: exact, or left out
    # when only bare names could be written); it counts against params_match only.
    if not result.params_match and written:
        where = "the constructor" if isinstance(found.node, ast.ClassDef) else "the signature"
        message = f"parameter section names {written}, {where} has {expected}"
        result.problems.append(Problem("parameters differ", message))
    return result


# -- lint: ruff's own safe fix -------------------------------------------------


def ruff_executable() -> str:
    """The ruff beside this interpreter (as Remora's tools use it), else the one on PATH."""
    beside = Path(sys.executable).with_name("ruff")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("ruff")
    if found is None:
        raise FileNotFoundError("ruff is not installed: pip install ruff")
    return found


def ruff_diagnostics(text: str, rel_path: str, project: Path) -> list[dict[str, Any]]:
    """ruff's JSON findings for ``text`` as the file ``rel_path`` of ``project`` (its config)."""
    argv = [ruff_executable(), "check", "--output-format=json", "--no-fix", "--no-cache"]
    argv += ["--exit-zero", "--stdin-filename", rel_path, "-"]
    run = subprocess.run(argv, input=text, cwd=project, capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError(f"ruff failed on {rel_path}: {run.stderr.strip()[:400]}")
    found: list[dict[str, Any]] = json.loads(run.stdout or "[]")
    return found


def own_rows(text: str, qualname: str | None) -> list[tuple[int, int]]:
    """1-based row ranges of a definition (the module when None) outside nested definitions."""
    defs = definitions(ast.parse(text))
    if qualname is None:
        outer, inner = (1, max(1, len(text.splitlines()))), list(defs.values())
    else:
        target = defs[qualname]
        outer = (target.first_line, target.last_line)
        inner = [d for name, d in defs.items() if name.startswith(qualname + ".")]
    ranges: list[tuple[int, int]] = []
    cursor = outer[0]
    for start, end in sorted((d.first_line, d.last_line) for d in inner):
        if start > cursor:
            ranges.append((cursor, start - 1))
        cursor = max(cursor, end + 1)
    if cursor <= outer[1]:
        ranges.append((cursor, outer[1]))
    return ranges


def safe_fixes_on(text: str, rel_path: str, project: Path, qualname: str | None) -> list[Any]:
    """The safe-fixable findings on the definition's own rows."""
    rows = own_rows(text, qualname)
    return [
        d
        for d in ruff_diagnostics(text, rel_path, project)
        if (d.get("fix") or {}).get("applicability") == "safe"
        and (d["fix"].get("edits") or [])
        and any(lo <= int(d["location"]["row"]) <= hi for lo, hi in rows)
    ]


def findings_on(text: str, rel_path: str, project: Path, qualname: str | None) -> list[str]:
    """The codes of every finding on the definition's own rows, safe fix or not."""
    rows = own_rows(text, qualname)
    return sorted(
        str(d.get("code"))
        for d in ruff_diagnostics(text, rel_path, project)
        if any(lo <= int(d["location"]["row"]) <= hi for lo, hi in rows)
    )


def _offset(starts: list[int], where: Mapping[str, int]) -> int:
    return starts[int(where["row"]) - 1] + int(where["column"]) - 1


def apply_edits(text: str, findings: list[Any]) -> str:
    """Apply the fixes as ruff does: in order; a fix overlapping an earlier one waits a pass."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    planned: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    fixes = [
        sorted(
            (_offset(starts, e["location"]), _offset(starts, e["end_location"]), e["content"] or "")
            for e in f["fix"]["edits"]
        )
        for f in findings
    ]
    for edits in sorted(fixes):
        if any(s < end and start < e for s, e, _ in edits for start, end in taken):
            continue
        if any(s == e and start <= s <= end for s, e, _ in edits for start, end in taken):
            continue
        planned.extend(edits)
        taken.extend((s, e) for s, e, _ in edits)
    for start, end, content in sorted(planned, reverse=True):
        text = text[:start] + content + text[end:]
    return text


def ruff_safe_fix(text: str, rel_path: str, project: Path, qualname: str | None) -> str:
    """``text`` after ruff's safe fixes for the findings on the definition's own rows."""
    for _ in range(_MAX_FIX_PASSES):
        findings = safe_fixes_on(text, rel_path, project, qualname)
        if not findings:
            return text
        fixed = apply_edits(text, findings)
        if fixed == text:
            return text
        text = fixed
    return text


# -- every change ---------------------------------------------------------------


def allowed_path(operation: str, path: str, node_file: str) -> bool:
    """Whether ``operation`` may write ``path`` at all."""
    name = PurePosixPath(path).name
    if operation in ("docstring", "lint"):
        return path == node_file
    if operation == "test":
        return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    if operation == "sample_data":  # fixtures in a conftest, the tests reading them, the export
        tests = name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")
        exported = name.endswith(".json") and "fixtures" in PurePosixPath(path).parts
        return (name.endswith(".py") and tests) or exported
    return True


def check_change(
    operation: str,
    node_file: str,
    qualname: str | None,
    changes: Mapping[str, tuple[str | None, str | None]],
    *,
    project: Path,
    style: str = "google",
) -> list[Problem]:
    """Problems of one change: ``changes`` maps each changed path to (before, after) text."""
    problems: list[Problem] = []
    for path, (before, after) in sorted(changes.items()):
        if not allowed_path(operation, path, node_file):
            problems.append(Problem("file not allowed", f"{path}: {operation} may not change it"))
        if after is None:
            problems.append(Problem("file deleted", f"{path}: deleted"))
            continue
        if path.endswith(".py"):
            try:
                ast.parse(after)
            except SyntaxError as exc:
                message = f"{path}:{exc.lineno}: does not parse: {exc.msg}"
                problems.append(Problem("does not parse", message))
                continue
        if path.endswith(".json"):
            try:
                json.loads(after)
            except ValueError as exc:
                problems.append(Problem("not JSON", f"{path}: not JSON: {exc}"))
        if path != node_file or before is None:
            continue
        if operation == "docstring" and qualname is not None:
            checked = check_docstring(
                before, after, qualname, style, project=project, rel_path=path
            )
            problems += [Problem(p.kind, f"{path}: {p.message}") for p in checked.problems]
        elif operation == "lint":
            problems += _lint_problems(before, after, path, project, qualname)
    return problems


def _lint_problems(
    before: str, after: str, path: str, project: Path, qualname: str | None
) -> list[Problem]:
    """A lint change is ruff's safe fix, or goes further only by removing findings.

    Past ruff's safe fixes (a drafted or the model's edit of a finding without
    one) the node's findings may only go: none added, none of ruff's safe fixes
    left undone.
    """
    expected = ruff_safe_fix(before, path, project, qualname)
    if after == expected:
        return []
    left = Counter(findings_on(expected, path, project, qualname))
    now = Counter(findings_on(after, path, project, qualname))
    # A text that does not parse is reported by ruff as a finding, so it adds one.
    if not (now - left) and sum(now.values()) < sum(left.values()):
        return []
    message = f"{path}: differs from ruff's safe fix for the node's findings"
    if now - left:
        message += f" and adds {sorted((now - left).elements())}"
    return [Problem("not ruff's fix", message)]
