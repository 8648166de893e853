"""An OpenAI-compatible llama.cpp HTTP server on 127.0.0.1 (``remora models serve``).

Several processes can then share one loaded model through the ``openai``
provider; the integration tests use it the same way.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

from remora.errors import ModelUnavailableError
from remora.providers.llama_engine import EngineKey, load_server

__all__ = ["LocalServer"]

_HOST = "127.0.0.1"


class LocalServer:
    """A running llama.cpp HTTP server; ``base_url`` ends in ``/v1``.

    Usable as a context manager; ``stop()`` frees the port and the model.
    """

    def __init__(
        self,
        model_path: Path,
        *,
        model_name: str,
        port: int = 0,
        n_parallel: int = 4,
        n_ctx_per_slot: int = 4096,
        threads: int | None = None,
    ) -> None:
        self.model_name = model_name
        self.key = EngineKey.create(model_path, n_parallel, n_ctx_per_slot, threads)
        # The alias is what /v1/models lists, so clients can name the model by id.
        self._server: Any = load_server(self.key, port=port, host=_HOST, alias=model_name)
        self.address: str = str(self._server.listening_address).rstrip("/")
        self._wait_healthy()

    @property
    def base_url(self) -> str:
        return f"{self.address}/v1"

    @property
    def port(self) -> int:
        return int(self.address.rsplit(":", 1)[1])

    def _wait_healthy(self, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        last = ""
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.address}/health", timeout=2) as resp:
                    if json.loads(resp.read()).get("status") == "ok":
                        return
            except (OSError, ValueError) as exc:  # URLError is an OSError
                last = str(exc)
            time.sleep(0.05)
        self.stop()
        raise ModelUnavailableError(
            f"llama.cpp server at {self.address} did not become healthy: {last}",
        )

    def stop(self) -> None:
        # Dropping the Server stops its HTTP thread and main loop and frees the model.
        self._server = None

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
