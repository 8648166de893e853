"""A parameter that takes a function to call later gets one the test defines, as users do.

An invented event hub: ``Hub.connect(name, receiver)`` keeps ``receiver`` for ``name``,
``Hub.send(name, value)`` calls every receiver kept for ``name`` and returns how many it
called, ``Hub.disconnect(name, receiver)`` forgets one. Before, a text stood in for the
receiver (a blind reviewer: "registering strings as handlers is nonsensical") or no test
was kept. The test now defines a function that records its calls, connects it as the
project's code would, and asserts what it was called with (issue 56). The sandbox, the
probe, the mutation check and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

SOURCE = """\
from collections.abc import Callable
from typing import Any


class Hub:
    def __init__(self):
        self.receivers = {}

    def connect(self, name: str, receiver: Callable[..., Any]) -> Callable[..., Any]:
        self.receivers.setdefault(name, []).append(receiver)
        return receiver

    def disconnect(self, name: str, receiver: Callable[..., Any]) -> None:
        if receiver in self.receivers.get(name, []):
            self.receivers[name].remove(receiver)

    def send(self, name: str, value: int) -> int:
        called = 0
        for receiver in self.receivers.get(name, []):
            receiver(name, value=value)
            called += 1
        return called
"""


async def test_send_is_tested_with_a_connected_function_and_its_calls(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"hub.py": SOURCE}, "hub.py", "Hub.send", "tests/test_hub.py"
    )
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    assert "    def receiver(*args, **kwargs):\n        receiver_calls.append((args, kwargs))" in (
        text
    ), text
    assert "hub.connect(" in text and "receiver=receiver" in text or "receiver)" in text, text
    assert "assert receiver_calls == [((" in text, text
    assert "def test_send_after_connect_calls_receiver" in text, text
    assert "sample receiver" not in text and "other receiver" not in text, text


async def test_disconnect_is_tested_after_the_sibling_that_connects(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"hub.py": SOURCE}, "hub.py", "Hub.disconnect", "tests/test_hub.py"
    )
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    assert "def test_disconnect_after_connect" in text, text
    # Never called: a function that does nothing, no list of calls nobody reads.
    assert "        return None" in text and "receiver_calls" not in text, text
