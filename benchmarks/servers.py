"""The openai provider's own ceiling: requests in flight through its router, no agent work.

``--agents`` loops each send ``--requests`` chat completions one after another
through one OpenAIProvider (the real SDK and router) to ``--servers`` stand-ins
(benchmarks/standin_server.py, each its own process, so they take no CPU from
this one) answering after ``--latency-ms``. It prints the
stand-ins' requests in flight (max, and mean while requests came), each server's
share, requests per second and this process's CPU per request. Beside
``scale.py`` (the whole of ``remora analyze``) it separates what the provider
allows from what the host's work per run allows.

Usage: python benchmarks/servers.py [--agents 64] [--requests 20] [--servers 1]
       [--latency-ms 200] [--max-in-flight 64]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from standin_server import MODEL_ID

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest, ToolSpec
from remora.profiles import BUILTIN_PROFILES
from remora.providers.openai_compat import OpenAIProvider

WRITE = ToolSpec(
    "write_docstring",
    "Write it.",
    {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
)
REQUEST = ModelRequest((Message.system("sys"), Message.user("document f")), (WRITE,))


def cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def stats(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/stats", timeout=10) as answer:
        figures: dict[str, Any] = json.loads(answer.read())
    return figures


async def drive(urls: list[str], args: argparse.Namespace) -> dict[str, Any]:
    model = ModelConfig(
        provider="openai",
        id=MODEL_ID,
        base_url=urls if len(urls) > 1 else urls[0],
        max_in_flight=args.max_in_flight,
    )
    provider = OpenAIProvider.from_config(model, BUILTIN_PROFILES["default"])

    async def agent() -> None:
        for _ in range(args.requests):
            await provider.complete(REQUEST)

    cpu, started = cpu_s(), time.perf_counter()
    await asyncio.gather(*(agent() for _ in range(args.agents)))
    wall, cpu = time.perf_counter() - started, cpu_s() - cpu
    await provider.aclose()
    each = [stats(url) for url in urls]
    total = args.agents * args.requests
    return {
        "what": "the openai provider's router alone against stand-ins, no agent work",
        "agents": args.agents,
        "requests": total,
        "latency_ms": args.latency_ms,
        "max_in_flight": args.max_in_flight,
        "wall_s": round(wall, 2),
        "requests_per_s": round(total / wall, 1),
        "cpu_ms_per_request": round(cpu * 1000 / total, 2),
        "in_flight_mean": round(sum(e["in_flight_mean"] for e in each), 1),
        "per_server": each,
        "share": [round(e["requests"] / total, 3) for e in each],
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=64)
    parser.add_argument("--requests", type=int, default=20, help="per agent, one after another")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--max-in-flight", type=int, default=64, help="per server")
    args = parser.parse_args()
    script = Path(__file__).with_name("standin_server.py")
    command = [sys.executable, str(script), "--port", "0", "--latency-ms", str(args.latency_ms)]
    with contextlib.ExitStack() as stack:
        urls = []
        for _ in range(args.servers):
            process = stack.enter_context(subprocess.Popen(command, stdout=subprocess.PIPE))
            stack.callback(process.kill)
            assert process.stdout is not None
            urls.append(json.loads(process.stdout.readline())["base_url"])
        print(json.dumps(asyncio.run(drive(urls, args)), indent=2))


if __name__ == "__main__":
    main()
