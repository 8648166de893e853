"""The last texts parsed, kept: a run's new text is made from an earlier parse of its file.

Tools ask several questions of one text, and each run changes one node of a file
parsed before: :func:`parse` keeps the last few texts parsed, and makes a new text
of a file from one of its whole parses (a *base*) by parsing only the definition
that changed (:mod:`remora.code.parsing.reparse`), else parses it whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from remora.code.parsing.reparse import reparsed_spans
from remora.code.parsing.source import ParsedFile, python_syntax_error

__all__ = ["parse"]

# Whole parses of each file's last texts (changed under _PARSING): a run's new text (one node
# changed) is made from one of them by parsing only the definition that changed (reparse.py).
# Bounded by their texts' size, not their number: a parsed tree takes ~300 bytes per byte of
# source (SQLAlchemy's compiler.py, 275 KB: ~85 MB), so 32 large files' trees were gigabytes.
_BASES: OrderedDict[str, list[ParsedFile]] = OrderedDict()
_BASES_PER_PATH, _BASE_BYTES = 2, 1_000_000
# The last texts parsed, whole or from a base. A file made from a base holds that base's tree
# (its spans are looked up there): an entry outlives no base of its path, or the bound on the
# bases would bound nothing (16 files of compiler.py kept 16 evicted trees alive).
_PARSED: OrderedDict[tuple[str, str], ParsedFile] = OrderedDict()
_PARSED_ENTRIES = 16


# Host functions also run on the sandbox's own threads: two runs asking about the same new
# text at once parsed it twice (a third of sample_data's whole parses on click). Parsing holds
# the GIL throughout, so one at a time costs no parallelism; the second finds the first's.
_PARSING = threading.Lock()


def parse(text: str, path: str = "<text>") -> ParsedFile:
    """The parsed file (the last few texts are kept: tools ask several questions of one text)."""
    with _PARSING:
        key = (text, path)
        file = _PARSED.get(key)
        if file is None:
            file = _parse(text, path)
            _PARSED[key] = file
            if len(_PARSED) > _PARSED_ENTRIES:
                _PARSED.popitem(last=False)
        _PARSED.move_to_end(key)
        return file


def _parse(text: str, path: str) -> ParsedFile:
    data = text.encode("utf-8")
    bases = _BASES.get(path, [])
    for base in bases:
        if base.data == data:  # evicted from _PARSED while kept here: no parse at all
            _BASES.move_to_end(path)
            return base
    for base in bases:
        tree = reparsed_spans(base, data)
        if tree is not None:
            return ParsedFile(
                text, path, tree=(tree.module, tree.spans), definitions=tree.definitions
            )
    if bases and bases[0].python_reads:
        _python_refuses(text, path)
    file = ParsedFile(text, path)
    bases = _BASES.setdefault(path, [])
    if len(bases) < _BASES_PER_PATH:
        bases.append(file)
    else:  # the file's first text stays: every run's change is made on it
        _forget(path, keep=bases[0])
        bases[-1] = file
    _BASES.move_to_end(path)
    kept = sum(len(base.data) for files in _BASES.values() for base in files)
    while kept > _BASE_BYTES and len(_BASES) > 1:  # the file just parsed always stays
        gone, files = _BASES.popitem(last=False)
        kept -= sum(len(base.data) for base in files)
        _forget(gone)
    return file


def _forget(path: str, keep: ParsedFile | None = None) -> None:
    """Drop ``path``'s parsed texts, but for ``keep``, when a base of it goes."""
    for key in [k for k, file in _PARSED.items() if k[1] == path and file is not keep]:
        del _PARSED[key]


# A text that does not parse is refused by the interpreter's own parser first when it read the
# file's base text: it stops at the error 3-4x sooner than LibCST (click's core.py, an error
# at line 644: 3.8 vs 12.8 ms), and a model's edit that does not parse is common (the lint
# stand-in's every one). LibCST reads newer syntax than the interpreter (the module docstring):
# only a file the interpreter read before the change is refused this way, and only when the
# interpreter refuses the new text, where the change, not the file, is what it cannot read.
def _python_refuses(text: str, path: str) -> None:
    """ValueError as :class:`ParsedFile` raises it when the interpreter cannot parse ``text``."""
    why = python_syntax_error(text, path)
    if why is not None:
        raise ValueError(
            f"{path}:{why.lineno}: cannot parse the file ({why.msg}); fix the syntax error first"
        )
