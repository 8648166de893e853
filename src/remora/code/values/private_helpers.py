"""A private helper is tested through the public code that calls it (issue 56 item 4).

A test that calls ``_parse_offset`` directly pins an implementation detail: the
helper may be renamed, merged or given other arguments without the module's
behaviour changing, and its arguments are whatever a test invented, not what the
public code passes (an ISO string where the callers give a ``datetime``). So a
private function or method (one leading underscore, not a special name; any method of
a private class, ``__RomanNumbers.encode``) that a public function or method of its
module reaches, directly or through other private helpers, gets no test or sample set
of its own: its callers' tests cover it. A public name bound to it in a class or module
body (``clear = _immutable``, ``__setitem__ = _immutable``, ``size = property(_size)``)
is such a caller: the helper is what that public name does, and so is one a function
binds through ``global`` (``global loads; loads = _loads3`` in a set-up function the
module runs: which helper it binds may depend on the Python, and the public name is what
a user calls) or puts in a table of the module (``_readers[code] = _read_map``) that a
function the public name reaches reads. So is a method a public
class inherits from a private base of its module (``Any(_WithSubValidators)`` calls the
base's ``__call__``, which calls ``self._exec``): ``Any(None, int)(value)`` reaches
``Any._exec``; a blind reviewer rejected the test calling ``_exec([], None, path="")``,
"the public call reaches the same error". A module that declares its interface in a
literal ``__all__`` (PEP 8's public names) keeps every other top-level name internal as
if it were underscored: a class it leaves out, whose methods an exported function drives
(``expand`` builds ``Expander(limit).expand(text)``), is tested through that function,
not by calling ``Expander.account(2)`` (a blind reviewer: "calls the internal method
instead of going through ``expand(..., limit=...)``"). One nothing public reaches is
tested as any other node. Read with :mod:`ast`.
"""

from __future__ import annotations

import ast

from remora.code.parsing import ast_tree

__all__ = ["called_names", "is_private", "public_caller", "qualified_functions"]

Function = ast.FunctionDef | ast.AsyncFunctionDef


