"""A new docstring is laid out as PEP 257 and the formatters (black, ruff format) lay it out:
a blank line after a class's docstring, and between a function's and a definition that
follows it; none where the next statement already has one, or is a plain statement of a
function."""

from __future__ import annotations

import pytest

from remora.code.docstring.edit import with_docstring
from remora.code.parsing import NodeRef, locate, parse


def written(source: str, kind: str, name: str) -> str:
    # Every case's node is its first line.
    return with_docstring(locate(parse(source, "m.py"), NodeRef(kind, name, 1)), "Doc.")


@pytest.mark.parametrize(
    ("source", "kind", "name", "expected"),
    [
        (
            "class Kiln:\n    heat = 1\n",
            "class",
            "Kiln",
            'class Kiln:\n    """Doc."""\n\n    heat = 1\n',
        ),
        (
            "class Kiln:\n    # hot\n    @property\n    def heat(self):\n        return 1\n",
            "class",
            "Kiln",
            'class Kiln:\n    """Doc."""\n\n    # hot\n    @property\n    def heat(self):\n'
            "        return 1\n",
        ),
        (
            "class Kiln:\n\n    heat = 1\n",
            "class",
            "Kiln",
            'class Kiln:\n    """Doc."""\n\n    heat = 1\n',
        ),
        (
            "def fire(kiln):\n    def cool():\n        pass\n    return cool\n",
            "function",
            "fire",
            'def fire(kiln):\n    """Doc."""\n\n    def cool():\n        pass\n    return cool\n',
        ),
        (
            "def fire(kiln):\n    return kiln\n",
            "function",
            "fire",
            'def fire(kiln):\n    """Doc."""\n    return kiln\n',
        ),
    ],
)
def test_a_blank_line_follows_where_the_formatters_put_one(
    source: str, kind: str, name: str, expected: str
) -> None:
    assert written(source, kind, name) == expected
