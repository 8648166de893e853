"""The test agent writes the project's own examples where they reach what a made-up value
does (issue 56).

An invented text helper: ``underscored(text)`` drops spaces and turns ``camelCase`` into
``snake_case``, and its README shows ``underscored("rubyTuesdays")``. Any string reaches the
same lines and changes (``"lorem ipsum"`` loses its space), so the cover used to keep the
first it met, the search's own; the project's
own example now goes first, and the test pins the conversion a reader knows from the
docs. ``is_plain(text)`` hands its text to a helper that asks what it was given
(``isinstance(text, dict)``) before reading ``.items()``: the README's strings are no
longer excluded as "used as a mapping". The sandbox, the probe and pytest are real; no
model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

WORDS = """\
import re


def underscored(text):
    if isinstance(text, dict):
        return {underscored(k): v for k, v in text.items()}
    joined = re.sub(r"\\s+", "", text)
    return re.sub(r"(?<=[a-z])([A-Z])", r"_\\1", joined).lower()


def is_plain(text):
    return text == underscored(text)
"""

README = """\
# words

```python
from words import underscored, is_plain

underscored("rubyTuesdays")  # ruby_tuesdays
is_plain("down_the_road")  # True
is_plain("upTheHill")  # False
```
"""

FILES = {"words.py": WORDS, "README.md": README, "pytest.ini": "[pytest]\n"}


async def test_the_readme_example_is_the_test_where_any_text_reaches_as_much(
    tmp_path: Path,
) -> None:
    found, written = await search_tests_on(
        tmp_path, FILES, "words.py", "underscored", "tests/test_words.py"
    )
    assert found["kept"], found
    text = (written or b"").decode()
    assert 'underscored("rubyTuesdays")' in text, text
    # The search's own text for a ``text`` parameter reaches nothing the example does not.
    assert "ruby_tuesdays" in text and '"lorem ipsum"' not in text, text


async def test_a_helper_asking_what_it_got_lets_the_readme_strings_in(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, FILES, "words.py", "is_plain", "tests/test_words.py"
    )
    text = (written or b"").decode()
    assert '"down_the_road"' in text and '"upTheHill"' in text, (found, text)
