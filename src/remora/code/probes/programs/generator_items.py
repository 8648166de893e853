"""A generator's items, drained as a test drains it: ``list(node(...))``, bounded.

Sent ahead of :mod:`remora.code.probes.programs.call_probe`, in one program text
(:data:`remora.code.probes.sandboxed.PROGRAM_PARTS`). Calling a generator function runs
none of its body; the probe drains the generator the call returned, within the call's
own time limit, so what its body covers, yields and raises (a cycle found half-way) is
observed as the node's own. At most ``MAX_ITEMS`` items are taken, then one more is
asked for: a generator that gives one is capped (an endless one), and only its first
``PREFIX_ITEMS`` are reported, as a test takes them
(``list(itertools.islice(node(...), PREFIX_ITEMS))``), never as its whole value.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Iterator
from typing import Any

MAX_ITEMS = 1000
PREFIX_ITEMS = 10


def generator_items(result: Any) -> tuple[Any, int]:
    """(the items as a list, or ``result`` itself when it is no iterator; how many items a
    capped one's test takes, 0 when the list is the whole value)."""
    if not isinstance(result, Iterator):  # a ``return map(...)`` is drained too
        return result, 0
    items = list(itertools.islice(result, MAX_ITEMS))
    end = object()
    if next(result, end) is end:
        return items, 0
    if inspect.isgenerator(result):
        result.close()
    return items[:PREFIX_ITEMS], PREFIX_ITEMS