def is_private(name: str) -> bool:
    """``_name`` and ``__name`` (mangled), not ``__special__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def qualified_functions(tree: ast.Module) -> dict[str, Function]:
    """The module's functions and its classes' methods by qualified name (nested classes
    too; functions inside functions are their function's own)."""
    found: dict[str, Function] = {}
    stack: list[tuple[str, list[ast.stmt]]] = [("", tree.body)]
    while stack:
        prefix, body = stack.pop()
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                found[prefix + stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                stack.append((f"{prefix}{stmt.name}.", stmt.body))
    return found


def called_names(function: Function) -> set[str]:
    """Names the function calls or hands on to be called: ``helper(...)``,
    ``self._helper(...)``, ``Cls._helper(...)``, and a function or method read as a value
    (``expand = self._query_expansion``, ``{"a": _parse_a}``, ``map(_clean, rows)``): the
    names and attributes it reads."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            names.add(node.attr)
    return names


def _bound_names(tree: ast.Module) -> dict[str, set[str]]:
    """The names a module's or a class's body assigns, by qualified name (``Cls.clear``
    for ``clear = _immutable`` in ``Cls``), each with the names its value reads."""
    found: dict[str, set[str]] = {}
    stack: list[tuple[str, list[ast.stmt]]] = [("", tree.body)]
    while stack:
        prefix, body = stack.pop()
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                stack.append((f"{prefix}{stmt.name}.", stmt.body))
                continue
            if isinstance(stmt, ast.Assign):
                targets, value = stmt.targets, stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                targets, value = [stmt.target], stmt.value
            else:
                continue
            read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
            for target in targets:
                for bound in ast.walk(target):
                    if isinstance(bound, ast.Name):
                        found.setdefault(prefix + bound.id, set()).update(read)
    for function in qualified_functions(tree).values():
        for name, read in _global_bindings(function).items():
            found.setdefault(name, set()).update(read)
    return found


def _global_bindings(function: Function) -> dict[str, set[str]]:
    """The module names a function binds through ``global`` (``global load; load =
    _load_text`` in a set-up function the module runs), or fills an item of (``_readers[code]
    = _read_map``, a module's table: no local of that name), each with the names the value
    reads."""
    declared = {name for n in ast.walk(function) if isinstance(n, ast.Global) for name in n.names}
    local = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    local |= {
        n.id
        for n in ast.walk(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id not in declared
    }
    found: dict[str, set[str]] = {}
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign):
            continue
        read = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id in declared:
                found.setdefault(target.id, set()).update(read)
            elif (
                isinstance(target, ast.Subscript)
                and isinstance(target.value, ast.Name)
                and target.value.id not in local
            ):
                found.setdefault(target.value.id, set()).update(read)
    return found


def declared_interface(tree: ast.Module) -> frozenset[str] | None:
    """The names of the module's ``__all__`` where one top-level statement binds it to a
    list or tuple of strings; None where none does, or another statement binds it too
    (``+=``, a second list: which names it ends with is not read here)."""
    bindings = [
        stmt
        for stmt in tree.body
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign)
        and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
        )
    ]
    if len(bindings) != 1 or isinstance(bindings[0], ast.AugAssign):
        return None
    value = bindings[0].value
    if not isinstance(value, ast.List | ast.Tuple):
        return None
    names = [e.value for e in value.elts if isinstance(e, ast.Constant)]
    if len(names) != len(value.elts) or not all(isinstance(n, str) for n in names):
        return None
    return frozenset(str(n) for n in names)


def _private_path(qualname: str, exported: frozenset[str] | None) -> bool:
    """Whether the definition is private, a member of a private class
    (``__RomanNumbers.encode``: the module's public functions are its interface), or
    outside the interface its module declares (``exported``: its ``__all__``)."""
    parts = qualname.split(".")
    return any(is_private(part) for part in parts) or (
        exported is not None and parts[0] not in exported
    )


def _inherited(tree: ast.Module) -> set[str]:
    """The methods of the module's private classes that a public class of the module
    inherits (``_Base.__call__`` for ``class Any(_Base)``), their own names public."""
    classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    found: set[str] = set()
    for public in [c for name, c in classes.items() if not is_private(name)]:
        bases = [b.id for b in public.bases if isinstance(b, ast.Name)]
        while bases:
            base = classes.get(bases.pop())
            if base is None or not is_private(base.name):
                continue
            found |= {
                f"{base.name}.{f.name}"
                for f in base.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and not is_private(f.name)
            }
            bases += [b.id for b in base.bases if isinstance(b, ast.Name)]
    return found


def public_caller(module_text: str, qualname: str) -> str | None:
    """The public function or method of the module whose calls reach the private node
    ``qualname`` (through private helpers too), or the public name bound to it
    (:func:`_bound_names`); None when the node is public, nothing public reaches it, or
    the text does not parse."""
    name = qualname.rsplit(".", 1)[-1]
    tree = ast_tree(module_text)
    if tree is None:
        return None
    exported = declared_interface(tree)
    if not _private_path(qualname, exported):
        return None
    functions = qualified_functions(tree)
    calls = {q: called_names(f) for q, f in functions.items()}
    for bound, read in _bound_names(tree).items():
        calls.setdefault(bound, set()).update(read)
    # Which public function reaches each name, growing through the private ones reached.
    reached: dict[str, str] = {}
    inherited = _inherited(tree)
    for caller, names in calls.items():
        if not _private_path(caller, exported) or caller in inherited:
            for called in names:
                reached.setdefault(called, caller)
    changed = True
    while changed:
        changed = False
        for caller, names in calls.items():
            short = caller.rsplit(".", 1)[-1]
            if caller == qualname or short not in reached:
                continue
            for called in names - reached.keys():
                reached[called] = reached[short]
                changed = True
    return reached.get(name)
