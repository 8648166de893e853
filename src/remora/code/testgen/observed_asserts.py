"""What a test asserts after a call it observed: behaviour, never the type alone.

A probed call (:mod:`remora.code.probes.programs.call_probe`) returned a value, raised,
and for a method left its instance's attributes as they are now. The asserts:

- an exception: ``pytest.raises`` of the class raised, named as the node's module
  imports it (``errors.UnknownCommand``: :mod:`remora.code.testgen.raised_names`), and
  its message, compared whole (``match=`` searches: a message with words added would
  pass), not the class alone; a message the code formats from the call's values is
  matched on its fixed words instead (``match="does not support indexing"``:
  :mod:`remora.code.testgen.message_words`); a message its exception's class assembles
  from what it holds (``"[PV1100] invalid characters found: ..., platform=universal"``)
  is asserted by what it holds instead, where its attributes or properties say
  something (``excinfo.value.reason == ErrorReason.INVALID_CHARACTER``: blind reviewers
  asked for that over "the full formatted message, which breaks when the wording
  changes");
- a value with a literal form: ``assert result == value`` (``pytest.approx`` for
  a float, ``is`` for None and the booleans); one whose repr is the call that rebuilds
  it, ``assert result == Point(x=1, y=2)``, its classes imported;
- a builder's ``return self``: ``assert result is instance``, beside the attributes it
  set (or the public properties reading the private ones): the identity alone pins nothing;
- an object without a literal form: its own public attributes that have one (or
  a length), never ``isinstance`` alone, and none of an object of the standard library's
  (a ``contextlib`` context manager's ``args`` are its internals);
- a callable object (a query, a predicate, a transform): its calls with the values its
  users pass, and what each returned or changed (:mod:`remora.code.testgen.returned_calls`);
- a value equal to the instance (or an argument) but another object, a copy or a
  conversion: what tells it apart, since ``==`` alone would pass were the node to
  return the instance unchanged (:func:`twin_lines`): its type where that differs
  (``type(result) is dict``, a conversion), else ``result is not obj`` and whether
  its first nested object is the instance's own (a shallow copy) or not (a deep
  one); and the type of the shallowest nested one whose type differs;
- a procedure (code that returns no value anywhere), or a call whose value nothing
  asserts: no ``result``, only the state it changed (``assert q.limit_value == 10``);
- whatever it returns, the calls made of a function the test defined and passed
  (``assert receiver_calls == [(('sender',), {})]``: :func:`function_asserts`), and that
  function where it is what came back (``assert result is receiver``), or a value that
  holds it (``assert result == [(receiver, None)]``);
- whatever it returns, what a method changed in the container its instance is (a dict or
  list subclass's ``self[key] = default``, ``self.append(item)``), as the probe saw it
  comparing the contents before and after the call: ``assert d["key"] == "default"``, or
  the contents whole where short (:func:`remora.code.values.contents_asserts`).

After an exception, nothing of the instance's state is asserted: blind reviewers asked
to drop each such assert on ply's lexer and grammar ("drop the asserts on lexre, lexretext,
...: they only restate a bare Lexer's defaults"; "``lexpos == 1`` pins an accidental side
effect"; "the infinite_cycles/unused_* asserts are unrelated").

A call whose test would assert none of these (a procedure that changed nothing
a test can read, an object with no readable attribute) pins nothing: the test
search leaves it out (:func:`pins_something`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import node_returns
from remora.code.testgen.changed_state import state_lines
from remora.code.testgen.message_words import match_pattern
from remora.code.testgen.raised_names import NodeImports, exception_name
from remora.code.testgen.returned_calls import call_lines
from remora.code.values import (
    CallRender,
    counted,
    truth_assert,
    value_assert,
    value_asserts,
)

__all__ = [
    "called_functions",
    "function_asserts",
    "is_procedure",
    "made_attributes",
    "observed_lines",
    "pins_something",
    "twin_lines",
]

# The probe cuts an exception's message at this many characters (call_probe.py).
_MAX_MESSAGE_CHARS = 300


def is_procedure(context: CodeContext) -> bool:
    """Whether the node's own code returns no value anywhere and yields nothing (a
    ``-> None`` annotation says so too)."""
    facts = node_returns(context.located())
    return not (facts["returns_value"] or facts["is_generator"])


def _readable(seen: dict[str, Any]) -> bool:
    """Whether :func:`remora.code.values.value_assert` can write an assert of ``seen`` that
    pins something: a literal, a construction, a length of a few items, a tuple's item."""
    return (
        bool(seen.get("literal") or seen.get("constructed") or seen.get("with_functions"))
        or counted(seen)
        or any(_readable(part) for part in seen.get("parts") or ())
    )


