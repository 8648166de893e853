"""A summary of deprecated code says that it is deprecated.

A function or class whose own body (a class's ``__init__`` or ``__new__``) warns with
``DeprecationWarning`` (``PendingDeprecationWarning``, ``FutureWarning``), or that a
``@deprecated`` decorator marks, is kept for old callers: the one thing its docstring
must tell a reader is not to use it. Blind reviewers rejected "Connect to the receiver
without any additional context." on such an alias ("a deprecated alias that warns, and
the docstring mentions neither"). A summary without a word of
deprecation is refused, and the model is shown the warning's own text.
"""

from __future__ import annotations

from remora.code.docstring.facts import word_tokens
from remora.code.parsing import SourceNode, located_definition
from remora.code.values.deprecations import deprecation_warning

__all__ = ["unsaid_deprecation"]

_SHOWN = 120  # characters of the warning's text quoted to the model


def unsaid_deprecation(node: SourceNode, summary: str) -> str:
    """Why ``summary`` may not stand for a deprecated function ('' when the function is not
    deprecated, or the summary says it is)."""
    if node.definition is None or any(t.startswith("deprecat") for t in word_tokens(summary)):
        return ""
    line = node.file.positions[node.definition].start.line
    definition = located_definition(node.file.text, node.ref.full_name, line)
    if definition is None:
        return ""
    warned = deprecation_warning(definition)
    if warned is None:
        return ""
    quoted = f" ({' '.join(warned.split())[:_SHOWN]!r})" if warned else ""
    return (
        f"it leaves out that {definition.name} is deprecated: it warns{quoted}; say so, and "
        "what to use instead: 'Deprecated: use … instead.'"
    )
