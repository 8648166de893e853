"""A call the node's computation left as it was: the value it returned is one of its inputs.

``escape("sample s") == "sample s"``: the input holds none of the characters
``escape`` replaces, so an identity function would pass the test as well; blind
reviewers reject such tests as pinning nothing (issue 56), and the mutation check
keeps them, since they still fail the mutant that returns None. A probed call is
no candidate when the text, bytes or collection it returned equals (same type,
same value) one of its arguments or of its instance's constructor arguments, or the
text a mapping argument holds under a key the node reads by name
(:func:`returns_a_read_item`), while no ``return`` of the node hands a parameter, an
attribute or an item of one on as it is (``return value`` in a clamp, ``return
self.name`` in a getter, ``return token["raw"]``, either branch of
``a if c else b``, ``return str(value)`` for what a formatter cannot read): where
every return computes its value, a call whose value is its input shows nothing of
the computation. A number or a boolean equal to an input is as often a coincidence
(``0``, ``1``, ``True``) and is left to the mutation check.

:func:`shows_nothing` adds two more calls whose test shows nothing of the node (blind
reviewers rejected each as "passes whatever the code did"): one that gives every parameter
the node loops over an empty collection (``match_files(files=[])``, ``check(patterns=[],
file="")``: no loop ran, whatever the patterns), one that returns ``None`` where the
test passed a ``None`` in (``TreeEntry(..., lstat=None, stat=None).stat() is None``: the
None it pins may be the one it gave), and one whose work (a returned copy's attributes,
the instance's) holds only arguments as they were given where the node hands them only to
functions (a normaliser given a text already in its normal form:
``add_host("github.com")``), and one given arguments that returned a copy equal to
its unchanged instance (``DecodedURL().remove("a")`` on a URL with no query: "no query
pair is ever removed"; a ``copy()`` given nothing stays, returning a copy is its work).
Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from remora import python_ast
from remora.code.testgen.lone_spread import lone_spread
from remora.code.testgen.none_calls import unhandled_nones
from remora.code.testgen.observed_asserts import made_attributes
from remora.code.testgen.plain_readings import plain_reading
from remora.code.values import parameter_names
from remora.code.values.keyed_arguments import reads_of_keys

__all__ = [
    "hands_on_an_input",
    "returned_branches",
    "returns_a_read_item",
    "returns_an_input",
    "shows_nothing",
]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_COMPUTED_KINDS = (str, bytes, list, tuple, dict, set, frozenset)
_CONVERSIONS = frozenset({"str", "bytes", "list", "tuple", "dict", "set", "frozenset"})


def returned_branches(value: ast.expr) -> Iterator[ast.expr]:
    """The values a ``return`` of ``value`` may give as they are: either branch of
    ``a if c else b``, each operand of ``and``/``or``, else the value itself."""
    if isinstance(value, ast.IfExp):
        yield from returned_branches(value.body)
        yield from returned_branches(value.orelse)
    elif isinstance(value, ast.BoolOp):
        for operand in value.values:
            yield from returned_branches(operand)
    else:
        yield value


def _returned_as_is(value: ast.expr, names: set[str]) -> bool:
    """A parameter or an attribute of one (``self.name``), in any branch of the value."""
    return any(_given_as_is(branch, names) for branch in returned_branches(value))


def _given_as_is(value: ast.expr, names: set[str]) -> bool:
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in _CONVERSIONS
        and len(value.args) == 1
    ):
        value = value.args[0]  # ``str(value)``: the input as it is, in another type
    # ``self.name``, ``token["raw"]`` (an item, not a slice: ``text[:10]`` cuts it)
    while isinstance(value, ast.Attribute) or (
        isinstance(value, ast.Subscript) and not isinstance(value.slice, ast.Slice)
    ):
        value = value.value
    return isinstance(value, ast.Name) and value.id in names


def hands_on_an_input(function: Function) -> bool:
    """Whether a ``return`` of the function gives a parameter (``self`` included) or an
    attribute of one as it is, or the function yields (a generator's items are its own)."""
    names = parameter_names(function)
    for node in ast.walk(function):
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if isinstance(node, ast.Return) and node.value and _returned_as_is(node.value, names):
            return True
    return False


def returns_an_input(
    row: Mapping[str, Any], owner_args: Mapping[str, Any] | None, spread: str | None = None
) -> bool:
    """Whether the probed call ``row`` returned text, bytes or a collection equal to one of
    its arguments or its instance's (``row``'s own ``owner_args``, else ``owner_args``);
    each item of the ``*args`` parameter ``spread`` is an argument of its own
    (``compose("a") == "a"``: reduce handed its one item back)."""
    returned = row.get("returned") or {}
    if row.get("raised") or not returned.get("literal"):
        return False
    value = python_ast.literal_eval(returned["repr"])
    if not isinstance(value, _COMPUTED_KINDS):
        return False
    given = _inputs(row, owner_args)
    spread_items = (row.get("args") or {}).get(spread) if spread else None
    given += list(spread_items) if isinstance(spread_items, list) else []
    return any(type(one) is type(value) and one == value for one in given)


def returns_a_read_item(row: Mapping[str, Any], function: Function) -> bool:
    """Whether the probed call returned the text its mapping argument holds under a key the
    node reads by name (``token["raw"]``, ``token.get("raw")``): a renderer's
    ``text({"raw": "sample raw"}) == "sample raw"``, nothing in it to escape. A key the
    caller chooses (``table[key]``) is a lookup, whose answer is the item it picked."""
    returned = row.get("returned") or {}
    if row.get("raised") or not returned.get("literal"):
        return False
    value = python_ast.literal_eval(returned["repr"])
    if not isinstance(value, str | bytes):
        return False
    args = row.get("args") or {}
    for name in parameter_names(function):
        given = args.get(name)
        if not isinstance(given, dict):
            continue
        subscripts, gets = reads_of_keys(function, name)
        keys = [s.slice for s in subscripts] + [g.args[0] for g in gets]
        held = [given.get(k.value) for k in keys if isinstance(k, ast.Constant)]
        if any(type(item) is type(value) and item == value for item in held):
            return True
    return False


def _inputs(row: Mapping[str, Any], owner_args: Mapping[str, Any] | None) -> list[Any]:
    """The values a probed call was given: its arguments and its instance's (``row``'s own
    ``owner_args``, else ``owner_args``)."""
    owner = row.get("owner_args") if row.get("owner_args") is not None else owner_args
    return [*(row.get("args") or {}).values(), *(owner or {}).values()]


# Calls that hand a loop the items of what they are given, in the same number or none.
_ITERATING = frozenset({"enumerate", "sorted", "reversed", "list", "tuple", "iter", "set"})
_ITEM_VIEWS = frozenset({"items", "keys", "values"})


def _looped_parameter(iterable: ast.expr, names: set[str]) -> str | None:
    """The parameter a ``for`` loop runs over (``for x in items``, ``enumerate(items)``,
    ``items.items()``); None for a loop over anything else."""
    while isinstance(iterable, ast.Call) and len(iterable.args) <= 1:
        func = iterable.func
        if isinstance(func, ast.Name) and func.id in _ITERATING and iterable.args:
            iterable = iterable.args[0]
        elif isinstance(func, ast.Attribute) and func.attr in _ITEM_VIEWS and not iterable.args:
            iterable = func.value
        else:
            break
    return iterable.id if isinstance(iterable, ast.Name) and iterable.id in names else None


def looped_parameters(function: Function) -> set[str]:
    """The parameters the function's own ``for`` loops run over; empty where one of its
    loops runs over anything else (that loop may do the node's work)."""
    names = parameter_names(function)
    found: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            looped = _looped_parameter(node.iter, names)
            if looped is None:
                return set()
            found.add(looped)
    return found


def _is_empty(value: Any) -> bool:
    if isinstance(value, dict) and len(value) == 1:  # a set or tuple marker: {"__set__": []}
        ((key, items),) = value.items()
        return str(key).startswith("__") and items == []
    return isinstance(value, str | list | dict) and not value


def _passes_through(function: Function) -> bool:
    """Whether every ``return`` of the function gives a parameter (not ``self``) as it is,
    a conversion of one (``str(name)``) or a constant: a validator's ``return value`` after
    its checks, a converter's ``return name`` beside ``return str(name)``."""
    names = parameter_names(function) - {"self", "cls"}
    returns = [n.value for n in ast.walk(function) if isinstance(n, ast.Return)]
    if not returns or any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(function)):
        return False
    for value in returns:
        if value is None or isinstance(value, ast.Constant):
            continue
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.args:
            value = value.args[0] if value.func.id in _CONVERSIONS else value
        if not (isinstance(value, ast.Name) and value.id in names):
            return False
    return True


