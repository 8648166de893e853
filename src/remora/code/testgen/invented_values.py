"""The values a test must not show: those the value search made up, not found.

A placeholder (``"sample b"``, :func:`~remora.code.values.derived_sets.made_up`) is one.
So is the mapping the value search tries for the dict kind
(:data:`~remora.code.values.kind_samples.DICT_SAMPLE`, ``{"a": 1, "b": 0}``) where the
code wants keys of its own: blind reviewers merged none of the fifteen labelled tests
that passed it ("an arbitrary value", "junk pdict": pyjwt's JWKs, ply's rule dicts,
pystache's context stack, each read by key through another name or function). A node
that takes the parameter as any mapping, walking it (``d.items()``, ``for k in d``) or
looking up the keys its caller gives (``counts[key]``), and reads no key by a constant
(``valmap(str, {"a": 1, "b": 0})``, ``tally({"a": 1, "b": 0}, "a")``), keeps it; a
constructor's argument, whose uses are another function's, does not.

A text that names a codec (``"utf-8"``, ``"ascii"``, ``"utf8"``: ``codecs.lookup`` knows
it) is the project's word for an encoding, found in its code, not text: given to a
parameter the code does not use as one, it reads as arguments swapped (webencodings'
``decode("ascii", "")``: "looks like the arguments were swapped"; latexcodec's
``encode("utf8")``: "an encoding name used as text"; jsonpickle's ``encode("utf-8")``,
twice rejected). It counts as made up unless the parameter's name says an encoding
(``encoding``, ``codec``, ``charset``, a ``label``) or the node hands it to
``encode``/``decode``/``lookup`` or as an ``encoding=`` keyword. Read with :mod:`ast`;
nothing runs here.
"""

from __future__ import annotations

import ast
import codecs
from typing import Any

from remora.code.values.annotations import called_name
from remora.code.values.keyed_arguments import reads_of_keys
from remora.code.values.kind_samples import DICT_SAMPLE
from remora.code.values.named_values import name_words
from remora.code.values.placeholders import holds_made_up
from remora.code.values.untold_nones import Function

__all__ = ["invented"]

_CODEC_WORDS = frozenset({"encoding", "encodings", "codec", "charset", "label", "enc"})
_TAKING_A_CODEC = frozenset({"encode", "decode", "lookup", "getencoder", "getdecoder"})


def invented(name: str, value: Any, function: Function | None) -> bool:
    """Whether the search made ``value`` up for the parameter ``name`` of ``function``: its
    placeholder, or a list holding one among other items
    (:func:`~remora.code.values.derived_sets.holds_made_up`), or the dict kind's sample
    where the function does not just walk the mapping (module docstring)."""
    if holds_made_up(name, value):
        return True
    if _codec_name(value) and not _takes_a_codec(function, name):
        return True
    return value == DICT_SAMPLE and (function is None or not _walks(function, name))


def _codec_name(value: Any) -> bool:
    """Whether ``value`` is spelled as a text encoding's name: the codec's own name
    (``ascii``, ``utf-8``) or a name of letters and digits (``utf8``, ``latin-1``,
    ``cp1252``); a word that is only an alias (``us``, ``greek``, ``latin``), a byte
    transform (``hex``, ``zip``) or ``undefined`` is no such name."""
    if not isinstance(value, str) or len(value) < 4 or not value.isascii():
        return False
    try:
        info = codecs.lookup(value)
        if not getattr(info, "_is_text_encoding", True):
            return False
        info.encode("a")
    except (LookupError, UnicodeError):
        return False
    spelled = value.lower().replace("_", "-")
    mixed = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    return spelled == info.name or mixed


def _takes_a_codec(function: Function | None, name: str) -> bool:
    """Whether ``name`` is an encoding by its words or by the node's use of it."""
    if _CODEC_WORDS & set(name_words(name)):
        return True
    if function is None:
        return False
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        handed = any(_named(a, name) for a in node.args)
        called = called_name(node)
        if handed and (called in _TAKING_A_CODEC or "codec" in called.lower()):
            return True
        if any(k.arg in _CODEC_WORDS and _named(k.value, name) for k in node.keywords):
            return True
    return False


def _walks(function: Function, name: str) -> bool:
    """Whether ``function`` takes ``name`` as any mapping: it walks it (``name.items()``,
    ``.keys()``, ``.values()``, ``for k in name``) or looks up the keys its caller gives
    (``name[key]``, ``key in name``, ``name.get(key)``), and reads none by a constant."""
    if any(reads_of_keys(function, name)):
        return False
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.comprehension) and _named(node.iter, name):
            return True
        if isinstance(node, ast.Subscript) and _named(node.value, name):
            return True  # a constant key is reads_of_keys'
        if (
            isinstance(node, ast.Compare)
            and isinstance(node.ops[0], ast.In | ast.NotIn)
            and _named(node.comparators[0], name)
            and not isinstance(node.left, ast.Constant)
        ):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("items", "keys", "values", "get")
            and _named(node.func.value, name)
        ):
            return True  # a constant get is reads_of_keys'
    return False


def _named(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
