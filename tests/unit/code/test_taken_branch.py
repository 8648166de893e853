"""The branch a call left its node by says the condition a test name states."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from ast_support import first_function

from remora.code.testgen.taken_branch import branch_words, given_words, is_rejection


def _returned(repr_: str) -> dict[str, Any]:
    return {"repr": repr_, "literal": True}


def _ran(function: ast.FunctionDef, *exits: int) -> set[int]:
    """Every line of the ``def`` but those of the other exits (``return``/``raise``)."""
    others = {
        n.lineno
        for n in ast.walk(function)
        if isinstance(n, ast.Return | ast.Raise) and n.lineno not in exits
    }
    return {n.lineno for n in ast.walk(function) if isinstance(n, ast.stmt)} - others


DRAW = """def draw(self):
    if not self._header and not self._rows:
        return
    return render(self._rows)
"""

SETDEFAULT = """def setdefault(self, key, default=None):
    if key in self:
        return self[key]
    else:
        self[key] = default
        return default
"""

DECODE = """def decode(self, hashid):
    try:
        numbers = parse(hashid)
        return numbers if hashid == self.encode(*numbers) else ()
    except ValueError:
        return ()
"""

UPDATE = """def update(self, *args, **kwargs):
    if len(args) > 1:
        raise TypeError("at most one")
    return None
"""

PRECISION = """def set_precision(self, width):
    if not isinstance(width, int) or width < 0:
        raise ValueError("width must be an integer")
    self._precision = width
"""

PAIR = """def pair(a, b):
    if a % b == 1:
        raise ValueError("out of step")
    return (a, b)
"""

SIZE = """def size(x):
    if x % 2:
        return "odd"
    return "even"
"""


def test_a_guard_on_the_instance_taken_says_what_was_empty() -> None:
    function = first_function(DRAW)
    row = {"returned": _returned("None"), "args": {}}
    assert branch_words(function, _ran(function, 3), row) == "header_and_rows_are_empty"


POP = """def pop(self, last=True):
    if not self:
        raise KeyError("nothing to pop")
    return self.take(last)
"""


def test_a_guard_on_the_instance_itself_says_it_was_empty() -> None:
    function = first_function(POP)
    row = {"raised": {"type": "KeyError"}, "args": {}}
    assert branch_words(function, _ran(function, 3), row) == "self_is_empty"


def test_the_else_of_a_membership_test_says_the_key_is_missing() -> None:
    function = first_function(SETDEFAULT)
    row = {"returned": _returned("'d'"), "args": {"key": "beta", "default": "d"}}
    assert branch_words(function, _ran(function, 6), row) == "key_is_missing"
    # Its other side (the key is there) says nothing a name can state.
    assert branch_words(function, _ran(function, 3), row) == ""


def test_a_caught_error_or_a_rejected_value_says_the_argument_is_invalid() -> None:
    function = first_function(DECODE)
    row = {"returned": _returned("()"), "args": {"hashid": "sample hashid"}}
    # A raise caught by the handler: the handler's return is the exit.
    assert branch_words(function, _ran(function, 6), row) == "hashid_is_invalid"
    # ``return numbers if ... else ()``: the empty side, taken on a failed test.
    assert branch_words(function, _ran(function, 4), row) == "hashid_is_invalid"
    none = {"returned": _returned("()"), "args": {"hashid": None}}
    assert branch_words(function, _ran(function, 6), none) == "hashid_is_none"


LOOKUP = """def get(self, key):
    try:
        expires, value = self._cache[key]
        return value
    except KeyError:
        return None