def pins_something(row: dict[str, Any], procedure: bool) -> bool:
    """Whether the test of a probed call would assert a behaviour, not only that it ran."""
    if row.get("raised"):
        return True
    returned = row.get("returned") or {}
    state = [seen for seen in (row.get("state") or {}).values() if _readable(seen)]
    if row.get("contents") or _called_functions(row):  # items changed, a function called
        return True
    if procedure:
        return bool(state)
    written = ("literal", "constructed", "with_functions", "calls")
    parts = returned.get("parts") or ()
    if state or any(returned.get(key) for key in written) or any(map(_readable, parts)):
        return True
    if returned.get("is_instance"):  # `return self` alone: an identity every builder has
        return False
    attributes = _asserted_attributes(returned)
    # An endless generator's first items are as many as the test takes, whatever it yields.
    length = counted(returned) and not returned.get("capped")
    return length or any(_readable(seen) for seen in attributes.values())


def made_attributes(returned: Mapping[str, Any]) -> dict[str, Any]:
    """The returned object's attributes that do not read as they did on the object of its
    type the call was given (the probe's ``as_given``: an argument's own value, or for a
    copy a method returns its instance's): the call's work."""
    given = set(returned.get("as_given") or ())
    attributes: dict[str, Any] = dict(returned.get("attributes") or {})
    return {k: v for k, v in attributes.items() if k not in given}


def _asserted_attributes(returned: dict[str, Any]) -> dict[str, Any]:
    """The returned object's attributes a test asserts: none of an object of the standard
    library's (``result.args``, ``result.kwds`` of a context manager ``contextlib`` made are
    its internals, no behaviour of the node), only those the call made
    (:func:`made_attributes`: a test asserting those it was given passed whatever the call
    added)."""
    module = str(returned.get("type_module") or "").split(".")[0]
    standard = module in sys.stdlib_module_names and module != "builtins"
    return {} if standard else made_attributes(returned)


