"""Round one of the test search: the argument sets worth trying, with no model.

The typical set (derived from the signature, then fitted to how the code uses
each parameter) varied one parameter at a time at each boundary the code tests
(:mod:`remora.code.values.input_search`), at the values its tables hold
(:mod:`remora.code.values.project_values`), for the parameters it calls
(:mod:`remora.code.values.callable_arguments`) and those holding several values
(:mod:`remora.code.values.collection_arguments`; a mapping's values of the kind their
uses say: :mod:`remora.code.values.mapping_shapes`); a method's owner in each state it
branches on, and holding elements where the method looks its argument up in it
(:mod:`remora.code.values.instance_members`); docstring examples and the project's own
calls. A class's constructor parameter stored as an attribute its methods use as a
mapping or call is one (:mod:`remora.code.values.attribute_uses`); a method's parameter
its class uses as a list of values or a bit flag is one (:mod:`remora.code.values.stored_shapes`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.parsing import located_definition, module_names
from remora.code.values.annotations import builtin_kind, first_head
from remora.code.values.argument_fit import excluded_value
from remora.code.values.attribute_uses import fitted_values, stored_kinds, unfit_value
from remora.code.values.built_instances import built_candidates
from remora.code.values.call_sites import doctest_calls
from remora.code.values.call_target import CallTarget
from remora.code.values.call_text import arguments_from_text
from remora.code.values.callable_arguments import called_parameter_values
from remora.code.values.class_lookup import project_class_lookup
from remora.code.values.collection_arguments import collection_values, dict_parameters
from remora.code.values.compared_kinds import compared_base
from remora.code.values.constructor import own_init
from remora.code.values.derived_sets import ArgumentSet, argument_sets, literal_default
from remora.code.values.filled_instances import CALLS_KEY, is_filled
from remora.code.values.float_values import non_finite_values
from remora.code.values.function_arguments import function_arguments
from remora.code.values.held_arguments import held_arguments
from remora.code.values.imported_modules import imported_constants, project_reader
from remora.code.values.input_search import Candidate, boundary_search, vary
from remora.code.values.input_sources import derived_locals, local_constants, module_constants
from remora.code.values.instance_members import empty_variadic_call, member_candidates
from remora.code.values.instance_search import (
    filled_candidates,
    owner_candidates,
    state_boundaries,
)
from remora.code.values.keyed_arguments import fitted_arguments
from remora.code.values.kind_samples import sample
from remora.code.values.literal_choices import within_choices
from remora.code.values.mapping_shapes import mapping_samples
from remora.code.values.named_values import NAMED_STRINGS, by_name
from remora.code.values.non_text_uses import walked_lists
from remora.code.values.overlapping_collections import (
    overlapping_arguments,
    repeated_item_arguments,
)
from remora.code.values.paired_boundaries import paired_boundaries, spread_base
from remora.code.values.parameters import parameter_names, parameter_of
from remora.code.values.placeholders import made_up, made_up_text
from remora.code.values.project_literals import project_literals
from remora.code.values.project_values import (
    named_defaults,
    owner_arguments,
    project_built,
    project_calls,
    table_values,
)
from remora.code.values.sentinel_defaults import sentinel_parameters
from remora.code.values.sought_strings import sought_strings
from remora.code.values.stored_shapes import stored_shapes, unfit_shape
from remora.code.values.tuple_type_arguments import (
    annotated_tuples,
    class_base,
    tuple_type_values,
)
from remora.code.values.type_aliases import (
    project_aliases,
    resolved_annotation,
    resolved_parameters,
)
from remora.code.values.usage_kinds import usage_kinds

__all__ = ["MAX_CANDIDATES", "host_candidates", "node_function"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
MAX_CANDIDATES = 48
# The annotations of a buffer: a value of them is bytes (``b"aaaa"``), never text.
_BYTES = frozenset({"bytes", "bytearray", "memoryview"})


def node_function(context: CodeContext) -> Function | None:
    """The run's function as ``ast`` sees it (None for a class or file, or a text that
    does not parse)."""
    node = context.bound_node()
    found = located_definition(context.node_file_text(), node.full_name, node.start_line)
    return found if isinstance(found, Function) else None


def _kinds(target: CallTarget, aliases: Mapping[str, str]) -> dict[str, str]:
    """The builtin type of each parameter, from its annotation (its aliases put in:
    ``hints.Buffer``) or its literal default; ``bytes`` for ``bytes``, ``bytearray`` or
    ``memoryview`` first."""
    kinds: dict[str, str] = {}
    for row in target["parameters"]:
        annotation = resolved_annotation(row.get("annotation"), aliases)
        kind = builtin_kind(annotation) or ("bytes" if first_head(annotation) in _BYTES else "")
        known, default = literal_default(row.get("default"))
        if kind:
            kinds[row["name"]] = kind
        elif known and default is not None:
            kinds[row["name"]] = type(default).__name__
    return kinds


def _text_sets(
    context: CodeContext, target: CallTarget, texts: list[str], why: str
) -> list[Candidate]:
    params = [parameter_of(p) for p in target["parameters"]]
    lookup = project_class_lookup(context)
    out: list[Candidate] = []
    for text in texts:
        try:
            out.append(Candidate(arguments_from_text(text, params, lookup), why))
        except ValueError:
            continue  # an example the node's parameters do not take
    return out


def _with_literals(args: dict[str, Any], literals: dict[str, Any]) -> dict[str, Any]:
    """``args`` with each value the search made up, or took from the name table
    (``name="Alice"``), replaced by the project's literal for that parameter, where its
    calls pass one."""
    return {
        name: literals[name] if name in literals and _guessed(name, value) else value
        for name, value in args.items()
    }


def _guessed(name: str, value: Any) -> bool:
    named = [by_name(name, NAMED_STRINGS, variant) for variant in (0, 1)]
    return made_up(name, value) or any(found and value == v for found, v in named)


def _shown_in_place(candidates: list[Candidate], shown: list[Candidate]) -> list[Candidate]:
    """The candidates with each made-up text (``"sample s0"``, ``"other s0"``) in place of
    which the project's examples and calls (``shown``) pass texts for that parameter: the
    first text shown for the first placeholder, the second for the other, wherever a
    candidate passes it, so that two equal placeholders stay equal. Its README's
    ``damerau.distance("ABCDEF", "ABDCEF")`` makes ``distance(None, "ABDCEF")`` of the
    case of a ``None`` (blind reviewers asked for "a real string there")."""
    swaps: dict[str, str] = {}
    for name in {name for candidate in shown for name in candidate.args}:
        texts = [c.args[name] for c in shown if isinstance(c.args.get(name), str)]
        for variant, text in enumerate(list(dict.fromkeys(texts))[:2]):
            swaps.setdefault(made_up_text(name, variant), text)
    if not swaps:
        return candidates
    return [
        replace(
            c, args={k: swaps.get(v, v) if isinstance(v, str) else v for k, v in c.args.items()}
        )
        for c in candidates
    ]


def _literal_candidate(candidate: Candidate, literals: dict[str, Any]) -> Candidate:
    """The candidate with the project's literals in place of made-up values
    (:func:`_with_literals`), in the calls that fill its instance too where they passed
    the same value (``on("sample event", f=handler)`` before ``emit("sample event")``)."""
    args = _with_literals(candidate.args, literals)
    swapped = {
        old: args[name]
        for name, old in candidate.args.items()
        if isinstance(old, str) and args[name] != old
    }
    owner = candidate.owner_args
    if not swapped or not owner or not is_filled(owner):
        return replace(candidate, args=args)

    def same(value: Any) -> Any:
        return swapped.get(value, value) if isinstance(value, str) else value

    steps = [
        {
            **step,
            "args": [same(v) for v in step.get("args") or []],
            "keywords": {k: same(v) for k, v in (step.get("keywords") or {}).items()},
        }
        for step in owner[CALLS_KEY]
    ]
    return replace(candidate, args=args, owner_args={**owner, CALLS_KEY: steps})


def host_candidates(context: CodeContext, target: CallTarget) -> list[Candidate]:
    """Round one: the typical set varied at each boundary, a method's owner in each state it
    branches on, dicts with the keys read, doctest examples, call sites."""
    aliases = project_aliases(context)  # ``key: Key`` with ``Key = Tuple[str, ...]``
    params = resolved_parameters([parameter_of(p) for p in target["parameters"]], aliases)
    lookup = project_class_lookup(context)
    # An instance of a project class as the project builds it, where it does from literals.
    sets = [
        ArgumentSet(name=row["name"], args=project_built(context, row["args"], lookup))
        for row in argument_sets(params, lookup, 4)
    ]
    base = sets[0]["args"] if sets else {}
    text = context.node_file_text()
    function = node_function(context)
    if function is None and target["kind"] == "class":  # the branches of what builds it
        function = own_init(text, target["qualname"])
    fitted: list[Candidate] = []
    called: list[tuple[str, Any, str]] = []
    functions: dict[str, Any] = {}
    module = python_ast.parse(text)  # its constants, patterns and the helpers it calls
    mappings: dict[str, list[tuple[Any, str]]] = {}
    as_stored = stored_shapes(function, module) if function is not None else {}
    if function is not None:  # a value its use says the code wants, where the name misled
        annotated = {p.name for p in params if p.annotation}  # ``base: set``: not ``|``'s int
        for name, value in usage_kinds(function).items():
            if name in base and name not in annotated and type(base[name]) is not type(value):
                base[name] = value
        base.update(walked_lists(function, base))  # seq=["sample seq", ...] for ``for x in seq``
        # A list of per-item values, a bit flag of the class's constants: as its class uses it.
        for name, shape in as_stored.items():
            if name in base and (isinstance(shape, int) or not isinstance(base[name], list)):
                base[name] = shape
        base.update(compared_base(function, module, params, base))  # month=2, not "sample month"
        for name in dict_parameters(function, module) & set(base):
            if not base[name] or not isinstance(base[name], dict):
                base[name] = sample("dict")  # a loop over it runs, its values go both ways
        # Values of the kind their uses say (a dict of sets), where no instance was chosen.
        shapes = mapping_samples(function, module).items()
        mappings = {n: s for n, s in shapes if n in base and "__class__" not in base[n]}
        base.update({name: samples[0][0] for name, samples in mappings.items()})
        defaults = {str(p["name"]): p.get("default") for p in target["parameters"]}
        keep_default, callables, called = called_parameter_values(function, defaults)
        base.update({n: v for n, v in callables.items() if n in base})
        # A function it keeps for other code to call (connect(receiver)): one the test defines.
        functions = function_arguments(params, {*callables, *keep_default})
        base.update({n: v for n, v in functions.items() if n in base})
        base.update(class_base(function, base))  # sig=(int,) for issubclass(a, b) over a sig
        for name in keep_default:
            base.pop(name, None)
        shaped, fitted = fitted_arguments(
            function, target["parameters"], base, sorted(module_names(text)), lookup
        )
        base.update(shaped)
    base.update(named_defaults(context, module, target["parameters"]))
    # A parameter the class's methods read as a mapping (or call) is one; a mapping empty too.
    stored = stored_kinds(text, target["qualname"], params) if target["kind"] == "class" else {}
    base.update(fitted_values(base, stored))
    # ``LINE_TYPE_ADDED`` of ``from .constants import LINE_TYPE_ADDED``: its value is there.
    path = context.bound_node().file_path
    imported = imported_constants(module, path, project_reader(context))
    found = (
        boundary_search(function, _kinds(target, aliases), module, imported)
        if function
        else ([], set())
    )
    values, edges = found
    values += [(n, {}, f"{n}_is_empty") for n, k in stored.items() if k == "dict" and n in base]
    if function is not None:  # ``value < low``: beside the other parameter's value in ``base``
        base.update(spread_base(function, base))  # clamp(5, 0, 10), not clamp(1, 1, 1)
        paired, paired_edges = paired_boundaries(function, base)
        values, edges = [*values, *paired], edges | paired_edges
        values += held_arguments(function, base)  # search="subject" where search in subject
        values += overlapping_arguments([p.name for p in params], base)  # a shared item
        constants = local_constants(function, {**imported, **module_constants(module)})
        values += sought_strings(function, constants)  # "a~b" where s.replace("~", ...)
    owner = owner_arguments(context, target) if target["kind"] == "method" else {}
    if function is not None:  # against the numbers of the instance the test builds
        values += state_boundaries(function, text, target, owner, _kinds(target, aliases))
    if function is not None:  # a name the module's tables hold, where the code looks one up
        values += called + collection_values(function, base, module)
        values += [(n, v, f"{n}_is_a_function") for n, v in functions.items() if n not in base]
        values += tuple_type_values(function, base, module)  # (1, 2), object, for isinstance
        values += [(n, v, w) for n, samples in mappings.items() for v, w in samples[1:]]
        values += non_finite_values(function, derived_locals(function, parameter_names(function)))
        tables = table_values(context, function, module, _kinds(target, aliases))
        values += within_choices(tables, params)  # category="cs" of a language: unknown
    docstring = (ast.get_docstring(function) or "") if function is not None else ""
    candidates = [replace(c, edge=c.why in edges) for c in vary(base, values)]
    if function is not None:  # [a, a, b, a], the other parameters at their defaults
        required = {n: v for n, v in base.items() if defaults.get(n) is None}
        repeated = repeated_item_arguments([p.name for p in params], base)
        candidates += [Candidate({**required, n: v}, why) for n, v, why in repeated]
    if function is not None:  # ``seq is MISSING``: the side where it was not passed
        candidates += [
            Candidate({k: v for k, v in base.items() if k != name}, f"{name}_is_omitted")
            for name in sentinel_parameters(function, defaults)
        ]
    candidates += owner_candidates(target, function, text, base, owner, lookup, imported)
    candidates += fitted
    # An instance holding content, given through its own methods: the overwrite, the eviction.
    candidates += filled_candidates(target, function, text, base, owner, lookup, aliases)
    # One the project's own code or docs build and fill (t = Texttable(); t.add_rows(...)).
    candidates += built_candidates(context, target, base)
    # An instance holding elements, for a parameter looked up in it or holding such elements.
    members, of_elements = member_candidates(target, function, text, base, owner, lookup)
    candidates += members
    # The other derived sets (defaults, alternative, edge values) vary every parameter at once.
    words = {"typical": "varied_arguments"}
    candidates += [
        Candidate(dict(row["args"]), words.get(row["name"], f"{row['name']}_arguments"))
        for row in sets[1:]
    ]
    shown = _text_sets(context, target, doctest_calls(docstring, target["name"]), "doc")
    shown += _text_sets(context, target, project_calls(context, target["name"]), "as_called")
    candidates += shown
    # What the project's own calls pass for a parameter (prefix="Hour"), not a made-up text.
    literals = project_literals(context, target)
    candidates = [_literal_candidate(c, literals) for c in candidates]
    candidates = _shown_in_place(candidates, shown)  # distance(None, "ABCDEF")
    # No value of a kind the node's annotations or uses exclude (a str for a datetime).
    candidates = [replace(c, args=annotated_tuples(c.args, params)) for c in candidates]
    members = [replace(c, args=annotated_tuples(c.args, params)) for c in members]
    fits = [
        c
        for c in candidates
        if excluded_value(function, params, c.args, lookup, module, aliases) is None
        and unfit_value(c.args, stored) is None
        and unfit_shape(c.args, as_stored) is None
        and not empty_variadic_call(target, c.args)
        # a value of elements from no source but the instance's own is a placeholder
        and (c in members or c.why in ("doc", "as_called") or not set(of_elements) & set(c.args))
    ]
    return fits[:MAX_CANDIDATES]
