"""A parameter that takes a function to call later gets one the test defines, as users do.

An invented message bus: ``Bus.subscribe(topic, handler)`` keeps ``handler`` for
``topic``, ``Bus.publish(topic, payload)`` calls every handler kept for it and returns how
many it called, ``Bus.unsubscribe(topic, handler)`` forgets one. Before, a text stood in for the
receiver (a blind reviewer: "registering strings as handlers is nonsensical") or no test
was kept. The test now defines a function that records its calls, subscribes it as the
project's code would (on the topic its own call names), and asserts what it was called
with (issue 56). The sandbox, the
probe, the mutation check and pytest are real; no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled_agents_support import search_tests_on

pytestmark = pytest.mark.integration

SOURCE = """\
from typing import Callable, Optional


class Bus:
    def __init__(self):
        self.topics = {}

    def subscribe(self, topic: str, handler: Optional[Callable[[str], None]]) -> None:
        self.topics.setdefault(topic, []).append(handler)

    def unsubscribe(self, topic: str, handler: Callable[[str], None]) -> None:
        if handler in self.topics.get(topic, []):
            self.topics[topic].remove(handler)

    def publish(self, topic: str, payload: str) -> int:
        handlers = self.topics.get(topic, [])
        for handler in handlers:
            handler(payload)
        return len(handlers)


def announce(bus: Bus) -> int:
    bus.subscribe("news", print)
    return bus.publish("news", "hello")
"""


async def test_publish_is_tested_with_a_subscribed_function_and_its_calls(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"bus.py": SOURCE}, "bus.py", "Bus.publish", "tests/test_bus.py"
    )
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    recording = "    def handler(*args, **kwargs):\n        handler_calls.append((args, kwargs))"
    assert recording in text, text
    assert "bus.subscribe(" in text and "handler" in text, text
    assert "assert handler_calls == [((" in text, text
    assert "def test_publish_after_subscribe_calls_handler" in text, text
    assert "sample handler" not in text and "other handler" not in text, text


async def test_unsubscribe_is_tested_after_the_sibling_that_subscribes(tmp_path: Path) -> None:
    found, written = await search_tests_on(
        tmp_path, {"bus.py": SOURCE}, "bus.py", "Bus.unsubscribe", "tests/test_bus.py"
    )
    assert found["kept"], found
    assert written is not None
    text = written.decode()
    assert "def test_unsubscribe_after_subscribe" in text, text
    # Never called: a function that does nothing, no list of calls nobody reads.
    assert "        return None" in text and "handler_calls" not in text, text