def _called_functions(row: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The test's own functions that were called (:mod:`remora.code.values.function_arguments`),
    with what the probe saw of their calls."""
    functions: dict[str, dict[str, Any]] = row.get("functions") or {}
    return {
        name: seen for name, seen in functions.items() if seen.get("calls") or seen.get("count")
    }


def called_functions(row: dict[str, Any]) -> set[str]:
    """The names of the test's own functions whose calls its asserts read."""
    return set(_called_functions(row))


def function_asserts(render: CallRender, row: dict[str, Any]) -> list[str]:
    """What each function the test defines was called with, in order (their count where an
    argument has no literal form): ``assert receiver_calls == [(('sender',), {})]``."""
    lines: list[str] = []
    for name, seen in _called_functions(row).items():
        if name not in render.functions:
            continue
        if seen.get("calls"):
            lines.append(f"assert {name}_calls == [{', '.join(seen['calls'])}]")
        else:
            lines.append(f"assert len({name}_calls) == {int(seen['count'])}")
    return lines


def _type_name(seen: dict[str, Any], render: CallRender, module: str) -> str | None:
    """A type as the test names it: a builtin, or a class of the node's module (imported);
    None for any other."""
    name = str(seen.get("type") or "")
    if seen.get("type_module") == "builtins" and name.isidentifier():
        return name
    if seen.get("type_module") == module and name:
        render.imports.add(name.split(".")[0])
        return name
    return None


def _subscripts(path: list[str | int]) -> str:
    return "".join(f"[{key!r}]" for key in path)


def twin_lines(render: CallRender, returned: dict[str, Any], module: str) -> list[str]:
    """The asserts that tell a returned copy or conversion from the instance or argument
    it equals (the probe's ``twin``); an argument written in the call has no name, so
    only types tell the result from it."""
    twin = returned.get("twin")
    if not twin:
        return []
    receiver = render.instance if twin["of"] == "instance" else ""
    lines: list[str] = []
    own_type = _type_name(returned, render, module) if twin["type_differs"] else None
    if own_type is not None:
        lines.append(f"assert type(result) is {own_type}")
    elif receiver:
        lines.append(f"assert result is not {receiver}")
    nested: list[dict[str, Any]] = twin.get("nested") or []
    first = next((n for n in nested if len(n["path"]) == 1), None)
    if receiver and first is not None and not twin["type_differs"]:  # a copy: deep or not
        where = _subscripts(first["path"])
        lines.append(f"assert result{where} is {'' if first['same'] else 'not '}{receiver}{where}")
    for seen in nested:  # the shallowest nested object whose type differs, when nameable
        name = _type_name(seen, render, module) if seen.get("type") else None
        if name is not None:
            lines.append(f"assert type(result{_subscripts(seen['path'])}) is {name}")
            break
    return lines


def _plain_apart(
    render: CallRender, returned: dict[str, Any], module: str, twin: list[str]
) -> list[str]:
    """``assert type(result) is SortedSet`` beside ``result == SortedSet([...])`` where the
    result equals the plain container it holds (the probe's ``equals_plain``): the
    ``==`` alone would pass were the code to return a plain ``set``. None where the twin's
    asserts already say the type."""
    if not returned.get("equals_plain") or any(
        line.startswith("assert type(result)") for line in twin
    ):
        return []
    name = _type_name(returned, render, module)
    return [f"assert type(result) is {name}"] if name is not None else []


def _exception(render: CallRender, raised: dict[str, Any], imports: NodeImports) -> str:
    """The raised class as the test names it, its import recorded in ``render``
    (:mod:`remora.code.testgen.raised_names`); ``Exception`` where it has no public name."""
    name = exception_name(str(raised["type"]), str(raised["module"]), imports)
    if name is None:
        return "Exception"
    if name.own:
        render.imports.add(name.own)
    if name.from_import is not None:
        render.from_imports.add(name.from_import)
    if name.plain:
        render.modules.add(name.plain)
    return name.expression


def _raises(
    render: CallRender, raised: dict[str, Any], call: str, imports: NodeImports
) -> list[str]:
    """``pytest.raises`` of the class raised, with its message's words or its whole
    message; ``assert excinfo.type is Error`` beside it where the project subclasses the
    class (``pytest.raises(Error)`` passes on a subclass too: voluptuous'
    ``validate_with_humanized_errors`` converts a ``MultipleInvalid``, an ``Error``, and
    the test passed without the conversion) and either the message is not asserted whole
    or the call raised it while handling one of that class (a conversion, whose message
    may be the caught one's). Beside a whole message of a plain raise a blind reviewer
    of pyjwt read it as redundant with the ``pytest.raises`` above it, twice."""
    exception = _exception(render, raised, imports)
    render.modules.add("pytest")
    subclassed = raised.get("subclassed") and exception != "Exception"  # named, not a stand-in
    exact = [f"assert excinfo.type is {exception}"] if subclassed else []
    named = " as excinfo" if exact else ""
    if raised.get("match"):  # the raise's own words, where the rest is the call's values
        return [
            f"with pytest.raises({exception}, match={match_pattern(raised['match'])}){named}:",
            f"    {call}",
            *exact,
        ]
    message = str(raised.get("message") or "")
    if not message or len(message) >= _MAX_MESSAGE_CHARS:  # none, or cut by the probe
        return [f"with pytest.raises({exception}){named}:", f"    {call}", *exact]
    held = _held_asserts(render, raised)
    if held:  # the attributes, not the message, are asserted: the class is told apart here
        return [f"with pytest.raises({exception}) as excinfo:", f"    {call}", *exact, *held]
    # Compared whole: `match=` searches, so a message with words added would still match.
    kept = exact if raised.get("converted") else []
    return [
        f"with pytest.raises({exception}) as excinfo:",
        f"    {call}",
        *kept,
        f"assert str(excinfo.value) == {message!r}",
    ]


def _held_asserts(render: CallRender, raised: dict[str, Any]) -> list[str]:
    """The asserts of what a raised exception holds beside its message: each attribute or
    property with a value (not None, not empty, not the message itself, not one asserted
    under another name: ``msg`` beside ``error_message``); none where no such value has a
    form an assert can write."""
    lines, shown = [], set()
    for name, seen in (raised.get("attributes") or {}).items():
        if seen["repr"] in shown:
            continue
        shown.add(seen["repr"])
        if seen.get("literal"):
            value = python_ast.literal_eval(str(seen["repr"]))
            if value is None or value in ("", [], (), {}) or value == raised.get("message"):
                continue
        line = value_assert(f"excinfo.value.{name}", seen, render)
        if line is not None and "len(" not in line:
            lines.append(line)
    return lines


def observed_lines(
    render: CallRender,
    row: dict[str, Any],
    call: str,
    module: str,
    procedure: bool,
    imports: NodeImports | None = None,
) -> list[str]:
    """The call and its asserts (after ``render.call``'s set-up lines), the instance's
    changed attributes and items included; of a row marked ``truth``, its value's truth.
    ``imports``: the node's module's, through which a raised class of another is named."""
    raised = row.get("raised")
    if raised:  # the exception is the behaviour; the state it left is incidental
        exception = _raises(render, raised, call, imports or NodeImports(module))
        return [*exception, *function_asserts(render, row)]
    counts, after = state_lines(render, row)
    after += function_asserts(render, row)
    returned = row["returned"]
    if procedure:
        return [*counts, call, *after]
    lines = [*counts, f"result = {call}"]
    if returned.get("is_instance") and render.instance:
        return [*lines, f"assert result is {render.instance}", *after]
    if returned.get("function") in render.functions:  # the test's own function, given back
        return [*lines, f"assert result is {returned['function']}", *after]
    if row.get("truth") and (truth := truth_assert(returned)):
        return [*lines, truth, *after]
    twin = twin_lines(render, returned, module)
    own = value_asserts("result", returned, render)
    if own:
        return [*lines, *own, *_plain_apart(render, returned, module, twin), *twin, *after]
    if returned.get("calls"):  # a callable: what it does when called as its users call it
        return [*lines, *call_lines(returned, render), *after]
    for attribute, seen in _asserted_attributes(returned).items():
        line = value_assert(f"result.{attribute}", seen, render)
        lines += [line] if line is not None else []
    if len(lines) == len(counts) + 1 and not twin:
        return [*counts, call, *after]  # nothing asserts the result: no name left unread
    return [*lines, *twin, *after]
