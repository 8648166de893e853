"""The run's text completions: the provider's ``complete_text``, counted for the result.

Tools ask for completions through ``remora_code.complete``; their tokens are the
run's as much as its turns' are, so the runner adds them to the result's usage
and says how many were asked for, in which shape, and how long they were out
(``waited_s``, summed over the requests: a tool's time with a request out, not its
own work).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from remora.conversation import Completion, CompletionRequest, TextCompleter, Usage
from remora.runner.place import ModelPlace

__all__ = ["MeteredCompleter"]


class MeteredCompleter:
    """Passes requests to ``inner`` with the run's time limit; sums what they cost."""

    def __init__(
        self,
        inner: TextCompleter,
        timeout_s: float | None = None,
        place: ModelPlace | None = None,
    ) -> None:
        self.inner = inner
        self.timeout_s = timeout_s
        # The run's place among those talking to the model (runner/place.py).
        self.place = place or ModelPlace()
        self.usage = Usage()
        self.shapes: dict[str, int] = {}
        self.seconds: dict[str, float] = {}
        self.waited_s = 0.0

    async def complete_text(self, request: CompletionRequest) -> Completion:
        if request.timeout_s is None and self.timeout_s is not None:
            request = dataclasses.replace(request, timeout_s=self.timeout_s)
        async with self.place.held():
            began = time.perf_counter()
            try:
                completion = await self.inner.complete_text(request)
            finally:
                self.waited_s += time.perf_counter() - began
        self.usage = self.usage + completion.usage
        self.shapes[completion.shape] = self.shapes.get(completion.shape, 0) + 1
        for phase, seconds in completion.timings.items():
            self.seconds[phase] = round(self.seconds.get(phase, 0.0) + seconds, 4)
        return completion

    def report(self) -> dict[str, Any]:
        """What the result's details say about this run's completions."""
        return {
            "requests": self.usage.requests,
            "shapes": dict(self.shapes),
            "waited_s": round(self.waited_s, 4),
            **self.seconds,
        }
