"""Ruff's documented example of a rule, read with a markdown parser."""

from __future__ import annotations

import asyncio
import json
import subprocess

from remora.code.lint.rule_examples import example_pair
from remora.sandbox.commands import resolve_executable

DOC = """## What it does
Checks for `x`.

```python
not_this = "a block before the Example heading"
```

## Example
```python
def foo():
    bar = 1
    return bar
```

Use instead:
```python
def foo():
    return 1
```

## Options
```python
not_this_either = 1
```
"""


def test_the_two_python_blocks_under_example_are_before_and_after() -> None:
    assert example_pair(DOC) == (
        "def foo():\n    bar = 1\n    return bar\n",
        "def foo():\n    return 1\n",
    )


def test_a_rule_with_one_block_or_none_has_no_example() -> None:
    assert (
        example_pair("## Example\n```python\nx = 1\n```\n\n## Options\n```python\ny\n```\n") is None
    )
    assert example_pair("## What it does\nNothing to show.\n") is None


def test_ruffs_own_documentation_gives_an_example_for_ret504() -> None:
    out = subprocess.run(
        [resolve_executable("ruff"), "rule", "RET504", "--output-format", "json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pair = example_pair(json.loads(out)["explanation"])
    assert pair is not None
    before, after = pair
    assert "return bar" in before and "bar =" not in after


def test_the_example_is_read_once_per_rule() -> None:
    from remora.code.lint import rule_examples as lint_examples

    lint_examples._EXAMPLES.pop("SIM108", None)
    first = asyncio.run(lint_examples._rule_example("SIM108"))
    assert first is not None and first[0] == "if-else-block-instead-of-if-exp"
    assert lint_examples._EXAMPLES["SIM108"] is first


def test_a_code_ruff_has_no_rule_for_has_no_example() -> None:
    from remora.code.lint import rule_examples as lint_examples

    assert asyncio.run(lint_examples._rule_example("NOPE123")) is None
