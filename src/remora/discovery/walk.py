"""Which files discovery reads: the given paths, walked, minus ignored ones."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from remora.discovery.ignore import IgnoreRules
from remora.discovery.result import DiscoveryWarning
from remora.errors import DiscoveryPathError

__all__ = ["SourceFile", "collect_files", "relative_to_root"]

SOURCE_SUFFIXES = (".py",)
# A file of a package whose name is no module name ("grammar.py old-copy.py"): no import
# reaches it, so it is none of the package's code (a stray copy, which a blind reviewer
# said should be deleted, not tidied). Named on the command line, it is read.
_UNIMPORTABLE = (
    "skipped: its name is no module name, so no import reaches it in its package; "
    "rename it, or name the file to analyze it"
)


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str  # absolute
    rel_path: str  # relative to the project root, forward slashes
    size: int


def relative_to_root(path: Path, project_root: Path) -> str:
    """``path`` relative to the root with forward slashes; an error if it is outside."""
    try:
        rel = path.relative_to(project_root)
    except ValueError:
        raise DiscoveryPathError(
            f"{path} is outside the project root {project_root}",
            "pass paths inside the project, or choose the root with --project",
        ) from None
    return rel.as_posix() if rel.parts else ""


def collect_files(
    paths: Sequence[Path],
    project_root: Path,
    rules: IgnoreRules,
    *,
    use_gitignore: bool = True,
) -> tuple[list[SourceFile], list[DiscoveryWarning]]:
    """The Python files under ``paths``, sorted by relative path, each once.

    A ``.py`` file named explicitly is taken even when a pattern would ignore
    it, or when its name is no module name in its package (the user asked for it);
    another file named explicitly is skipped with a warning (``remora discover *``
    names README.md too). Directories are
    walked with the ignore rules and the .gitignore files from the project root
    down. Symlinked directories are not followed, so a link cannot make the
    walk loop or leave the project; a symlinked file is read only when its
    target is inside the project, and a symlink loop is a warning.
    """
    root = project_root.resolve()
    resolved: list[Path] = []
    for given in paths:
        absolute = given if given.is_absolute() else Path.cwd() / given
        if absolute.is_symlink() and not absolute.exists():
            raise DiscoveryPathError(
                f"{given} is a broken symlink or a symlink loop",
                "pass the file it should point to",
            )
        if not absolute.exists():
            raise DiscoveryPathError(
                f"path does not exist: {given}",
                "check the path; discovery takes files and directories",
            )
        resolved.append(absolute.resolve())
    found: dict[str, SourceFile] = {}
    warnings: list[DiscoveryWarning] = []
    for absolute in resolved:
        rel = relative_to_root(absolute, root)
        if absolute.is_file():
            if absolute.name.endswith(SOURCE_SUFFIXES):
                found[rel] = SourceFile(str(absolute), rel, absolute.stat().st_size)
            else:
                warnings.append(DiscoveryWarning(rel, None, "skipped: not a Python file (.py)"))
            continue
        dir_rules = _ancestor_rules(root, rel, rules, warnings) if use_gitignore else rules
        _walk(str(absolute), rel, dir_rules, use_gitignore, found, warnings, str(root))
    return [found[k] for k in sorted(found)], warnings


def _ancestor_rules(
    root: Path, rel_dir: str, rules: IgnoreRules, warnings: list[DiscoveryWarning]
) -> IgnoreRules:
    """Add the .gitignore files of the root and of every directory down to ``rel_dir``."""
    bases = [""]
    if rel_dir:
        parts = rel_dir.split("/")
        bases += ["/".join(parts[: i + 1]) for i in range(len(parts) - 1)]
    for base in bases:
        rules = _with_gitignore(root / base if base else root, base, rules, warnings)
    return rules


def _with_gitignore(
    directory: Path, base: str, rules: IgnoreRules, warnings: list[DiscoveryWarning]
) -> IgnoreRules:
    if base in rules.loaded:
        return rules
    candidate = directory / ".gitignore"
    if not candidate.is_file():
        return rules
    try:
        text = candidate.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        rel = f"{base}/.gitignore" if base else ".gitignore"
        warnings.append(DiscoveryWarning(rel, None, f"cannot read ({exc.strerror or exc})"))
        return rules
    return rules.with_gitignore(base, text)


def _leaves(link: str, root: str) -> str | None:
    """Why a symlinked file may not be read (its target is outside the project), or None.

    Its text would go to the model, and with a remote provider leave the machine.
    """
    target = os.path.realpath(link)
    if target == root or target.startswith(root.rstrip(os.sep) + os.sep):
        return None
    return "skipped: a symlink to a file outside the project"


def _walk(
    directory: str,
    rel_dir: str,
    rules: IgnoreRules,
    use_gitignore: bool,
    found: dict[str, SourceFile],
    warnings: list[DiscoveryWarning],
    root: str,
) -> None:
    if use_gitignore:
        rules = _with_gitignore(Path(directory), rel_dir, rules, warnings)
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        warnings.append(
            DiscoveryWarning(rel_dir or ".", None, f"skipped directory: {exc.strerror or exc}")
        )
        return
    prefix = f"{rel_dir}/" if rel_dir else ""
    package = any(e.name == "__init__.py" for e in entries)
    for entry in entries:
        rel = prefix + entry.name
        try:
            if entry.is_dir(follow_symlinks=False):
                if not rules.is_ignored(rel, True):
                    _walk(entry.path, rel, rules, use_gitignore, found, warnings, root)
            elif (
                entry.name.endswith(SOURCE_SUFFIXES)
                and entry.is_file()
                and (not rules.is_ignored(rel, False))
            ):
                if entry.is_symlink() and (outside := _leaves(entry.path, root)) is not None:
                    warnings.append(DiscoveryWarning(rel, None, outside))
                    continue
                if package and not entry.name.removesuffix(".py").isidentifier():
                    warnings.append(DiscoveryWarning(rel, None, _UNIMPORTABLE))
                    continue
                found[rel] = SourceFile(entry.path, rel, entry.stat().st_size)
        except OSError as exc:
            why = "a symlink loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
            warnings.append(DiscoveryWarning(rel, None, f"skipped: {why}"))