"""


def test_a_caught_key_error_or_a_value_not_among_the_choices_is_unknown() -> None:
    function = first_function(LOOKUP)
    row = {"returned": _returned("None"), "args": {"key": "alpha"}}
    assert branch_words(function, _ran(function, 6), row) == "key_is_unknown"
    choices = first_function(
        "def pick(algorithm):\n"
        "    if algorithm not in ('legacy', 'modern'):\n"
        "        raise ValueError('no such algorithm')\n"
        "    return algorithm\n"
    )
    raised = {"raised": {"type": "ValueError"}, "args": {"algorithm": "x"}}
    assert branch_words(choices, _ran(choices, 3), raised) == "algorithm_is_unknown"
    # Any other handler still says the value was not one the code accepts.
    other = first_function(LOOKUP.replace("KeyError", "ValueError"))
    assert branch_words(other, _ran(other, 6), row) == "key_is_invalid"


def test_a_guard_s_raise_on_one_argument_says_it_is_invalid() -> None:
    function = first_function(PRECISION)
    row = {"raised": {"type": "ValueError"}, "args": {"width": "sample width"}}
    assert branch_words(function, _ran(function, 3), row) == "width_is_invalid"


def test_a_length_test_of_star_args_says_how_many_were_given() -> None:
    function = first_function(UPDATE)
    row = {"raised": {"type": "TypeError"}, "args": {"args": ["a", "zz"]}}
    assert branch_words(function, _ran(function, 3), row) == "given_2_positional_arguments"
    assert given_words(1) == "given_one_positional_argument"
    assert given_words(0) == "given_no_positional_arguments"


REMOVE = """def remove(self, amount):
    if amount > self.quantity:
        raise OutOfStock(amount)
    if amount <= 0:
        raise ValueError(amount)
    self.quantity -= amount
"""


def test_a_strict_comparison_taken_says_which_side_the_argument_was_on() -> None:
    function = first_function(REMOVE)
    over = {"raised": {"type": "OutOfStock"}, "args": {"amount": 35}}
    assert branch_words(function, _ran(function, 3), over) == "amount_above_quantity"
    # ``amount <= 0`` taken: 0 or below, so "below_0" would claim too much.
    zero = {"raised": {"type": "ValueError"}, "args": {"amount": 0}}
    assert branch_words(function, _ran(function, 5), zero) == "amount_is_invalid"
    below = first_function("def f(n):\n    if n < 3:\n        return 'small'\n    return 'big'\n")
    small = {"returned": _returned("'small'"), "args": {"n": 1}}
    assert branch_words(below, _ran(below, 3), small) == "n_below_3"


PORT = """def add_port(self, port):
    port_int = int(port)
    if port_int < 0:
        raise ValueError("negative")
    return port_int
"""


def test_a_parameter_converted_into_a_local_is_named_as_the_parameter() -> None:
    # rfc3986's ``add_port(-1)``: "rename it to say negative port", not raises_value_error.
    function = first_function(PORT)
    row = {"raised": {"type": "ValueError"}, "args": {"port": -1}}
    assert branch_words(function, _ran(function, 4), row) == "port_below_0"
    # Bound twice, the local is not the parameter any more.
    twice = first_function(
        PORT.replace("    if port_int", "    port_int = -port_int\n    if port_int")
    )
    assert branch_words(twice, _ran(twice, 5), row) == ""


def test_a_parameter_cased_or_stripped_into_a_local_is_named_as_the_parameter() -> None:
    # The search's rule of "the same value" (input_sources.same_value) names it too.
    function = first_function(
        "def pick(name):\n"
        "    key = name.strip().casefold()\n"
        "    if key == 'posix':\n"
        "        return 1\n"
        "    return 0\n"
    )
    row = {"returned": _returned("1"), "args": {"name": " POSIX"}}
    assert branch_words(function, _ran(function, 4), row) == "name_is_posix"


@pytest.mark.parametrize(
    ("source", "exit_line", "row"),
    [
        # Two arguments tested: which one the code refused is not known.
        (PAIR, 3, {"raised": {"type": "ValueError"}, "args": {"a": 2, "b": 1}}),
        # A result that is no rejection, through a test no words state.
        (SIZE, 3, {"returned": _returned("'odd'"), "args": {"x": 5}}),
        # The plain path, outside any branch.
        (SIZE, 4, {"returned": _returned("'even'"), "args": {"x": 2}}),
    ],
)
def test_a_branch_no_words_state_names_no_condition(
    source: str, exit_line: int, row: dict[str, Any]
) -> None:
    function = first_function(source)
    assert branch_words(function, _ran(function, exit_line), row) == ""


def test_without_the_lines_it_ran_a_call_names_no_branch() -> None:
    row = {"returned": _returned("None"), "args": {}}
    assert branch_words(first_function(DRAW), set(), row) == ""
    assert branch_words(None, {2, 3}, row) == ""


@pytest.mark.parametrize(
    ("row", "rejected"),
    [
        ({"raised": {"type": "KeyError"}}, True),
        ({"returned": _returned("None")}, True),
        ({"returned": _returned("''")}, True),
        ({"returned": _returned("()")}, True),
        ({"returned": _returned("0")}, False),
        ({"returned": _returned("'x'")}, False),
        ({"returned": {"repr": "<Order>", "literal": False}}, False),
    ],
)
def test_a_rejection_is_a_raise_or_an_empty_or_none_result(
    row: dict[str, Any], rejected: bool
) -> None:
    assert is_rejection(row) is rejected


SPAN = """def span(self, start=None, end=None, step=1):
    if start is None and end is None:
        raise ValueError("start or end required")
    if start is not None and end is not None:
        raise ValueError("only start or end allowed")
    if step is not None and self.scale is not None:
        return step * self.scale
    return start
