"""Whether an exception a shared helper raised says the test built its instance unusable.

A method that hands its work to a private helper of its class (``self._build(...)``)
raises what the helper raises, and :mod:`.own_raises` counts that as the method's own.
Not when the helper's ``raise`` is guarded by the instance's own state alone: a helper
several methods of the class call, whose ``if`` around the reached ``raise`` reads
attributes of its instance (``if not self._path: raise ValueError(...)``) and nothing the
call passed in, states a precondition of every method that calls it. A test that built
the instance bare and pins that exception tests the instance's set-up, the same for each
of those methods, and nothing of the method's own logic (issue 56 item 3: one such check
pinned by seven tests, one per method).

The guard is read with :mod:`ast`: the ``if`` tests around the ``raise`` at the line the
probe's frame stopped at. Not counted as such, and so left the method's behaviour: a
``raise`` in the method itself; a helper only one method calls (the method's own code,
split out); a helper of another class than the method's or its base; one reached
through a loop, an ``except`` handler, a ``with`` or a ``match`` (what it iterates or
caught may be the call's); an unguarded ``raise`` (the helper always refuses: the
method's documented kind of call, ``pop`` of a frozen mapping); a guard that reads a
parameter of the helper the method fills from anything but constants and its instance,
a local of the helper, or an attribute the method itself sets; and a constructor (its
call is what builds the instance).
"""

from __future__ import annotations

import ast
from typing import Any

from remora.code.parsing import ast_tree
from remora.code.values.method_state import (
    called_on_self,
    changed_attributes,
    first_parameter,
    is_self_attribute,
)
from remora.code.values.private_helpers import qualified_functions

__all__ = ["unusable_instance"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
# Calls that build the instance: their guards on its state are what the call's arguments set.
_CONSTRUCTORS = {"__init__", "__new__", "__post_init__"}
# A helper this many methods of the class call states a precondition of the instance.
MIN_SHARING_METHODS = 2


def _is_plain_method(function: Function) -> bool:
    """A method that takes its instance first (not a static or class method)."""
    decorators = {d.id for d in function.decorator_list if isinstance(d, ast.Name)}
    return first_parameter(function) is not None and not decorators & {
        "staticmethod",
        "classmethod",
    }


def _guards(function: Function, line: int) -> list[ast.expr] | None:
    """The tests of the ``if``s around the ``raise`` at ``line``, innermost first; None
    when no ``raise`` spans the line or it is reached other than through ``if``s and
    ``try`` bodies (a loop, a handler, a ``with``, a ``match``)."""
    parents = {
        child: parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)
    }
    found = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Raise) and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    if len(found) != 1:
        return None
    tests: list[ast.expr] = []
    current = parents.get(found[0])
    while current is not None and current is not function:
        if isinstance(current, ast.If):
            tests.append(current.test)
        elif not isinstance(current, ast.Try | ast.TryStar):
            return None
        current = parents.get(current)
    return tests


def _parameters(function: Function) -> list[str]:
    """Every parameter of ``function`` but its first (the instance)."""
    args = function.args
    names = [a.arg for a in [*args.posonlyargs, *args.args][1:] + args.kwonlyargs]
    return names + [a.arg for a in (args.vararg, args.kwarg) if a is not None]


def _of_instance(value: ast.expr, self_name: str) -> bool:
    """Whether an argument the method passes is a constant or its instance's state."""
    return all(not isinstance(n, ast.Name) or n.id == self_name for n in ast.walk(value))


def _given(method: Function, self_name: str, helper: Function) -> set[str]:
    """The helper's parameters the method fills from anything but constants and its
    instance's state (every one where it calls the helper with ``*``/``**`` or reaches it
    through another method)."""
    every = set(_parameters(helper))
    positional = [a.arg for a in [*helper.args.posonlyargs, *helper.args.args][1:]]
    calls = [
        node
        for node in ast.walk(method)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == helper.name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == self_name
    ]
    if not calls:
        return every
    given: set[str] = set()
    for call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            return every
        for i, value in enumerate(call.args):
            if not _of_instance(value, self_name):
                vararg = helper.args.vararg.arg if helper.args.vararg else ""
                given.add(positional[i] if i < len(positional) else vararg)
        given |= {k.arg for k in call.keywords if k.arg and not _of_instance(k.value, self_name)}
    return given


def _reads_instance_only(
    tests: list[ast.expr], helper: Function, given: set[str], set_by_method: set[str]
) -> bool:
    """Whether the guard reads its instance and nothing else the call could have set: no
    parameter in ``given``, no local of the helper, no attribute the method sets."""
    self_name = first_parameter(helper) or ""
    locals_ = {
        n.id for n in ast.walk(helper) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    reads_self = False
    for test in tests:
        for node in ast.walk(test):
            if is_self_attribute(node, self_name) and getattr(node, "attr", "") in set_by_method:
                return False
            if not isinstance(node, ast.Name):
                continue
            if node.id == self_name:
                reads_self = True
            elif node.id in given or node.id in locals_:
                return False
    return reads_self


def _class_of(qualname: str) -> str:
    return qualname.rpartition(".")[0]


def _bases(tree: ast.Module, owner: str) -> set[str]:
    """The names of the classes ``owner`` (a top-level or nested class's qualified name)
    derives from, as its ``class`` statement writes them."""
    body: list[ast.stmt] = tree.body
    found: ast.ClassDef | None = None
    for part in owner.split("."):
        found = next((s for s in body if isinstance(s, ast.ClassDef) and s.name == part), None)
        if found is None:
            return set()
        body = found.body
    return {ast.unparse(b) for b in found.bases} if found is not None else set()


def unusable_instance(module_text: str, qualname: str, raised: dict[str, Any]) -> str | None:
    """Why ``raised`` (a probe row's ``raised`` from the node's own file, its frame in a
    helper of the node ``qualname``) says the test built the instance unusable, in words
    for a skip list; None when it is the node's behaviour (module docstring)."""
    frame = raised.get("frame")
    tree = ast_tree(module_text)
    if tree is None or not isinstance(frame, dict) or not isinstance(frame.get("line"), int):
        return None
    helper_name = str(frame.get("function", ""))
    if helper_name == qualname or helper_name.startswith(qualname + ".") or "<" in helper_name:
        return None
    functions = qualified_functions(tree)
    method, helper = functions.get(qualname), functions.get(helper_name)
    owner, helper_owner = _class_of(qualname), _class_of(helper_name)
    if (
        method is None
        or helper is None
        or not owner
        or method.name in _CONSTRUCTORS
        or not (_is_plain_method(method) and _is_plain_method(helper))
        or (helper_owner != owner and helper_owner.split(".")[-1] not in _bases(tree, owner))
    ):
        return None
    sharing = [
        name
        for name, function in functions.items()
        if _class_of(name) in (owner, helper_owner)
        and (first := first_parameter(function)) is not None
        and helper.name in called_on_self(function, first)
    ]
    tests = _guards(helper, frame["line"])
    self_name = first_parameter(method)
    if len(sharing) < MIN_SHARING_METHODS or not tests or self_name is None:
        return None
    given = _given(method, self_name, helper)
    set_by_method = set(changed_attributes(method, private=True))
    if not _reads_instance_only(tests, helper, given, set_by_method):
        return None
    return (
        f"raised {raised.get('type', 'an exception')} in {helper_name}, a helper "
        f"{len(sharing)} methods of the class call, on its instance's own state "
        f"(`{ast.unparse(tests[0])}`): the test built the instance unusable, a "
        "precondition of each of those methods, not this one's behaviour"
    )
