"""A text the interpreter's parser reads but LibCST refuses to build (a bare ``except:``
before another handler, which only CPython's compiler rejects) is a text that does not
parse, never an exception out of a tool: asteval's lint runs failed on a drafted rewrite
so ("The bare except: handler must be the last one.")."""

from __future__ import annotations

import ast

import libcst as cst
import pytest

from remora.code.parsing import ParsedFile, parse
from remora.code.parsing.reparse_tree import Unreadable, parse_snippet

GOOD = (
    "def number(text):\n"
    "    try:\n"
    "        return int(text)\n"
    "    except ValueError:\n"
    "        return -1\n"
    "    except:\n"
    "        return 0\n"
)
# The two handlers swapped: ast reads it, LibCST and the compiler do not.
BARE_FIRST = (
    GOOD.replace("except ValueError:", "except KEEP:")
    .replace("except:", "except ValueError:")
    .replace("except KEEP:", "except:")
)


def test_the_interpreters_parser_reads_what_libcst_refuses() -> None:
    ast.parse(BARE_FIRST)
    with pytest.raises(cst.CSTValidationError):
        cst.parse_module(BARE_FIRST)


def test_a_file_libcst_refuses_to_build_is_a_parse_error_naming_the_file() -> None:
    with pytest.raises(ValueError, match=r"m\.py: .*bare except"):
        ParsedFile(BARE_FIRST, "m.py")


def test_a_drafted_edit_of_a_parsed_file_that_libcst_refuses_is_a_parse_error() -> None:
    parse(GOOD, "edited.py")  # the text an edit is parsed again from
    with pytest.raises(ValueError, match="bare except"):
        parse(BARE_FIRST, "edited.py")


def test_a_snippet_libcst_refuses_is_unreadable() -> None:
    with pytest.raises(Unreadable):
        parse_snippet(cst.parse_module(GOOD), BARE_FIRST.encode())
