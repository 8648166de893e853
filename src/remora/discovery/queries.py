"""Query packs: ``.scm`` files under ``<dir>/<language>/<pack>/``, compiled once.

A pack says what discovery finds. Its captures follow one convention:

- ``@<kind>.def`` marks the syntax node whose byte range is the node's text,
  for kind ``file``, ``class`` or ``function``;
- ``@<kind>.name`` marks the identifier that names it;
- captures whose name starts with ``_`` are free for the pack's own predicates.

When two matches share a name node (a decorated definition and the plain
definition inside it), the outer one wins, so the text includes the
decorators. A function whose nearest enclosing definition is a class becomes a
method. Compiled packs are cached per process and recompiled when a file's
mtime changes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import tree_sitter
import tree_sitter_python

from remora.errors import QueryPackError

__all__ = [
    "BUNDLED_QUERY_DIR",
    "CAPTURE_KINDS",
    "QueryPack",
    "find_pack_dir",
    "get_language",
    "load_query_pack",
]

BUNDLED_QUERY_DIR = Path(__file__).parent / "queries"
CAPTURE_KINDS = ("file", "class", "function")

_LANGUAGES: dict[str, tree_sitter.Language] = {}
_CACHE: dict[tuple[str, str, str], tuple[tuple[tuple[str, int], ...], QueryPack]] = {}
_LOCK = threading.Lock()


def get_language(language: str) -> tree_sitter.Language:
    """The tree-sitter language object for ``language`` (only Python today)."""
    if language != "python":
        raise QueryPackError(
            f"unsupported discovery language {language!r}",
            "set discovery.language to 'python'",
        )
    lang = _LANGUAGES.get(language)
    if lang is None:
        lang = _LANGUAGES[language] = tree_sitter.Language(tree_sitter_python.language())
    return lang


@dataclass(frozen=True)
class QueryPack:
    """A compiled pack: one query over all its ``.scm`` files."""

    language: str
    name: str
    directory: Path
    files: tuple[Path, ...]
    query: tree_sitter.Query
    # ``<kind>.def`` capture name -> kind
    def_kinds: dict[str, str]
    # kind -> its ``<kind>.name`` capture name
    name_capture: dict[str, str]


def find_pack_dir(language: str, pack: str, query_dir: Path | None = None) -> Path:
    """The directory holding ``pack``: the user's ``query_dir`` first, then the bundled one."""
    searched = [d for d in (query_dir, BUNDLED_QUERY_DIR) if d is not None]
    for base in searched:
        candidate = base / language / pack
        if candidate.is_dir() and any(candidate.glob("*.scm")):
            return candidate
    where = ", ".join(str(d / language / pack) for d in searched)
    raise QueryPackError(
        f"query pack {pack!r} for {language} not found (looked in {where})",
        "set discovery.query_pack to 'remora_core' or point discovery.query_dir at a "
        "directory holding <language>/<pack>/*.scm",
    )


def load_query_pack(
    language: str = "python", pack: str = "remora_core", query_dir: Path | None = None
) -> QueryPack:
    """Compile ``pack`` (cached; recompiled when one of its files changes)."""
    directory = find_pack_dir(language, pack, query_dir)
    files = tuple(sorted(directory.glob("*.scm")))
    signature = tuple((str(f), f.stat().st_mtime_ns) for f in files)
    key = (language, pack, str(directory))
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == signature:
            return cached[1]
    compiled = _compile(language, pack, directory, files)
    with _LOCK:
        _CACHE[key] = (signature, compiled)
    return compiled


def _compile(language: str, pack: str, directory: Path, files: tuple[Path, ...]) -> QueryPack:
    lang = get_language(language)
    sources: list[str] = []
    for path in files:
        try:
            sources.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise QueryPackError(
                f"cannot read query file {path}: {exc}",
                "check the file's permissions and encoding",
            ) from exc
    try:
        query = tree_sitter.Query(lang, "\n".join(sources))
    except tree_sitter.QueryError:
        # Compile each file alone so the error names the file it is in.
        for path, text in zip(files, sources, strict=True):
            try:
                tree_sitter.Query(lang, text)
            except tree_sitter.QueryError as exc:
                raise QueryPackError(
                    f"invalid query in {path}: {exc}",
                    "fix the S-expression; see tree-sitter's query syntax",
                ) from exc
        raise QueryPackError(
            f"the files of query pack {directory} do not combine",
            "check for patterns split across files",
        ) from None
    def_kinds: dict[str, str] = {}
    name_capture: dict[str, str] = {}
    for index in range(query.capture_count):
        capture = query.capture_name(index)
        kind, _, role = capture.partition(".")
        if capture.startswith("_"):
            continue
        if kind not in CAPTURE_KINDS or role not in ("def", "name"):
            owner = next(
                (p for p, s in zip(files, sources, strict=True) if f"@{capture}" in s), directory
            )
            raise QueryPackError(
                f"unknown capture @{capture} in {owner}",
                "captures are @<kind>.def and @<kind>.name with kind file, class or function; "
                "prefix helper captures with _",
            )
        if role == "def":
            def_kinds[capture] = kind
        else:
            name_capture[kind] = capture
    if not def_kinds:
        raise QueryPackError(
            f"query pack {directory} captures no @<kind>.def",
            "add at least one pattern such as (module) @file.def",
        )
    return QueryPack(
        language=language,
        name=pack,
        directory=directory,
        files=files,
        query=query,
        def_kinds=def_kinds,
        name_capture=name_capture,
    )