def _literal(seen: Mapping[str, Any]) -> list[Any]:
    return [python_ast.literal_eval(seen["repr"])] if seen.get("literal") else []


def _changed_values(row: Mapping[str, Any]) -> list[Any]:
    """The values the call's work put where its test asserts them: the attributes of a
    returned copy that read otherwise than on what it was made from (the probe's
    ``as_given``), the instance's attributes that read otherwise than before the call."""
    returned = row.get("returned") or {}
    values: list[Any] = []
    if "as_given" in returned:
        for seen in made_attributes(returned).values():
            values += _literal(seen)
    before = row.get("state_before")
    if isinstance(before, dict):
        for name, seen in (row.get("state") or {}).items():
            values += (
                [] if (before.get(name) or {}).get("repr") == seen.get("repr") else _literal(seen)
            )
    return values


def _through_a_call(function: Function, name: str) -> bool:
    """Whether every read of the parameter ``name`` hands it to a function's call or calls
    a method of it (``normalize_host(host)``, ``name.strip()``): none is stored, returned or
    given to a class or a conversion as it is (``URIBuilder(host=host)`` stores it)."""
    reads = handed = 0
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            reads += 1
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        given = [*node.args, *(k.value for k in node.keywords)]
        given += [func.value] if isinstance(func, ast.Attribute) else []
        count = sum(1 for value in given if isinstance(value, ast.Name) and value.id == name)
        if count and (not called or called[:1].isupper() or called in _CONVERSIONS):
            return False
        handed += count
    return reads > 0 and reads == handed


