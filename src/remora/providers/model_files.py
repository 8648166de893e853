"""Files in the model cache read safely, and a cached model trusted only by its hash.

A cached GGUF is used only when its size and sha256 match the catalogue. Hashing
491 MB takes about a second, so a match is remembered in ``.verified.json`` in the
cache, keyed by the file's identity (device, inode, size, mtime_ns): any rewrite,
replacement or truncation changes the identity and the file is hashed again.

Every file in the cache is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked to be
a regular file by ``fstat`` on the opened descriptor: a symlink planted as the model
or the lock is refused (never followed out of the cache), and a FIFO or device named
``*.gguf`` is refused instead of blocking the process. Every filesystem error becomes
a :class:`ModelUnavailableError` naming the file, with a hint.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from remora.errors import ModelUnavailableError
from remora.providers.catalogue import CatalogueModel

__all__ = [
    "PULL_FORCE_HINT",
    "CacheEntry",
    "cache_entry",
    "cache_error",
    "open_regular",
    "remember_verified",
    "starts_with_gguf",
]

_VERIFIED_FILE = ".verified.json"
_CHUNK = 1 << 20
PULL_FORCE_HINT = (
    "run `remora models pull --force` to fetch it again (the file is replaced atomically)"
)
_NOT_REGULAR = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link",
}


def cache_error(path: Path, exc: OSError, what: str = "model cache") -> ModelUnavailableError:
    """The clear error for a filesystem failure on ``path`` in the model cache."""
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOTDIR:
        hint = "a folder on that path is a file: set REMORA_MODEL_CACHE to a folder"
    elif exc.errno == errno.ELOOP:
        hint = f"remove the symbolic link {path}; Remora does not follow links in its cache"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        hint = "fix the folder's permissions, or set REMORA_MODEL_CACHE to a folder you can write"
    elif exc.errno in (errno.ENOSPC, errno.EDQUOT):
        hint = "free disk space, or set REMORA_MODEL_CACHE to a folder on another disk"
    else:
        hint = "set REMORA_MODEL_CACHE to another folder, or model.path to a GGUF file"
    return ModelUnavailableError(f"{what} {path}: {reason}", hint)


def _kind(mode: int) -> str:
    return _NOT_REGULAR.get(stat.S_IFMT(mode), "not a regular file")


@contextlib.contextmanager
def open_regular(path: Path, *, follow: bool = False, create: bool = False) -> Iterator[int]:
    """A descriptor of the regular file ``path``, opened without blocking.

    ``follow=False`` refuses a symlink (``O_NOFOLLOW``); ``create`` makes the file
    (``0o644``) when it is missing, read-write. Anything but a regular file is a
    :class:`ModelUnavailableError`; a missing file (without ``create``) is the
    ``FileNotFoundError`` it is, for the caller to read as "not there".
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
    if create:
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC
    if not follow:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags, 0o644)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise ModelUnavailableError(
                f"{path} is a symbolic link; Remora does not follow links in its model cache",
                f"remove it (rm {path}), then {PULL_FORCE_HINT.removeprefix('run ')}",
            ) from exc
        raise cache_error(path, exc, "model file") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ModelUnavailableError(
                f"{path} is {_kind(mode)}, not a regular file",
                f"remove it, then {PULL_FORCE_HINT.removeprefix('run ')}",
            )
        yield fd
    finally:
        os.close(fd)


def starts_with_gguf(path: Path, *, follow: bool) -> bool:
    """Whether ``path`` is a regular file that starts with the GGUF magic (never blocks)."""
    try:
        with open_regular(path, follow=follow) as fd:
            return os.pread(fd, 4, 0) == b"GGUF"
    except (OSError, ModelUnavailableError):
        return False


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """A catalogue model's file in the cache: ``verified``, or missing, or ``problem``."""

    path: Path
    verified: bool
    problem: str | None = None
    hint: str = PULL_FORCE_HINT

    @property
    def missing(self) -> bool:
        return not self.verified and self.problem is None

    def error(self) -> ModelUnavailableError:
        return ModelUnavailableError(self.problem or f"{self.path} is missing", self.hint)


def _expected(known: CatalogueModel) -> tuple[int | None, str | None]:
    """The cached file's pinned size (None: not pinned) and sha256."""
    if known.weights is not None and known.derived_file:
        return None, known.derived_sha256
    return known.size_bytes, known.sha256


def _identity(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns]


def cache_entry(known: CatalogueModel, directory: Path) -> CacheEntry:
    """The state of ``known``'s file in ``directory``: checked by size and sha256
    against the catalogue, the hash taken once per file identity and remembered."""
    path = directory / known.filename
    size, sha256 = _expected(known)
    try:
        with open_regular(path) as fd:
            st = os.fstat(fd)
            if size is not None and st.st_size != size:
                return CacheEntry(
                    path, False, f"{path} is {st.st_size} bytes, expected {size}: damaged or cut"
                )
            if sha256 is None:
                ok = os.pread(fd, 4, 0) == b"GGUF"
                return CacheEntry(path, ok, None if ok else f"{path} is not a GGUF file")
            if _remembered(directory, known.filename) == (_identity(st), sha256):
                return CacheEntry(path, True)
            found = _sha256_fd(fd)
    except FileNotFoundError:
        return CacheEntry(path, False)
    except ModelUnavailableError as exc:
        return CacheEntry(path, False, exc.message, exc.hint)
    except OSError as exc:
        error = cache_error(path, exc, "model file")
        return CacheEntry(path, False, error.message, error.hint)
    if found != sha256:
        return CacheEntry(
            path, False, f"{path} has sha256 {found}, expected {sha256}: the file is damaged"
        )
    remember_verified(directory, known.filename, st, sha256)
    return CacheEntry(path, True)


def _sha256_fd(fd: int) -> str:
    digest = hashlib.sha256()
    offset = 0
    while chunk := os.pread(fd, _CHUNK, offset):
        digest.update(chunk)
        offset += len(chunk)
    return digest.hexdigest()


def _read_memo(directory: Path) -> dict[str, object]:
    try:
        with open_regular(directory / _VERIFIED_FILE) as fd:
            raw = os.read(fd, 1 << 16)
        data = json.loads(raw)
    except (OSError, ModelUnavailableError, ValueError):
        return {}  # missing or damaged: the files are hashed again, nothing is trusted
    return data if isinstance(data, dict) else {}


def _remembered(directory: Path, filename: str) -> tuple[list[int], str] | None:
    entry = _read_memo(directory).get(filename)
    if not isinstance(entry, dict):
        return None
    identity, sha256 = entry.get("identity"), entry.get("sha256")
    if not (isinstance(identity, list) and all(type(v) is int for v in identity)):
        return None
    return (identity, sha256) if isinstance(sha256, str) else None


def remember_verified(directory: Path, filename: str, st: os.stat_result, sha256: str) -> None:
    """Remember that the file of identity ``st`` hashes to ``sha256`` (best effort: a
    cache that cannot take the note is hashed again next time)."""
    memo = _read_memo(directory)
    memo[filename] = {"identity": _identity(st), "sha256": sha256}
    try:
        fd, tmp = tempfile.mkstemp(prefix=".verified-", dir=directory)
        try:
            with os.fdopen(fd, "w") as fh:
                json.dump(memo, fh)
            os.replace(tmp, directory / _VERIFIED_FILE)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        return  # a read-only cache: verified again next time, never trusted unverified
