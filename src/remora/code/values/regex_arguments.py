"""Strings for a parameter a regular expression examines: one that matches, one that does not.

For ``re.search(P, s)`` or ``PATTERN.search(s)`` with a known pattern (a literal, or a
module constant :mod:`remora.code.values.input_sources` resolves), samples are built from
the pattern's parse tree (the ``re`` module's own parser) and checked against the
compiled pattern (:mod:`remora.code.values.regex_samples`). Nothing of the project runs.

A case is worded by the pattern it was built for where the module names that pattern
(``s_matching_iso8601_regex``); an inline pattern has no name, and "matching pattern"
said nothing (smartypants' ``convert_dashes_oldschool``: two ``re.sub`` calls, each
pattern inline, and ``"--"`` read ``when_text_not_matching_pattern`` though the second
one matches it: a blind reviewer called the name false). Such a case is worded by the
text itself (``text_is_dash_dash``), as is one of a private pattern: uritools'
``when_authority_matching_authority_re_str`` named a test after ``_AUTHORITY_RE_STR``,
which the test never shows (its reviewer's edit).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from remora.code.values.call_render import snake_name
from remora.code.values.input_sources import fold_constant, substitute
from remora.code.values.parameters import parameter_names
from remora.code.values.regex_samples import Pattern, pattern_samples, regex_flags
from remora.code.values.value_words import label

__all__ = ["regex_values"]

_REGEX_FUNCTIONS = {
    "search": 1,
    "match": 1,
    "fullmatch": 1,
    "split": 1,
    "findall": 1,
    "finditer": 1,
    "sub": 2,
    "subn": 2,
}


def _regex_call(
    call: ast.Call, constants: Mapping[str, Any]
) -> tuple[Pattern, ast.expr, str] | None:
    """The pattern, the subject and the function of ``re.search(P, s)`` or ``P.search(s)``."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _REGEX_FUNCTIONS:
        return None
    if isinstance(func.value, ast.Name) and func.value.id == "re":
        at = _REGEX_FUNCTIONS[func.attr]
        if len(call.args) <= at:
            return None
        known, text = fold_constant(call.args[0], constants)
        flags_at = at + (3 if func.attr in ("sub", "subn") else 1)
        flags_node = call.args[flags_at] if len(call.args) > flags_at else None
        flags_node = next((k.value for k in call.keywords if k.arg == "flags"), flags_node)
        flags = 0 if flags_node is None else regex_flags(flags_node)
        if not (known and isinstance(text, str) and flags is not None):
            return None
        return Pattern(text, flags), call.args[at], func.attr
    known, compiled = fold_constant(func.value, constants)
    at = _REGEX_FUNCTIONS[func.attr] - 1
    if known and isinstance(compiled, Pattern) and len(call.args) > at:
        return compiled, call.args[at], func.attr
    return None


def regex_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    constants: Mapping[str, Any],
    derived: Mapping[str, ast.expr],
) -> list[tuple[str, Any, str]]:
    """For each string of one parameter a regular expression examines, a string matching
    the pattern and one that does not: ``(parameter, value, words)``."""
    params = parameter_names(function)
    found: list[tuple[str, Any, str]] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Call) or (call := _regex_call(node, constants)) is None:
            continue
        pattern, subject, how = call
        names = {
            n.id
            for n in ast.walk(substitute(subject, derived))
            if isinstance(n, ast.Name) and n.id in params
        }
        if len(names) != 1:
            continue
        name = names.pop()
        matching, unmatched = pattern_samples(pattern, how)
        what = _pattern_words(node)
        found += [(name, text, _case_words(name, text, what, True)) for text in matching]
        if unmatched is not None:
            found.append((name, unmatched, _case_words(name, unmatched, what, False)))
    return found


# How an inline pattern (``re.sub("--", ...)``) is worded: it has no name of its own.
_INLINE = "pattern"


def _case_words(name: str, text: str, what: str, matching: bool) -> str:
    """How a case reads: by its text where the pattern is inline, else by whether it
    matches the pattern the module names (``s_not_matching_iso8601_regex``)."""
    spelt = label(text) if what == _INLINE else ""
    if spelt:
        return f"{name}_is_{spelt}"
    return f"{name}_{'' if matching else 'not_'}matching_{what}"


def _pattern_words(call: ast.Call) -> str:
    """``ROMAN_PATTERN.search(s)`` -> ``roman_pattern``; ``re.sub(...)`` and a private
    pattern (``_AUTHORITY_RE_STR.match(s)``, which no reader of the test sees) ->
    ``pattern``, worded by the text."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id != "re"
        and not func.value.id.startswith("_")
    ):
        return snake_name(func.value.id)  # ISO8601_REGEX: iso8601_regex, not i_s_o8601__r_e…
    return _INLINE
