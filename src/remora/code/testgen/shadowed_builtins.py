"""Tests that cannot tell the node from something else: a shadowed builtin, an optional import.

A module's ``len(iterable)`` that counts display columns, called with an ASCII string,
returns what the builtin ``len`` returns: its test (``assert len("abc") == 3``) passes
against the builtin too, and pins nothing of what the function is for (the wide
characters it exists for). :func:`same_as_builtin` says so of a probed call, for a module
function named as a pure builtin, by calling the builtin with the same arguments on the
host (only builtins without side effects, :data:`_PURE`).

A function defined under ``try: import wcwidth`` / ``except ImportError:`` has two
definitions, and which one runs depends on whether an optional package is installed:
a value observed from one is accidental to the machine. :func:`optional_import_reason`
says why such a node gets no test; :func:`optional_flag_reason` says it of a node that
reads a flag the ``except ImportError`` sets (``if not _keccak_flag: raise ImportError``:
its test passes only where the package is missing, and fails in the project's own test
environment, which installs it); :func:`untestable_reason` adds a module the test
run has loaded from the installed packages before any test (pluggy, under pytest:
:func:`remora.code.probes.pytest_own_module`), and a deprecated function, one that warns
``DeprecationWarning`` or is marked ``@deprecated``
(:func:`~remora.code.values.deprecations.deprecation_warning`): its test pins code kept
for old callers until it goes, and fails where the suite turns warnings into errors
(jsonpickle's ``is_dictionary``, ``is_list``, ``is_unicode``: three tests, each rejected
as useless). Read with :mod:`ast`; only the builtins run here.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import (
    alternative_definitions,
    ast_tree,
    overridden_stub,
    overrides,
    stub_owner,
)
from remora.code.probes import pytest_own_module
from remora.code.values import CallTarget, caller_frame_reason, node_function
from remora.code.values.deprecations import deprecation_warning
from remora.code.values.project_values import python_files

__all__ = [
    "optional_flag_reason",
    "optional_import_reason",
    "same_as_builtin",
    "untestable_reason",
]

# Builtins that compute a value from their arguments and do nothing else.
_PURE = frozenset(
    {"abs", "all", "any", "ascii", "bin", "bool", "chr", "divmod", "float", "format", "hex"}
    | {"int", "len", "max", "min", "oct", "ord", "pow", "repr", "round", "sorted", "str", "sum"}
)
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def same_as_builtin(target: CallTarget, row: dict[str, Any]) -> bool:
    """Whether the node is a module function named as a pure builtin and the call's
    returned literal is what the builtin returns for the same arguments (in order)."""
    name = target["qualname"]
    returned = row.get("returned") or {}
    if target["kind"] != "function" or name not in _PURE or not returned.get("literal"):
        return False
    args = row.get("args") or {}
    order = [str(p["name"]) for p in target["parameters"]]
    if set(args) - set(order):
        return False
    positional = [args[n] for n in order if n in args]
    try:
        expected = python_ast.literal_eval(str(returned["repr"]))
        return bool(getattr(builtins, name)(*positional) == expected)
    except Exception:  # the builtin does not take them: it tells the node apart
        return False


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(getattr(n, "id", getattr(n, "attr", "")) in _IMPORT_ERRORS for n in names)


def optional_import_reason(module_text: str, line: int) -> str | None:
    """Why the definition starting at ``line`` gets no test: it lies in a ``try`` whose
    ``except`` catches ImportError (its definition depends on an optional package)."""
    tree = ast_tree(module_text)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try) or not any(
            _catches_import_error(h) for h in node.handlers
        ):
            continue
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            return (
                "defined under a try/except ImportError: which definition runs depends "
                "on whether an optional package is installed"
            )
    return None


def optional_flag_reason(module_text: str, function: ast.AST | None) -> str | None:
    """Why ``function`` gets no test: it reads a module name that an ``except ImportError``
    handler sets to a constant (``_keccak_flag = False``, ``keccak = None``), so what
    it does depends on whether an optional package is installed."""
    tree = ast_tree(module_text)
    if tree is None or function is None:
        return None
    flags = {
        target.id
        for statement in tree.body
        if isinstance(statement, ast.Try)
        for handler in statement.handlers
        if _catches_import_error(handler)
        for assign in handler.body
        if isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Constant)
        for target in assign.targets
        if isinstance(target, ast.Name)
    }
    read = sorted({n.id for n in ast.walk(function) if isinstance(n, ast.Name) and n.id in flags})
    if not read:
        return None
    return (
        f"it reads {read[0]}, which an except ImportError sets: what it does depends on "
        "whether an optional package is installed"
    )


# An abstract method's test pins its placeholder: "only checks that the abstract base
# method is still the raise NotImplementedError() stub" (blind reviewers: reject). A stub
# no class overrides is the API's answer (``append`` of a sorted list: "use add").
STUB_REASON = "an abstract stub: the methods that override it are the behaviour"


def overridden_elsewhere(
    context: CodeContext, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> bool:
    """Whether the node is a stub method that a class of another project module, importing
    its class, defines again (strsimpy's ``NormalizedStringDistance.distance``, whose
    classes live one to a module: "only checks that the abstract ... raises
    NotImplementedError", rejected as noise)."""
    owner = stub_owner(context.node_file_text(), function)
    if owner is None:
        return False
    own = context.bound_node().file_path
    for path in python_files(context):
        text = context.read_text(path) if path != own else ""
        tree = ast_tree(text) if owner.name in text and function.name in text else None
        if tree is not None and overrides(tree, owner.name, function.name, imported=True):
            return True
    return False


DEPRECATED_REASON = (
    "it is deprecated (it warns of its removal): a test would pin code kept only for old "
    "callers, and fail where warnings are errors"
)
# hjson's ``if PY3: def fromhex(s): return bytes.fromhex(s)`` beside a Python 2 one: the
# test pins the branch this interpreter takes, and retests the standard library (blind
# reviewers: "only retests chr()").
ALTERNATIVE_REASON = (
    "one of the definitions of its name an if chooses between at import (a version or "
    "platform shim): a test pins the branch this interpreter takes"
)


def untestable_reason(context: CodeContext, target: CallTarget) -> str:
    """Why no test here can tell the node apart ('' when one can): it is an abstract stub,
    an optional import or a version check decides its definition or what it reads, it reads its
    caller's frame (:mod:`remora.code.values.caller_frames`), it is deprecated, or the test
    run loads an installed copy of its module."""
    line = context.bound_node().start_line
    text = context.node_file_text()
    function = node_function(context)
    if function is not None and (
        overridden_stub(text, function) or overridden_elsewhere(context, function)
    ):
        return STUB_REASON
    optional = optional_import_reason(text, line) or optional_flag_reason(text, function)
    if not optional and function is not None and function.lineno in alternative_definitions(text):
        optional = ALTERNATIVE_REASON
    frame = caller_frame_reason(text, str(target["qualname"]))
    deprecated = function is not None and deprecation_warning(function) is not None
    return (
        optional
        or frame
        or (DEPRECATED_REASON if deprecated else "")
        or pytest_own_module(str(target["module"]))
    )
