"""One call of a run's node as Python source: its arguments as a test writes them.

A value sent to the probe as JSON (:mod:`remora.code.probes.programs.call_probe`) is
written back as the Python that builds it: a project class's instance as its
constructor call (or the expression the project builds it with:
:mod:`remora.code.values.owner_expressions`), its positional-only parameters by position
as the probe passes them (``Box(2, 3)`` for an ``__init__(self, width, height, /)`` or a
``__new__(cls, width, height, /)``: ``Box(width=2, height=3)`` raises TypeError), then the
calls that fill it (:mod:`remora.code.values.filled_instances`); ``{"__callable__": "str"}``
as the builtin's name, ``{"__returns__": V}`` as ``lambda *args, **kwargs: V`` (``lambda
item: V`` with ``"__takes__": ["item"]``),
``{"__function__": NAME}`` as the function of that name the test defines first,
``{"__set__": [items]}`` as a set (``{'a', 'b'}``, ``set()``), ``{"__tuple__": [items]}``
as a tuple (``(1, 2)``, ``(1,)``), ``{"__bytes__": text}`` as a bytes literal
(``b'abc'``), ``{"__type__": "int"}`` as the class's name (a class of the node's module
imported as an instance's is: :mod:`remora.code.values.unspelled_values`);
a ``*args`` list spread as positional arguments and a ``**kwargs`` dict as keywords, as the
probe passed them.
A generator function's call is drained into a list, as the probe drained it.
"""

from __future__ import annotations

import builtins
import math
import re
import sys
from collections.abc import Collection, Sequence
from keyword import iskeyword
from typing import Any

from remora.code.values.call_target import CallTarget
from remora.code.values.default_arguments import without_defaults
from remora.code.values.derived_sets import ClassLookup
from remora.code.values.filled_instances import (
    CALLS_KEY,
    constructor_arguments,
    is_item_assignment,
)
from remora.code.values.free_names import free_name
from remora.code.values.function_arguments import (
    FUNCTION_MARKER,
    function_definition,
    is_function,
)
from remora.code.values.parameters import CallParameter
from remora.code.values.unspelled_values import (
    BUILTIN_TYPES,
    BYTES_MARKER,
    SET_MARKER,
    TUPLE_MARKER,
    TYPE_MARKER,
    is_bytes,
    is_tuple,
    is_type,
)

__all__ = ["SET_MARKER", "CallRender", "snake_name"]

# The names a generated test binds itself (``result = ...``, ``pytest.raises(...) as
# excinfo``) and the modules it may import whatever the node's module holds.
_TEST_LOCALS = frozenset({"result", "excinfo"})
_TEST_MODULES = frozenset({"pytest", "asyncio", "itertools"})
# The most arguments a call passes by position where it could name them: past three, a
# reader cannot tell which is which.
_MOST_BY_POSITION = 3


def snake_name(name: str) -> str:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name.replace(".", "_"))
    return re.sub(r"_+", "_", spaced).strip("_").lower() or "value"


