"""Load a ``.pym`` tool script: declarations, blanked code, stubs, checks; cached by hash.

A script with any problem is a load error (AGENT_001) listing every finding as
``file:line rule message``; it is never silently dropped.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import threading
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from remora.errors import AgentDefinitionError
from remora.sandbox.checker import build_stubs, monty_findings
from remora.sandbox.declarations import ExternalDecl, Finding, HostModuleStubs, PymInput, scan
from remora.sandbox.signatures import EXTERNALS, ExternalSpec

__all__ = [
    "PymLoadError",
    "PymScript",
    "check_pym",
    "clear_cache",
    "iter_pym_files",
    "load_pym",
]


@dataclass(frozen=True)
class PymScript:
    """A checked tool script, ready for :meth:`SandboxRuntime.run`."""

    path: Path
    sha256: str
    inputs: list[PymInput]
    externals: list[str]
    # The source with declarations blanked: same number of lines.
    code: str
    stubs: str = ""
    external_decls: dict[str, ExternalDecl] = field(default_factory=dict)
    warnings: list[Finding] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem

    @functools.cached_property
    def input_validator(self) -> jsonschema.Draft202012Validator:
        """Built once per script: validating a run's inputs is then ~10x cheaper."""
        return jsonschema.Draft202012Validator(self.parameters_schema())

    def parameters_schema(self) -> dict[str, Any]:
        """A strict JSON schema object of the inputs (for the tool definition)."""
        properties: dict[str, Any] = {}
        for item in self.inputs:
            prop = dict(item.json_schema)
            if item.description:
                prop["description"] = item.description
            if not item.required:
                prop["default"] = item.default
            properties[item.name] = prop
        return {
            "type": "object",
            "properties": properties,
            "required": [i.name for i in self.inputs if i.required],
            "additionalProperties": False,
        }


class PymLoadError(AgentDefinitionError):
    """A tool script that cannot be used (AGENT_001); ``findings`` lists every problem."""

    def __init__(self, path: Path, findings: list[Finding]) -> None:
        first = findings[0] if findings else Finding(str(path), 1, "pym", "invalid script")
        more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
        super().__init__(
            f"{first}{more}",
            f"run `remora agents check {path}` to list every problem",
        )
        self.path = path
        self.findings = findings


@dataclass(frozen=True)
class _Analysis:
    file: str
    errors: list[Finding]
    warnings: list[Finding]
    script: PymScript | None


# Checked once per content (sha256), set of extra externals and host modules ...
_cache: dict[tuple[str, frozenset[str], tuple[HostModuleStubs, ...]], _Analysis] = {}
# ... and placed at each path that content was loaded from.
_located: dict[tuple[str, str, frozenset[str], tuple[HostModuleStubs, ...]], _Analysis] = {}
_cache_lock = threading.Lock()


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _located.clear()


def _known(extra: Collection[str]) -> dict[str, ExternalSpec | None]:
    known: dict[str, ExternalSpec | None] = dict(EXTERNALS)
    known.update({name: None for name in extra if name not in known})
    return known


def _analyse(
    path: Path,
    source: str,
    digest: str,
    extra: Collection[str],
    host_modules: tuple[HostModuleStubs, ...],
) -> _Analysis:
    file = str(path)
    decls = scan(source, file, _known(extra))
    errors = list(decls.findings)
    warnings: list[Finding] = []
    stubs = build_stubs(decls.inputs, decls.externals)
    if decls.parsed:
        monty_errors, warnings = monty_findings(decls.code, stubs, file, path.name, host_modules)
        errors += monty_errors
    errors.sort(key=lambda f: (f.line, f.rule))
    script = None
    if not errors:
        script = PymScript(
            path=path,
            sha256=digest,
            inputs=decls.inputs,
            externals=[e.name for e in decls.externals],
            code=decls.code,
            stubs=stubs,
            external_decls={e.name: e for e in decls.externals},
            warnings=warnings,
        )
    return _Analysis(file, errors, warnings, script)


def _relocate(analysis: _Analysis, path: Path) -> _Analysis:
    """The cached analysis of identical content found at another path."""
    file = str(path)
    if analysis.file == file:
        return analysis

    def moved(items: list[Finding]) -> list[Finding]:
        return [dataclasses.replace(f, file=file) for f in items]

    script = analysis.script
    if script is not None:
        script = dataclasses.replace(script, path=path, warnings=moved(script.warnings))
    return _Analysis(file, moved(analysis.errors), moved(analysis.warnings), script)


def _load(
    path: Path, extra: Collection[str], host_modules: tuple[HostModuleStubs, ...]
) -> _Analysis:
    file = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return _Analysis(file, [Finding(file, 1, "pym-read", f"cannot read: {reason}")], [], None)
    digest = hashlib.sha256(raw).hexdigest()
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return _Analysis(file, [Finding(file, line, "pym-read", "not UTF-8 text")], [], None)
    key = (digest, frozenset(extra), host_modules)
    located_key = (file, digest, frozenset(extra), host_modules)
    with _cache_lock:
        located = _located.get(located_key)
        cached = _cache.get(key)
    if located is not None:
        return located
    if cached is None:
        cached = _analyse(path, source, digest, extra, host_modules)
    located = _relocate(cached, path)
    with _cache_lock:
        _cache.setdefault(key, cached)
        _located[located_key] = located
    return located


def load_pym(
    path: Path,
    *,
    extra_externals: Collection[str] = (),
    host_modules: Sequence[HostModuleStubs] = (),
) -> PymScript:
    """The checked script, or :class:`PymLoadError` with every finding.

    ``extra_externals`` names host functions beyond the standard ones (see
    :data:`remora.sandbox.signatures.EXTERNALS`) that the caller will provide;
    ``host_modules`` the modules it will let the script import (the tool
    scripts' ``remora_code``: :func:`remora.code.load_tool_script`).
    """
    analysis = _load(Path(path), extra_externals, tuple(host_modules))
    if analysis.script is None:
        raise PymLoadError(Path(path), analysis.errors)
    return analysis.script


def check_pym(
    path: Path,
    *,
    extra_externals: Collection[str] = (),
    host_modules: Sequence[HostModuleStubs] = (),
) -> list[Finding]:
    """Every problem of one script (empty when it loads); never raises for script faults."""
    return list(_load(Path(path), extra_externals, tuple(host_modules)).errors)


def iter_pym_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The ``.pym`` files named by ``paths`` (files as given, directories recursively)."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.pym") if p.is_file())
        else:
            yield path
