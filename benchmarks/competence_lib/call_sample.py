"""Call one function or class with one argument set; run in a subprocess by the benchmark.

Reads ``{"paths": [...], "module": ..., "qualname": ..., "args": {...}}`` on stdin
and prints ``{"bound": bool, "outcome": "ok" | "TypeError" | "other" | "import",
"error": str}``. An argument ``{"__class__": NAME, "args": {...}}`` is an instance
of the class NAME of the same module, built from its own arguments first.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import sys
from typing import Any


def _build(module: Any, value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"__class__", "args"}:
        cls = getattr(module, str(value["__class__"]))
        return cls(**{k: _build(module, v) for k, v in dict(value["args"]).items()})
    return value


def main() -> None:
    request = json.load(sys.stdin)
    sys.path[:0] = request["paths"]
    answer: dict[str, Any] = {"bound": False, "outcome": "import", "error": ""}
    try:
        module = importlib.import_module(request["module"])
        target: Any = module
        for part in str(request["qualname"]).split("."):
            target = getattr(target, part)
    except Exception as exc:  # the report says what failed; nothing is hidden
        answer["error"] = f"{type(exc).__name__}: {exc}"
        print(json.dumps(answer))
        return
    try:
        args = {k: _build(module, v) for k, v in dict(request["args"]).items()}
        inspect.signature(target).bind(**args)
        answer["bound"] = True
        result = target(**args)
        if inspect.iscoroutine(result):
            asyncio.run(result)
        answer["outcome"] = "ok"
    except TypeError as exc:
        answer["outcome"], answer["error"] = "TypeError", str(exc)[:300]
    except Exception as exc:  # any other exception is a call that bound and ran
        answer["outcome"], answer["error"] = "other", f"{type(exc).__name__}: {exc}"[:300]
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
