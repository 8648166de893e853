"""The argument a type check refused, as a test name's condition: ``segment_is_int``.

A ``TypeError`` the code states with a ``raise`` of its own, in the node or in a helper it
calls (hyperlink's ``_textcheck("path segment", value)`` under ``URL.sibling(1)``), is a
type check refusing one argument: the probe names it (``checked``: the one parameter
whose argument, or an item of it, the raising frame held) with its type. The test's name
says that case (``test_sibling_when_segment_is_int_raises_type_error``; a blind reviewer
on ``test_url_sibling_raises_type_error``: "the name doesn't say the segment is non-text").
Nothing runs here.
"""

from __future__ import annotations

from typing import Any

from remora.code.values import snake_name

__all__ = ["refused_type_words"]


def refused_type_words(row: dict[str, Any]) -> str:
    """``segment_is_int``, ``segments_has_an_int`` (an item of the argument): the argument
    the probed call's stated ``TypeError`` refused; "" for any other call."""
    checked = (row.get("raised") or {}).get("checked")
    if not isinstance(checked, dict) or checked.get("parameter") not in (row.get("args") or {}):
        return ""
    given = str(checked.get("type") or "value")
    kind = "none" if given == "NoneType" else snake_name(given)
    if checked.get("item"):
        return f"{checked['parameter']}_has_{'an' if kind[:1] in 'aeiou' else 'a'}_{kind}"
    return f"{checked['parameter']}_is_{kind}"
