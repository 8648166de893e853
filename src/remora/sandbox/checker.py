"""Ask Monty itself what it rejects in a script, without running any of it.

Two feeds on a short-lived worker:

* **parse only**: the code behind one extra first line that names an undefined
  variable. Monty parses the whole module before it executes anything, so an
  unsupported construct (class inheritance, ``yield``, ``del``, ``async for``,
  ...) is reported with its line, and a clean parse stops at that first line
  with a ``NameError``: nothing of the script runs.
* **type check**: the code plus two trailing sentinel lines, checked against
  stubs of the script's inputs and externals. The first sentinel is a
  guaranteed type error, so the checker always rejects the feed and nothing
  runs; the second (``del``) is refused by Monty's parser should the checker
  ever let the feed through. Diagnostics on the sentinel lines are dropped.

A check takes a few hundred milliseconds (a worker process and the type
checker), and every command that loads agents checks their scripts; a script
found clean is remembered on disk by the digest of its code, its stubs and
the Monty version, so unchanged scripts are not checked again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from importlib.metadata import version
from pathlib import Path

from pydantic_monty import (
    ExternalModule,
    Monty,
    MontyCrashedError,
    MontyRuntimeError,
    MontySyntaxError,
    MontyTypingError,
    ResourceLimits,
)

from remora.sandbox.declarations import ExternalDecl, Finding, HostModuleStubs, PymInput

__all__ = ["build_stubs", "monty_findings"]

_HALT = "__remora_parse_only__"
_SENTINEL = "__remora_sentinel__"
_STUB_HEADER = "from typing import Any, Literal, Optional, Union\n"
# Exceptions Monty 1.4.0 raises and lets scripts catch, but whose names its
# type checker does not know: without these, `except FileNotFoundError` (what
# read_file raises) would be a load error.
_MISSING_BUILTINS = """
class UnboundLocalError(NameError): ...
class UnicodeDecodeError(ValueError): ...
class UnicodeEncodeError(ValueError): ...
class ImportError(Exception): ...
class ModuleNotFoundError(ImportError): ...
class FileNotFoundError(OSError): ...
class FileExistsError(OSError): ...
class IsADirectoryError(OSError): ...
class NotADirectoryError(OSError): ...
class PermissionError(OSError): ...
"""
# The checker's own worker: no script code runs in it, but bound it anyway.
_CHECK_LIMITS: ResourceLimits = {"max_feed_duration_secs": 5.0, "max_memory": 128 * 1024 * 1024}
_CHECK_TIMEOUT_S = 30.0


def build_stubs(inputs: Iterable[PymInput], externals: Iterable[ExternalDecl]) -> str:
    """Type stubs for the checker: inputs as typed globals, externals as functions."""
    lines = [_STUB_HEADER, _MISSING_BUILTINS]
    lines += [f"{item.name}: {item.annotation}" for item in inputs]
    lines += [decl.stub for decl in externals]
    return "\n".join(lines) + "\n"


def _parse_findings(pool: Monty, code: str, file: str, script_name: str) -> list[Finding]:
    with pool.checkout(script_name=script_name, limits=_CHECK_LIMITS) as session:
        try:
            session.feed_run(f"{_HALT}\n{code}", print_callback=lambda *_: None)
        except MontySyntaxError as exc:
            line = max((f.line for f in exc.traceback()), default=2) - 1
            return [Finding(file, max(line, 1), "pym-syntax", exc.display("msg"))]
        except MontyRuntimeError as exc:
            frames = exc.traceback()
            line = frames[-1].line if frames else 1
            if line == 1 and _HALT in exc.display("msg"):
                return []  # parsed; stopped at the halt line before any script code ran
            return [Finding(file, max(line - 1, 1), "pym-unsupported", exc.display("msg"))]
    return []


def _type_findings(
    pool: Monty,
    code: str,
    stubs: str,
    file: str,
    script_name: str,
    host_modules: Sequence[HostModuleStubs],
) -> tuple[list[Finding], list[Finding]]:
    last_line = code.count("\n") + 1
    feed = f"{code}\n{_SENTINEL}: int = ''\ndel {_SENTINEL}\n"
    with pool.checkout(
        script_name=script_name,
        limits=_CHECK_LIMITS,
        # The stubs alone: enough for the type checker, which runs nothing.
        external_modules={m.name: ExternalModule({}, stubs=m.stubs) for m in host_modules},
        type_check=True,
        type_check_stubs=stubs,
        type_check_format="json",
    ) as session:
        try:
            session.feed_run(feed, print_callback=lambda *_: None)
        except MontyTypingError as exc:
            diagnostics = json.loads(exc.display())
        except (MontyRuntimeError, MontySyntaxError):
            return [], []  # the checker passed the feed; the parser stopped it at `del`
        else:  # pragma: no cover - the `del` sentinel makes this unreachable
            raise AssertionError("the type-check feed ran; it must never run")
    errors: list[Finding] = []
    warnings: list[Finding] = []
    for diag in diagnostics:
        row = int(diag.get("location", {}).get("row", 1))
        if row > last_line:
            continue
        finding = Finding(
            file, row, str(diag.get("code", "type-error")), str(diag.get("message", ""))
        )
        (errors if diag.get("severity") == "error" else warnings).append(finding)
    return errors, warnings


def _clean_marker(code: str, stubs: str, host_modules: Sequence[HostModuleStubs]) -> Path:
    """Where a clean check of this code with these stubs is remembered.

    The host modules' stubs are part of the key: a script that was clean
    against one version of the toolkit is checked again against another.
    """
    override = os.environ.get("REMORA_CHECK_CACHE")
    root = Path(override).expanduser() if override else Path.home() / ".cache/remora/pym-checked"
    hosts = "\0".join(f"{m.name}\0{m.stubs}" for m in host_modules)
    key = f"{version('pydantic-monty')}\0{code}\0{stubs}\0{hosts}".encode()
    return root / hashlib.sha256(key).hexdigest()


def monty_findings(
    code: str,
    stubs: str,
    file: str,
    script_name: str,
    host_modules: Sequence[HostModuleStubs] = (),
) -> tuple[list[Finding], list[Finding]]:
    """(errors, warnings) from Monty's parser and type checker, with the script's lines.

    ``host_modules`` are the modules the script may import; any other import is
    a type error.
    """
    marker = _clean_marker(code, stubs, host_modules)
    if marker.is_file():
        return [], []
    errors, warnings = _check(code, stubs, file, script_name, host_modules)
    if not errors and not warnings:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError:
            pass  # an unwritable cache only means the next load checks again
    return errors, warnings


def _check(
    code: str, stubs: str, file: str, script_name: str, host_modules: Sequence[HostModuleStubs]
) -> tuple[list[Finding], list[Finding]]:
    try:
        with Monty(max_processes=1, request_timeout=_CHECK_TIMEOUT_S) as pool:
            errors = _parse_findings(pool, code, file, script_name)
            type_errors, warnings = _type_findings(
                pool, code, stubs, file, script_name, host_modules
            )
    except MontyCrashedError as exc:
        return [Finding(file, 1, "pym-checker", f"the Monty checker failed: {exc}")], []
    # A parse error usually makes the type checker repeat it: keep the parser's.
    seen = {f.line for f in errors}
    errors += [f for f in type_errors if f.line not in seen or f.rule != "invalid-syntax"]
    errors.sort(key=lambda f: (f.line, f.rule))
    return errors, warnings