class CallRender:
    """Python source for one call of the node and the names that source needs; ``classes``
    reads the constructor of a class whose instance is an argument (the method's own class
    is read from the target)."""

    def __init__(
        self,
        target: CallTarget,
        module_names: set[str],
        classes: ClassLookup | None = None,
        plain: frozenset[str] = frozenset(),
    ) -> None:
        self.target = target
        self.module_names = module_names
        self.classes = classes
        # The packages the node's module imports by dotted name (``import shop.models``):
        # a class named through one (``shop.models.Product``) is imported as its module.
        self.plain_heads = {module.split(".")[0] for module in plain}
        self.imports: set[str] = set()
        self.modules: set[str] = set()
        # ``from module import name`` of another module than the node's (``from kit import
        # errors``, for ``errors.UnknownCommand``), as the node's module imports it.
        self.from_imports: set[tuple[str, str]] = set()
        self.instance = ""  # the variable holding a method's instance, once built
        # The functions the values name (:mod:`.function_arguments`), in order, and those
        # whose calls the test asserts, which record them.
        self.functions: list[str] = []
        self.recording: set[str] = set()

    def value(self, value: Any) -> str:
        if is_function(value):
            name = str(value[FUNCTION_MARKER])
            self.functions += [] if name in self.functions else [name]
            return name
        if isinstance(value, dict) and set(value) == {"__callable__"}:
            return str(value["__callable__"])  # a builtin, by its name
        if isinstance(value, dict) and set(value) == {"__returns__"}:
            return f"lambda *args, **kwargs: {self.value(value['__returns__'])}"
        if isinstance(value, dict) and set(value) == {"__returns__", "__takes__"}:
            takes = ", ".join(str(name) for name in value["__takes__"])
            return f"lambda {takes}: {self.value(value['__returns__'])}"
        if isinstance(value, dict) and set(value) == {SET_MARKER}:
            items = [self.value(v) for v in value[SET_MARKER]]
            return "{" + ", ".join(items) + "}" if items else "set()"
        if is_bytes(value):
            return repr(str(value[BYTES_MARKER]).encode("latin-1"))
        if is_tuple(value):
            items = [self.value(v) for v in value[TUPLE_MARKER]]
            return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
        if is_type(value):
            name = str(value[TYPE_MARKER])
            if name not in BUILTIN_TYPES:
                self._import(name)
            return name
        if isinstance(value, dict) and set(value) == {"__expression__"}:
            return self.expression(value["__expression__"])
        if isinstance(value, dict) and set(value) == {"__class__", "args"}:
            name = str(value["__class__"])
            self._import(name)
            args = value["args"] if isinstance(value["args"], dict) else {}
            params = self._constructor(name)  # those at their defaults left out, as a call's
            return f"{name}({self.spread(without_defaults(args, params), params)})"
        if isinstance(value, dict):
            return (
                "{" + ", ".join(f"{self.value(k)}: {self.value(v)}" for k, v in value.items()) + "}"
            )
        if isinstance(value, list):
            return "[" + ", ".join(self.value(v) for v in value) + "]"
        if isinstance(value, float) and not math.isfinite(value):
            return f"float({str(value)!r})"  # float('nan'), float('-inf'): no literal
        return repr(value)

    def expression(self, expression: dict[str, Any]) -> str:
        """An instance built as the project writes it (``where('name')``, ``Query().name``:
        :mod:`remora.code.values.owner_expressions`): the call of the module's name, then
        each attribute or item read on it."""
        name = str(expression["call"])
        self.imports.add(name.split(".")[0])
        given = [self.value(a) for a in expression.get("args") or []]
        given += [f"{k}={self.value(v)}" for k, v in (expression.get("keywords") or {}).items()]
        text = f"{name}({', '.join(given)})"
        for kind, key in expression.get("steps") or []:
            text += f".{key}" if kind == "attribute" else f"[{self.value(key)}]"
        return text

    def _constructor(self, name: str) -> Sequence[CallParameter]:
        """The parameters calling the class ``name`` takes: the method's owner's from the
        target, another's from ``classes``; none where neither knows it (a standard library
        class, or a target written by hand without them), and then every argument is
        written by keyword."""
        if name == self.target.get("owner"):
            return self.target.get("owner_parameters") or []
        found = self.classes(name) if self.classes is not None else None
        return [p.row() for p in found or ()]

    def arguments(self, args: dict[str, Any]) -> str:
        """The node's call arguments, spread over its parameters (:meth:`spread`), its
        required ones by position where a caller may pass them either way (up to
        :data:`_MOST_BY_POSITION`): ``items.append(3)``, as its users call it, where
        ``append(value=3)`` ties the test to a parameter's name (a reviewer: "renaming the
        parameter breaks it"). An optional one stays a keyword: ``include_empty=False``
        says what a bare ``False`` does not."""
        parameters = self.target["parameters"]
        required = {p["name"] for p in parameters if p.get("required")}
        return self.spread(args, parameters, required)

    def spread(
        self,
        args: dict[str, Any],
        parameters: Sequence[CallParameter],
        by_position: Collection[str] = (),
    ) -> str:
        """Positional-only parameters by position, in order, then those of ``by_position``
        a caller may pass either way; the rest by keyword (a constructor's:
        ``Money(cents=5)``). A ``*args`` list is spread after the parameters before it,
        written by position; a ``**kwargs`` dict is written as keywords (``**{...}`` for
        keys that are no names)."""
        kinds = {p["name"]: p["kind"] for p in parameters}
        spread = any(
            k == "var_positional" and isinstance(args.get(n), list) for n, k in kinds.items()
        )
        positional: list[str] = []
        placed: set[str] = set()
        for name, kind in kinds.items():
            if kind == "var_positional":
                if spread:
                    positional += [self.value(v) for v in args[name]]
                    placed.add(name)
                break
            either = kind == "positional_or_keyword"
            placeable = (
                kind == "positional_only"
                or (spread and either)
                or (either and name in by_position and len(positional) < _MOST_BY_POSITION)
            )
            if not placeable or name not in args:
                break
            positional.append(self.value(args[name]))
            placed.add(name)
        keywords: list[str] = []
        for key, value in args.items():
            if key in placed:
                continue
            if kinds.get(key) == "var_keyword" and isinstance(value, dict):
                named = all(str(k).isidentifier() and not iskeyword(str(k)) for k in value)
                keywords += (
                    [f"{k}={self.value(v)}" for k, v in value.items()]
                    if named
                    else [f"**{self.value(value)}"]
                )
                continue
            keywords.append(f"{key}={self.value(value)}")
        return ", ".join(positional + keywords)

    def setup(self, owner_args: dict[str, Any]) -> tuple[str, list[str]]:
        """(how the call starts, setup lines) for the node's kind."""
        target = self.target
        if target["kind"] != "method":
            self.imports.add(target["qualname"].split(".")[0])
            return target["qualname"], []
        # An instance the project builds with an expression is built by it (where('name')):
        # the test imports what the expression names, not the class.
        built = owner_args if set(owner_args) == {"__expression__"} else None
        if target["method_kind"] in ("staticmethod", "classmethod") or built is None:
            self.imports.add(target["owner"].split(".")[0])
        if target["method_kind"] in ("staticmethod", "classmethod"):
            return f"{target['owner']}.{target['name']}", []
        variable = self._instance_name(snake_name(target["owner"].split(".")[-1]))
        constructed = {"__class__": target["owner"], "args": constructor_arguments(owner_args)}
        build = f"{variable} = {self.value(built or constructed)}"
        self.instance = variable
        # An instance filled through its own methods first (filled_instances).
        fills = [self.filled(variable, step) for step in owner_args.get(CALLS_KEY) or []]
        return f"{variable}.{target['name']}", [build, *fills]

    def _import(self, name: str) -> None:
        """The import a class named ``name`` needs: a standard library class (``datetime.date``)
        its module (``import datetime``), whatever the node's module imported under that name;
        one named through a module the node's module imports by dotted name that module
        (``import shop.models``); any other the module's name for it, from the node's module."""
        head = name.split(".")[0]
        module = name.rpartition(".")[0]
        if module and head in sys.stdlib_module_names:
            self.modules.add(head)
        elif module and head in self.plain_heads:
            self.modules.add(module)
        else:
            self.imports.add(head)

    def _instance_name(self, name: str) -> str:
        """The instance's variable: ``name`` where nothing else of the test is called so,
        else the first free ``name_obj``. A local named as a global the test reads makes
        that global unbound in the whole test: ``store = store()`` raises
        UnboundLocalError, ``dict = Dict()`` hides the ``dict`` of ``type(result) is
        dict``. Taken: the method's name, the test's own locals, every name the node's
        module binds (what the test may import from it), the modules a test imports, the
        builtins and the keywords."""
        taken = {self.target["name"], *_TEST_LOCALS, *self.module_names, *self.imports}
        taken |= {*self.modules, *_TEST_MODULES}
        if name not in taken and not iskeyword(name) and not hasattr(builtins, name):
            return name
        return free_name(f"{name}_obj", taken)

    def filled(self, variable: str, step: dict[str, Any]) -> str:
        """One call that gives the instance content before the method's own; an item set
        through ``__setitem__`` as the project writes it: ``variable[key] = value``."""
        if is_item_assignment(step):
            key, value = (self.value(a) for a in step["args"])
            return f"{variable}[{key}] = {value}"
        given = [self.value(a) for a in step.get("args") or []]
        given += [f"{k}={self.value(v)}" for k, v in (step.get("keywords") or {}).items()]
        return f"{variable}.{step['method']}({', '.join(given)})"

    def call(
        self, args: dict[str, Any], owner_args: dict[str, Any], capped: int = 0
    ) -> tuple[str, list[str]]:
        """(the call expression, its set-up lines). A generator function's call is drained
        as the probe drained it: ``list(...)``, or its first ``capped`` items
        (``list(itertools.islice(..., capped))``) when it did not end."""
        callee, setup = self.setup(owner_args)
        if self.target["method_kind"] == "property":
            return self.drained(callee, capped), self._defined(setup)
        expression = f"{callee}({self.arguments(args)})"
        if self.target["is_async"]:
            self.modules.add("asyncio")
            expression = f"asyncio.run({expression})"
        return self.drained(expression, capped), self._defined(setup)

    def _defined(self, setup: list[str]) -> list[str]:
        """The set-up lines after the definitions of the functions the values name."""
        defined = [function_definition(name, name in self.recording) for name in self.functions]
        return [line for lines in defined for line in lines] + setup

    def drained(self, expression: str, capped: int = 0) -> str:
        """``expression`` as a list of its items when the node is a generator function."""
        if not self.target.get("is_generator"):
            return expression
        if not capped:
            return f"list({expression})"
        self.modules.add("itertools")
        return f"list(itertools.islice({expression}, {capped}))"

    def exception(self, name: str) -> str:
        """The exception class as the test names it; ValueError when it names none we can import."""
        if isinstance(getattr(builtins, name, None), type) and issubclass(
            getattr(builtins, name), BaseException
        ):
            return name
        if name in self.module_names:
            self.imports.add(name)
            return name
        raise ValueError(
            f"raises: {name!r} is neither a builtin exception "
            "nor a name the module defines or imports"
        )

    def piece(self, name: str, lines: list[str], fixtures: tuple[str, ...] = ()) -> dict[str, Any]:
        """The test function ``name`` of ``lines``, taking pytest's ``fixtures``."""
        body = "\n".join(f"    {line}" if line else "" for line in lines)
        piece: dict[str, Any] = {
            "name": name,
            "source": f"def {name}({', '.join(fixtures)}):\n{body}\n",
            "imports": sorted(self.imports),
            "modules": sorted(self.modules),
        }
        if self.from_imports:
            piece["from_imports"] = [list(pair) for pair in sorted(self.from_imports)]
        return piece
