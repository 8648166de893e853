"""The placeholders the search makes up, and how to tell a value is one.

Where neither a parameter's annotation nor a word of its name gives a value, the search
makes one up from the name (``"sample b"``, ``"other b"``, ``["sample item"]``): a value
that calls the code, but one no test should show a maintainer (blind reviewers: "a
placeholder", "a fake encoding name"). :func:`made_up` tells such a value by how it was
made, for the parameter it was made for, so the checks after the search can replace or
refuse it (:mod:`remora.code.testgen.invented_values`,
:mod:`remora.code.values.host_candidates`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from remora.code.values.annotations import head_name, parsed_annotation, union_parts
from remora.code.values.named_values import NAMED_STRINGS, name_words
from remora.code.values.parameters import Parameter
from remora.code.values.unspelled_values import BYTES_MARKER, is_bytes

__all__ = [
    "MADE_UP_KEYS",
    "holds_made_up",
    "made_up",
    "made_up_items",
    "made_up_text",
    "none_for_made_up",
    "singular_of",
]

_PATH_WORDS = frozenset({"path", "file", "dir", "directory"})
# The keys a mapping nothing says more of gets: the name table's for ``key``.
MADE_UP_KEYS = NAMED_STRINGS["key"]


def made_up_text(name: str, variant: int) -> str:
    """The string a parameter gets when nothing says more: ``"sample b"``, ``"other b"``."""
    return ("sample " if variant % 2 == 0 else "other ") + " ".join(name_words(name) or ["value"])


def singular_of(name: str) -> str:
    """``item`` of ``items``: a name's singular, as a placeholder item takes it."""
    return name[:-1] if name.endswith("s") and len(name) > 3 else name


def made_up_items(name: str) -> list[str]:
    """Two placeholder items for a collection parameter nothing says more of, the later one
    first (``["sample seq", "other seq"]``): a sort or a ``max`` of them does something."""
    return [made_up_text(singular_of(name), variant) for variant in (0, 1)]


def made_up(name: str, value: Any) -> bool:
    """Whether ``value`` is what :func:`sample_value` makes up for the parameter ``name``
    when neither its annotation nor a word of its name gives a value: its placeholder
    string (``"sample b"``), or a list of its singular's (``items=["sample item"]``), or a
    mapping of the made-up keys (``token={"alpha": ..., "beta": ...}``, where the project's
    tokens have a ``type``: "not tokens at all"), or one whose values are all made up for
    the parameter (``s={"sample n": "sample s"}``), or one holding under a key the value
    made up for that key (``match={"token": "sample token", "rank": 3}``: zxcvbn's
    reviewer, "a placeholder token"); or a path its name table gives
    (``dotenv_path="data/example.txt"``: no such file exists).
    Asked of the value a call passes for that very parameter and answered by the function
    that makes them, not by the text's look (``"sample"`` passed for ``b``, or
    ``"sample b"`` for ``a``, is none)."""
    singular = singular_of(name)
    if is_bytes(value):  # b"sample data": the text made up, as bytes
        return made_up(name, value[BYTES_MARKER])
    if isinstance(value, list):
        return bool(value) and all(made_up(singular, item) for item in value)
    if isinstance(value, dict):
        if list(value) == list(MADE_UP_KEYS):
            return True
        # ``s={"sample n": "sample s"}``: a mapping of placeholders is one itself
        if value and all(made_up(name, v) or made_up(singular, v) for v in value.values()):
            return True
        return any(isinstance(k, str) and made_up(k, v) for k, v in value.items())
    if not isinstance(value, str):
        return False
    if value in {made_up_text(name, v) for v in (0, 1)}:
        return True
    # A path the name table gives ("data/example.txt") names a file no project has: code
    # that opens or checks it meets a missing file, whatever the test's name says.
    words = name_words(name)
    return bool(words) and words[-1] in _PATH_WORDS and value in NAMED_STRINGS[words[-1]]


def holds_made_up(name: str, value: Any) -> bool:
    """:func:`made_up`, or a list with an item made up for its singular among others
    (``iterable=["sample value", "sample iterable"]``: "confusing", a reviewer said)."""
    if made_up(name, value):
        return True
    singular = singular_of(name)
    return isinstance(value, list) and any(made_up(singular, item) for item in value)


def none_for_made_up(args: dict[str, Any], params: Sequence[Parameter]) -> dict[str, Any]:
    """``args`` with the made-up value (:func:`made_up`) of a parameter whose annotation
    takes None given as None: an instance's ``fs_encoding: Optional[str]`` nothing says
    more of is built as its code allows, not with ``"sample fs encoding"``, which a blind
    reviewer called "a fake encoding name"."""
    given = dict(args)
    for param in params:
        tree = parsed_annotation(param.annotation) if param.annotation else None
        if tree is None or not made_up(param.name, given.get(param.name)):
            continue
        if any(head_name(part).lower() == "none" for part in union_parts(tree)):
            given[param.name] = None
    return given
