"""llama.cpp's own answer to a file it cannot load, through the embedded provider.

No model is needed, but real llama.cpp code runs (unit tests refuse any
``xllamacpp.Server``), so this lives with the integration tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from remora.config import ModelConfig
from remora.conversation import Message, ModelRequest
from remora.errors import AGENT_MODEL_UNAVAILABLE, ModelUnavailableError
from remora.providers.factory import create_provider

pytestmark = pytest.mark.integration


async def test_complete_with_corrupt_gguf_is_agent_002(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"GGUF" + b"\xff" * 512)
    provider = create_provider(ModelConfig(path=corrupt, n_parallel=1, n_ctx_per_slot=256))
    with pytest.raises(ModelUnavailableError) as info:
        await provider.complete(ModelRequest((Message.user("hi"),)))
    assert info.value.code == AGENT_MODEL_UNAVAILABLE
    assert "could not load" in info.value.message and str(corrupt) in info.value.message