"""


def test_a_test_that_an_argument_is_not_none_says_it_was_given() -> None:
    function = first_function(SPAN)
    both = {"raised": {"type": "ValueError"}, "args": {"start": "a", "end": "b"}}
    # Not "": both sides given is the case the raise is for.
    assert branch_words(function, _ran(function, 5), both) == "start_and_end_are_given"
    neither = {"raised": {"type": "ValueError"}, "args": {"start": None, "end": None}}
    assert branch_words(function, _ran(function, 3), neither) == "start_and_end_are_none"
    # A parameter whose default is not None is not "given" by being other than None; an
    # attribute of the instance is set.
    scaled = {"returned": _returned("2"), "args": {"start": 1, "step": 2}}
    assert branch_words(function, _ran(function, 7), scaled) == "step_is_not_none_and_scale_is_set"


GET_PART = """def get_part(doc, part):
    if isinstance(doc, Mapping):
        return part
    elif isinstance(doc, str):
        raise TypeError("not a container")
    elif isinstance(doc, (list, tuple)):
        return int(part)
    else:
        raise TypeError("no indexing")
"""


def test_an_isinstance_test_taken_names_the_class() -> None:
    function = first_function(GET_PART)
    text = {"raised": {"type": "TypeError"}, "args": {"doc": "sample doc", "part": "a"}}
    # Not "doc_is_invalid", which the number below is too.
    assert branch_words(function, _ran(function, 5), text) == "doc_is_str"
    mapping = {"returned": _returned("'a'"), "args": {"doc": {}, "part": "a"}}
    assert branch_words(function, _ran(function, 3), mapping) == "doc_is_mapping"
    # A tuple of classes names none; the last ``else``'s refusal is an invalid value.
    listed = {"returned": _returned("1"), "args": {"doc": [0, 1], "part": "1"}}
    assert branch_words(function, _ran(function, 7), listed) == ""
    number = {"raised": {"type": "TypeError"}, "args": {"doc": 1, "part": "a"}}
    assert branch_words(function, _ran(function, 9), number) == "doc_is_invalid"


FIRST_OF_TYPE = """def first_of_type(self, xpath):
    if xpath.element == "*":
        raise ExpressionError("*:first-of-type is not implemented")
    if self.mode == "strict":
        return None
    return xpath
"""


def test_an_equality_taken_names_the_value_that_took_it() -> None:
    # cssselect's ``xpath_first_of_type_pseudo`` test was named ``when_xpath_is_invalid``: the
    # expression was valid, its universal element was the trigger (reviewer: edit).
    function = first_function(FIRST_OF_TYPE)
    star = {"raised": {"type": "ExpressionError"}, "args": {"xpath": {"element": "*"}}}
    assert branch_words(function, _ran(function, 3), star) == "xpath_element_is_star"
    strict = {"returned": _returned("None"), "args": {"xpath": {"element": "p"}}}
    assert branch_words(function, _ran(function, 5), strict) == "mode_is_strict"
    # The other side of an equality says nothing a name can state.
    other = first_function(FIRST_OF_TYPE.replace('xpath.element == "*"', 'xpath.element != "*"'))
    assert branch_words(other, _ran(other, 3), star) == "xpath_is_invalid"


def test_a_falsy_number_is_named_by_its_value_not_as_empty() -> None:
    # ``Version.parse(0)`` was named ``when_version_string_is_empty`` (both reviewers: edit,
    # "passes the integer 0 instead of the empty string its name promises").
    function = first_function(
        "def parse(version_string):\n"
        "    if not version_string:\n"
        "        raise ValueError('Invalid empty version string')\n"
        "    return version_string\n"
    )
    for value, words in ((0, "version_string_is_0"), ("", "version_string_is_empty")):
        row = {"raised": {"type": "ValueError"}, "args": {"version_string": value}}
        assert branch_words(function, _ran(function, 3), row) == words
