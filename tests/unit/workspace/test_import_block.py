"""Where an import joins a module's import block: one rule for the merge and the test writer."""

from __future__ import annotations

import ast

import pytest

from remora.workspace.import_block import with_imports

CASES = [
    (
        "code right after the new block stays a blank line away",
        "def test_a():\n    assert True\n",
        "import pytest\n\nfrom m import f\n\ndef test_a():\n    assert True\n",
    ),
    (
        "`import x` after the last `import`, names joined sorted into the one-line `from m`",
        '"""Doc."""\n\nimport os\n\nfrom m import h\n\n\nX = 1\n',
        '"""Doc."""\n\nimport os\nimport pytest\n\nfrom m import f, h\n\n\nX = 1\n',
    ),
    (
        "`from __future__` stays first; the comment above the project's imports stays above",
        "from __future__ import annotations\n\n# ours\nfrom m import h as g\n",
        "from __future__ import annotations\n\n# ours\nimport pytest\n\n"
        "from m import h as g\nfrom m import f\n",
    ),
    (
        "after the `from __future__` imports alone, a blank line, as isort keeps them",
        '"""Doc."""\n\nfrom __future__ import unicode_literals\n',
        '"""Doc."""\n\nfrom __future__ import unicode_literals\n\nimport pytest\n\n'
        "from m import f\n",
    ),
    (
        "names and modules already imported are not repeated",
        "import pytest\nfrom m import f\n",
        "import pytest\nfrom m import f\n",
    ),
]


@pytest.mark.parametrize(("why", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_imports_join_the_block(why: str, text: str, expected: str) -> None:
    got = with_imports(text, "m", ["f"], ["pytest"])
    assert got == expected, why
    ast.parse(got)
    assert with_imports(got, "m", ["f"], ["pytest"]) == got  # adding again changes nothing


def test_crlf_stays_crlf() -> None:
    got = with_imports("import os\r\n\r\nX = 1\r\n", "m", ["f"], [])
    assert got == "import os\r\nfrom m import f\r\n\r\nX = 1\r\n"
