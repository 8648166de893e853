"""Strings holding what the code's string methods look for: ``s.replace("~", "~0")`` -> ``"a~b"``.

A string method given a constant (``replace``, ``split``, ``partition``, ``count``,
``find``, ``index``, ``removeprefix``...) does its work only on text that holds
that constant: ``escape("sample s")`` returns its input unchanged, and its test
pins nothing (:mod:`remora.code.testgen.no_op_calls` leaves such a test out). So a
parameter the code calls such methods on, directly or down a chain
(``s.replace("~", "~0").replace("/", "~1")``), gets one string holding every
constant looked for, in the order the chain looks, then one per constant:
``"a~b/c"``, ``"a~b"``, ``"a/b"``. A constant may be a name the module or the
function binds. Read with :mod:`ast`; nothing runs here.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from remora.code.values.input_sources import fold_constant
from remora.code.values.parameters import parameter_names

__all__ = ["sought_strings"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
_LOOKING = frozenset(
    {
        "replace",
        "split",
        "rsplit",
        "partition",
        "rpartition",
        "count",
        "find",
        "rfind",
        "index",
        "rindex",
        "removeprefix",
        "removesuffix",
    }
)
_MAX_WORDS = 30


def _words(text: str) -> str:
    """``tilde_0`` for ``"~0"``: runs of letters and digits as they are, other characters
    by their Unicode name."""
    parts: list[str] = []
    run = ""
    for ch in text:
        if ch.isascii() and ch.isalnum():
            run += ch.lower()
            continue
        parts += [run] if run else []
        run = ""
        parts.append(unicodedata.name(ch, f"u{ord(ch):04x}").lower())
    parts += [run] if run else []
    return "_".join(re.sub(r"[^a-z0-9]+", "_", p) for p in parts)[:_MAX_WORDS].strip("_")


def _together_words(items: list[tuple[str, str]]) -> str:
    """Words for a string holding every constant looked for: each one's words where all fit
    (``percent_sign_and_number_sign``), else how many there are (``all_5_replaced_characters``):
    a cut list named two of five characters and ended in half a word
    (``ampersand_and_quotation_mark_a``, a blind reviewer's edit)."""
    words = "_and_".join(_words(text) for text, _m in items)
    if len(words) <= _MAX_WORDS:
        return words
    verb = "replaced" if all(method == "replace" for _t, method in items) else "sought"
    noun = "characters" if all(len(text) == 1 for text, _m in items) else "texts"
    return f"all_{len(items)}_{verb}_{noun}"


def _chain(call: ast.Call, constants: Mapping[str, Any]) -> tuple[ast.expr, list[tuple[str, str]]]:
    """The expression the chain of string methods starts from, and each method's
    constant with the method, innermost first."""
    found: list[tuple[str, str]] = []
    node: ast.expr = call
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _LOOKING
    ):
        known, value = fold_constant(node.args[0], constants) if node.args else (False, None)
        if known and isinstance(value, str) and value:
            found.append((value, node.func.attr))
        node = node.func.value
    return node, found[::-1]


def _holding(sought: str, method: str) -> str:
    if method == "removeprefix":
        return f"{sought}a"
    if method == "removesuffix":
        return f"a{sought}"
    return f"a{sought}b"


def sought_strings(function: Function, constants: Mapping[str, Any]) -> list[tuple[str, Any, str]]:
    """``(parameter, value, words)``: for each parameter a chain of string methods looks
    into, a string holding all the constants they look for, then one for each."""
    params = parameter_names(function)
    sought: dict[str, list[tuple[str, str]]] = {}
    for node in ast.walk(function):  # an outer call first: its chain holds the inner ones
        if not isinstance(node, ast.Call):
            continue
        start, found = _chain(node, constants)
        if isinstance(start, ast.Name) and start.id in params:
            known = sought.setdefault(start.id, [])
            known += [item for item in found if item not in known]
    out: list[tuple[str, Any, str]] = []
    for name, items in sought.items():
        if len(items) > 1:
            together = "a" + "".join(
                f"{text}{chr(ord('b') + i)}" for i, (text, _m) in enumerate(items)
            )
            out.append((name, together, f"{name}_has_{_together_words(items)}"))
        out += [(name, _holding(text, m), f"{name}_has_{_words(text)}") for text, m in items]
    return out
