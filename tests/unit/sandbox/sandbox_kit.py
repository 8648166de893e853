"""Helpers shared by the sandbox tests: temp projects, scripts, configs."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

from remora.config import SandboxConfig
from remora.sandbox import EXTERNALS, ExternalDecl, PymScript

HEADER = "from remora.pym import Input, external\n"
SECRET = "TOP-SECRET-OUTSIDE-THE-PROJECT\n"


def declare(*names: str) -> str:
    """``@external`` declarations of standard externals, as a script author writes them."""
    return "".join(f"@external\n{EXTERNALS[name].stub}\n" for name in names)


def write_script(directory: Path, name: str, body: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return path


def make_project(tmp_path: Path) -> Path:
    """A project with text, binary and nested files, plus symlinks that leave it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    root = tmp_path / "project"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "a.py").write_text("import os\n\n\ndef f(x):\n    return x + 1\n")
    (root / "src" / "pkg" / "b.py").write_text("def g():\n    return 'needle'\n")
    (root / "notes.txt").write_text("hello\nneedle here\n")
    (root / "blob.bin").write_bytes(b"\x89PNG\x00\xff\xfe")
    os.symlink(outside, root / "leak_dir")
    os.symlink(outside / "secret.txt", root / "leak_file")
    return root


def sandbox_config(**overrides: Any) -> SandboxConfig:
    """Small pool; limits overridden for fast tests (e.g. max_duration_s=0.5)."""
    fields = {
        k: overrides.pop(k)
        for k in list(overrides)
        if k in ("max_duration_s", "max_memory_mb", "max_recursion_depth", "max_suspensions")
    }
    return SandboxConfig.model_validate({"workers": 2, **overrides, "overrides": fields})


def raw_script(path: Path, code: str, externals: tuple[str, ...] = ()) -> PymScript:
    """A script that skips the loader's checks: to show the sandbox holds on its own."""
    decls = {name: ExternalDecl(name, True, (), "", 1) for name in externals}
    return PymScript(
        path=path, sha256="", inputs=[], externals=list(externals), code=code, external_decls=decls
    )


def monty_children() -> set[int]:
    """Pids of this process's ``monty`` worker children (Linux /proc)."""
    me = os.getpid()
    pids: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == me and name == "monty":
            pids.add(int(entry))
    return pids
