"""The value search the test and sample_data agents share: arguments worth trying, with no run.

Everything here reads the project's source (``ast``, the parsing core); nothing calls its
code (that is :mod:`remora.code.probes`).

- :mod:`.host_candidates`: round one of the search, every source below put together;
- :mod:`.derived_sets`: argument sets derived from names, annotations and defaults;
- :mod:`.constructor`: what ``ClassName(...)`` accepts, by Python's rules, looked up by
  name in the node's module or one it imports from (:mod:`.class_lookup`); a dataclass
  field's declaration (:mod:`.dataclass_fields`);
- :mod:`.parameters`: a parameter as a caller sees it; :mod:`.call_target`: how a caller
  reaches the node; :mod:`.annotations`: an annotation's head, alternatives and item
  types, read one way; :mod:`.kind_samples`: one typical and one empty value per kind;
- :mod:`.input_search`: boundaries the code branches on, and the fewest sets that cover
  the most; :mod:`.input_sources`: the constants and locals behind them;
  :mod:`.paired_boundaries`: boundaries between two parameters (``value < low``);
  :mod:`.usage_kinds`: what a parameter's use says it is; :mod:`.regex_arguments`:
  strings a pattern examines (:mod:`.regex_samples`: strings a pattern matches);
- :mod:`.instance_search`: the instances a method's reads of its own state ask for (with
  one-item collections: :mod:`.collection_items`); :mod:`.owner_expressions`: an instance
  the project builds with an expression (``where('name')``, ``Query().name``), not a bare
  constructor call; :mod:`.built_instances`: one its code or docs build and then fill
  through its methods (``t = Texttable()``, ``t.add_rows([...])``);
  :mod:`.method_state`: the state a method changes (in the container its instance is:
  :mod:`.own_contents`; not from a clock or a random source: :mod:`.unstable_sources`),
  and :mod:`.value_asserts`: the asserts of the values the probe saw;
  :mod:`.instance_members`: an instance holding elements for a method that looks its
  argument up in it or compares a collection with it; :mod:`.attribute_uses`:
  the attributes a constructor stores from its parameters and the kind the class's uses
  of each say (a mapping, a callable);
- :mod:`.keyed_arguments`, :mod:`.collection_arguments`, :mod:`.callable_arguments`,
  :mod:`.float_values`: values the code's reads, loops, calls and checks ask for;
  :mod:`.function_arguments`: a function the test defines, recording its calls, for a
  parameter annotated as a callable that other code calls later;
  :mod:`.mapping_shapes`: a mapping whose values are of the kind their uses say (a dict
  of sets for a graph);
- :mod:`.argument_fit`: values a parameter's annotation or uses exclude (no string where
  the code uses a parameter as a type, a mapping or a collection of items no character
  is: :mod:`.non_text_uses`, over the reads :mod:`.parameter_reads` finds);
- :mod:`.project_values`, :mod:`.call_sites`, :mod:`.sourced_strings`: values the project
  itself offers (its calls, doctests, tables and strings);
- :mod:`.call_text`: arguments a model writes as Python text; :mod:`.call_render`: a call
  written back as the Python a test holds; :mod:`.unspelled_values`: tuples and classes,
  which JSON cannot spell, as markers, and :mod:`.tuple_type_arguments`: where the code
  asks for them;
- :mod:`.private_helpers`: a private helper is searched through its public caller;
  :mod:`.caller_frames`: a node that reads its caller's frame is searched not at all;
- :mod:`.builtin_overrides`: an override of a builtin base's method is called by
  position where the builtin's callers must pass by position.
"""

from remora.code.values.builtin_overrides import builtin_positional_count
from remora.code.values.call_render import CallRender, snake_name
from remora.code.values.call_target import CallTarget, is_instance_method
from remora.code.values.call_text import arguments_from_text, value_from_text
from remora.code.values.caller_frames import caller_frame_reason
from remora.code.values.class_lookup import class_lookup, project_class_lookup
from remora.code.values.collection_arguments import unread_keyword_words
from remora.code.values.constructor import (
    ConstructorParameters,
    constructor_of,
    reachable_class,
)
from remora.code.values.default_arguments import falsy_stand_ins, without_defaults
from remora.code.values.derived_sets import (
    ArgumentSet,
    ClassLookup,
    argument_sets,
    literal_default,
)
from remora.code.values.function_arguments import contains_function
from remora.code.values.host_candidates import host_candidates, node_function
from remora.code.values.input_search import Candidate, greedy_cover
from remora.code.values.instance_members import empty_variadic_call
from remora.code.values.instance_search import owner_candidates
from remora.code.values.lazy_iterators import returns_lazy_iterator
from remora.code.values.method_state import (
    first_parameter,
    is_self_attribute,
    observed_attributes,
)
from remora.code.values.own_contents import contents_asserts, observed_contents
from remora.code.values.owner_expressions import owner_expressions
from remora.code.values.parameters import CallParameter, Parameter, parameter_names, parameter_of
from remora.code.values.private_helpers import public_caller
from remora.code.values.project_values import owner_arguments
from remora.code.values.sourced_strings import project_strings, unsourced
from remora.code.values.value_asserts import (
    Imports,
    approx_text,
    counted,
    state_asserts,
    truth_assert,
    value_assert,
    value_asserts,
)
from remora.code.values.value_words import label

__all__ = [
    "ArgumentSet",
    "CallParameter",
    "CallRender",
    "CallTarget",
    "Candidate",
    "ClassLookup",
    "ConstructorParameters",
    "Imports",
    "Parameter",
    "approx_text",
    "argument_sets",
    "arguments_from_text",
    "builtin_positional_count",
    "caller_frame_reason",
    "class_lookup",
    "constructor_of",
    "contains_function",
    "contents_asserts",
    "counted",
    "empty_variadic_call",
    "falsy_stand_ins",
    "first_parameter",
    "greedy_cover",
    "host_candidates",
    "is_instance_method",
    "is_self_attribute",
    "label",
    "literal_default",
    "node_function",
    "observed_attributes",
    "observed_contents",
    "owner_arguments",
    "owner_candidates",
    "owner_expressions",
    "parameter_names",
    "parameter_of",
    "project_class_lookup",
    "project_strings",
    "public_caller",
    "reachable_class",
    "returns_lazy_iterator",
    "snake_name",
    "state_asserts",
    "truth_assert",
    "unread_keyword_words",
    "unsourced",
    "value_assert",
    "value_asserts",
    "value_from_text",
    "without_defaults",
]