def _normal_already(row: Mapping[str, Any], function: Function) -> bool:
    """Whether every value the call's work left (a returned copy's changed attributes, the
    instance's) is an argument's text, bytes or collection as given, where the node hands
    that argument only to functions' calls: the normaliser did nothing to an input already
    in its normal form (rfc3986's ``URIBuilder().add_host("github.com")``: blind reviewers
    "'github.com' is already normalized, so the lowercasing in add_host is never
    exercised")."""
    values = _changed_values(row)
    args = row.get("args") or {}
    if row.get("raised") or not values:
        return False
    for value in values:
        same = [
            name
            for name, given in args.items()
            if isinstance(given, _COMPUTED_KINDS) and type(given) is type(value) and given == value
        ]
        if not same or not all(_through_a_call(function, name) for name in same):
            return False
    return True


def shows_nothing(
    row: Mapping[str, Any],
    function: Function | None,
    owner_args: Mapping[str, Any] | None,
    hands_on: bool,
) -> bool:
    """Whether the probed call's test would show nothing of the node: it returned an
    input where no return hands one on (:func:`returns_an_input`), or handed an argument
    back where every return hands a parameter back, converts one or is a constant (a
    validator, :func:`_passes_through`: the happy path shows none of its checks), left
    only inputs as they were where the node hands them to a normaliser
    (:func:`_normal_already`), every parameter the node loops over was given empty, an
    argument was a ``None`` the node never tells apart
    (:func:`~remora.code.testgen.none_calls.unhandled_nones`), a ``*args`` the node combines
    got fewer than two items (:func:`~remora.code.testgen.lone_spread.lone_spread`), it
    returned what a builtin gives of one argument
    (:func:`~remora.code.testgen.plain_readings.plain_reading`: ``split(".") == ["."]``), or
    it returned ``None`` where the test passed ``None``."""
    spread = function.args.vararg.arg if function is not None and function.args.vararg else None
    if not hands_on and returns_an_input(row, owner_args, spread):
        return True
    if row.get("raised") or function is None:
        return False
    if not hands_on and returns_a_read_item(row, function):
        return True
    if unhandled_nones(row, function) or lone_spread(row, function):
        return True  # ``fake_isbn(None, sid=None)``; ``interleave("zz")``: one iterable
    if plain_reading(row, function):
        return True  # ``split(".") == ["."]``: no delimiter in the text
    if _passes_through(function) and returns_an_input({**row, "owner_args": {}}, {}):
        return True  # an argument handed back: ``validate_filename_arg("a") == "a"``
    if _normal_already(row, function) or _unchanged_copy(row):
        return True
    args = row.get("args") or {}
    looped = looped_parameters(function)
    if looped and all(name in args and _is_empty(args[name]) for name in looped):
        return True
    returned = row.get("returned") or {}
    given = _inputs(row, owner_args)
    none_back = returned.get("repr") == "None" and any(value is None for value in given)
    return none_back and _returns_a_value(function)  # a procedure's None is no result


def _unchanged_copy(row: Mapping[str, Any]) -> bool:
    """Whether a call given arguments returned a copy equal to its instance (of its type)
    and left the instance as it was: the arguments changed nothing."""
    twin = (row.get("returned") or {}).get("twin") or {}
    copy = twin.get("of") == "instance" and not twin.get("type_differs")
    unchanged = (row.get("state") or {}) == (row.get("state_before") or {})
    return bool(copy and row.get("args") and unchanged and not row.get("contents"))


def _returns_a_value(function: Function) -> bool:
    return any(
        isinstance(node, ast.Return)
        and node.value is not None
        and not (isinstance(node.value, ast.Constant) and node.value.value is None)
        for node in ast.walk(function)
    )
