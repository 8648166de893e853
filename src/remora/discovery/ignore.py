"""Gitignore-style path matching, without a dependency.

Covers what projects use: comments, blank lines, ``!`` negation, a trailing
``/`` for directories only, a leading or inner ``/`` that anchors the pattern
to the file's directory, ``*``, ``?``, ``[...]`` and ``**`` (leading, trailing
and inner). The last matching pattern wins; a file inside an ignored
directory stays ignored (the walk never enters the directory), as in git.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["DEFAULT_IGNORES", "IgnorePattern", "IgnoreRules", "compile_pattern", "parse_lines"]

DEFAULT_IGNORES: tuple[str, ...] = (
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".remora",
    "build",
    "dist",
    "*.egg-info",
)


@dataclass(frozen=True, slots=True)
class IgnorePattern:
    """One compiled line; ``regex`` matches a path relative to the pattern's base."""

    text: str
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i) and (i == 0 or pattern[i - 1] == "/"):
                after = i + 2
                if after == n:  # "**" or "dir/**": everything below
                    out.append(".*")
                    i = after
                    continue
                if pattern[after] == "/":  # "**/" : zero or more directories
                    out.append("(?:.*/)?")
                    i = after + 1
                    continue
            while i < n and pattern[i] == "*":
                i += 1
            out.append("[^/]*")
            continue
        if c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:  # no closing bracket: a literal "["
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j]
                if body[0] in "!^":
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def compile_pattern(line: str) -> IgnorePattern | None:
    """One gitignore line, or None for a blank line or a comment."""
    text = line.rstrip("\n\r")
    if not text.strip() or text.startswith("#"):
        return None
    # Trailing spaces are dropped unless escaped with a backslash.
    stripped = text.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(text):
        stripped += " "
    pattern = stripped
    negate = pattern.startswith("!")
    if negate or pattern.startswith(("\\!", "\\#")):
        pattern = pattern[1:]
    dir_only = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    if not pattern:
        return None
    anchored = "/" in pattern
    body = _translate(pattern.lstrip("/"))
    regex = f"{body}\\Z" if anchored else f"(?:.*/)?{body}\\Z"
    return IgnorePattern(text=text, regex=re.compile(regex), negate=negate, dir_only=dir_only)


def parse_lines(lines: Iterable[str]) -> list[IgnorePattern]:
    """Compile the lines of a .gitignore (or a list of config patterns)."""
    return [p for p in (compile_pattern(line) for line in lines) if p is not None]


@dataclass(frozen=True)
class _Layer:
    base: str  # relative to the project root, posix, "" for the root itself
    patterns: tuple[IgnorePattern, ...]


@dataclass(frozen=True)
class IgnoreRules:
    """Layers of patterns by precedence: defaults < .gitignore files (deeper wins) < config.

    Paths are relative to the project root with forward slashes.
    """

    defaults: tuple[_Layer, ...] = ()
    gitignores: tuple[_Layer, ...] = ()
    config: tuple[_Layer, ...] = ()
    # .gitignore files already read, by base directory
    loaded: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def build(
        cls,
        extra: Sequence[str] = (),
        *,
        defaults: Sequence[str] = DEFAULT_IGNORES,
    ) -> IgnoreRules:
        return cls(
            defaults=(_Layer("", tuple(parse_lines(defaults))),),
            config=(_Layer("", tuple(parse_lines(extra))),),
        )

    def with_gitignore(self, base: str, text: str) -> IgnoreRules:
        """These rules plus a .gitignore found in directory ``base``."""
        layer = _Layer(base, tuple(parse_lines(text.splitlines())))
        # Deeper files come later, so their patterns are checked first.
        ordered = sorted((*self.gitignores, layer), key=lambda g: g.base.count("/") + bool(g.base))
        return IgnoreRules(self.defaults, tuple(ordered), self.config, self.loaded | {base})

    def is_ignored(self, rel_path: str, is_dir: bool) -> bool:
        for layers in (self.config, self.gitignores, self.defaults):
            for layer in reversed(layers):
                decided = _match_layer(layer, rel_path, is_dir)
                if decided is not None:
                    return decided
        return False


def _match_layer(layer: _Layer, rel_path: str, is_dir: bool) -> bool | None:
    if layer.base:
        prefix = layer.base + "/"
        if not rel_path.startswith(prefix):
            return None
        rel_path = rel_path[len(prefix) :]
    for pattern in reversed(layer.patterns):
        if pattern.dir_only and not is_dir:
            continue
        if pattern.regex.match(rel_path):
            return not pattern.negate
    return None
