"""A node that returns a callable object gets tests that call it, as its users do.

An invented query builder: ``Field(name).one_of(items)`` returns a closure that takes a
document (a dict) and tells whether its value under ``name`` is one of ``items``, and
``bump(field)`` returns a transform that adds one to a document's ``field`` in place.
Neither result has anything to compare: before, no test was kept. The probe calls each
result with a document holding the key it reads (probes/programs/returned_calls), and
the kept tests assert a match beside a non-match and the changed document (issue 56).
The sandbox, the probe, the mutation check and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

SOURCE = """\
class Field:
    def __init__(self, name):
        self.name = name

    def one_of(self, items):
        def test(document):
            return document[self.name] in items

        return test


def bump(field):
    def transform(doc):
        doc[field] += 1

    return transform
"""

README = """\
# fields

```python
small = Field("size").one_of(["s", "m"])
seen = bump("views")
```
"""


async def test_a_returned_predicate_is_called_with_a_match_and_a_non_match(tmp_path: Path) -> None:
    files = {"fields.py": SOURCE, "README.md": README}
    found, written = await search_tests_on(
        tmp_path, files, "fields.py", "Field.one_of", "tests/test_fields.py"
    )
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    assert "is True\n" in text and "is False\n" in text, text
    assert "def test_one_of_returns_a_predicate_matching_a_value_in_items" in text, text


async def test_a_returned_transform_is_called_and_its_change_asserted(tmp_path: Path) -> None:
    # The field as the README names one: a made-up "sample field" is shown to no reader.
    files = {"fields.py": SOURCE, "README.md": README}
    found, written = await search_tests_on(
        tmp_path, files, "fields.py", "bump", "tests/test_fields.py"
    )
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    assert "result(document)\n" in text, text
    assert "def test_bump_returns_a_function_that_changes_" in text, text
