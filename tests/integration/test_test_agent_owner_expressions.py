"""A method whose bare instance is refused gets tests on the instance the project builds.

An invented selector class: its query method hands its check to a private helper that
refuses a selector with no steps, so every call on a bare ``Selector()`` raises that
helper's ``ValueError`` (dropped: probes/instance_guards). The module's ``pick(name)``
returns ``Selector()[name]`` and the README calls ``pick("size")``: the search calls the
method again on that instance, and the kept test builds it the same way (issue 56 item 3,
values/owner_expressions). The sandbox, the probe and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import bench, find_node, write_project
from selector_source import SELECTOR

pytestmark = pytest.mark.integration


README = """\
# pickers

```python
small = pick("size").below(3)
```
"""


async def test_a_refused_bare_instance_is_built_as_the_project_builds_it(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"pickers.py": SELECTOR, "README.md": README})
    node = find_node(root, "pickers.py", "Selector.equals")
    async with bench(root) as b:
        found = await b.run("test", "search_tests", node)
        written = b.workspace("test", node).read("tests/test_pickers.py")
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    assert 'selector = pick("size")' in text, text  # as ruff format writes it
    assert "from pickers import pick\n" in text, text
    assert "the selector has no steps" not in text
