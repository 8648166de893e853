"""A lint rewrite may not change what the code does: calls and reads dropped or added."""

from __future__ import annotations

import pytest

from remora.code.lint.code_uses import lost_comments, lost_names, own_texts
from remora.code.parsing import NodeRef, ParsedFile, locate

PARAMETERIZE = (
    "def f(string, separator):\n"
    "    sep = escape(separator)\n"
    "    string = sub(r'%s{2,}' % sep, separator, string)\n"
    "    return string\n"
)


@pytest.mark.parametrize(
    ("after", "lost"),
    [
        # UP031 fixed: the same reads and calls.
        (PARAMETERIZE.replace("r'%s{2,}' % sep", "rf'{sep}{{2,}}'"), []),
        # What SmolLM2 wrote for that UP031: the finding is gone, and so is the work.
        (
            PARAMETERIZE.replace("r'%s{2,}' % sep, separator, string", "r'%s{2,}', '%.2f'"),
            ["sep read less often", "separator read less often", "string read less often"],
        ),
        # A call dropped with its unused result (F841 by deletion) changes behaviour.
        (PARAMETERIZE.replace("    sep = escape(separator)\n", ""), ["escape() dropped"]),
        # What the 0.5B model wrote for humanize's RET504: the finding is gone, the
        # suffix is appended twice.
        (
            PARAMETERIZE.replace(
                "    return string\n", "    return string + sub(sep, '', string)\n"
            ),
            ["sub() added", "sep read more often", "string read more often", "sub read more often"],
        ),
    ],
)
def test_a_rewrite_keeps_the_reads_and_calls(after: str, lost: list[str]) -> None:
    assert lost_names(PARAMETERIZE, after) == lost


def test_a_name_the_code_read_may_not_be_assigned_anew() -> None:
    # PLW0602 (a ``global`` never assigned) "fixed" by binding the name as a new local: the
    # module's registry is filled no more (a blind reviewer: "lost").
    before = "def add(name, fmt):\n    global formats\n    formats[name] = fmt.lower()\n"
    rebound = before.replace("    global formats\n", "    formats = {}\n")
    assert lost_names(before, rebound) == ["formats assigned more often"]
    # Dropping the declaration alone is the fix: the same reads and writes.
    assert lost_names(before, before.replace("    global formats\n", "")) == []


def test_a_rewrite_keeps_every_comment() -> None:
    # A PLW0602 rewrite of the header dropped ``# pragma: no cover`` (a blind reviewer:
    # "should be put back").
    header, body = "def set(option, value):", "\n    options[option] = value\n"
    before = f"{header}  # pragma: no cover\n    global options{body}"
    assert lost_comments(before, header + body) == ["# pragma: no cover"]
    assert lost_comments(before, f"{header}  # pragma: no cover{body}") == []


def test_an_assignment_may_go_with_its_reads_and_a_new_name_may_be_read() -> None:
    # F841: an unused variable of a plain name; RET504: a temporary returned at once.
    assert lost_names("def f(x):\n    y = x\n    return x\n", "def f(x):\n    return x\n") == []
    temporary = "def f(x):\n    t = g(x)\n    return t\n"
    assert lost_names(temporary, "def f(x):\n    return g(x)\n") == []
    bare = "try:\n    f()\nexcept:\n    pass\n"
    assert lost_names(bare, bare.replace("except:", "except Exception:")) == []


DECODED = (
    "def __init__(self, url, lazy=False, query_plus_is_space=None):\n"
    "    self._url = url\n"
    "    if query_plus_is_space is None:\n"
    "        query_plus_is_space = url.scheme not in NO_QUERY_PLUS_SCHEMES\n"
    "    self._query_plus_is_space = query_plus_is_space\n"
    "    if not lazy:\n"
    "        self.host, self.userinfo\n"
    "    return\n"
)


def test_an_assignment_removed_excuses_only_the_reads_of_its_value() -> None:
    # hyperlink's DecodedURL.__init__: B018 "fixed" by a body that dropped the default
    # and the eager decoding; one assignment removed must not excuse the other reads.
    after = (
        "def __init__(self, url, lazy=False, query_plus_is_space=None):\n"
        "    self._url = url\n"
        "    self._query_plus_is_space = query_plus_is_space\n"
        "    self._lazy = lazy\n"
    )
    assert lost_names(DECODED, after) == ["self read less often"]
    # The default computed still, only the eager reads gone: those are the loss.
    kept = DECODED.replace("    if not lazy:\n        self.host, self.userinfo\n", "")
    assert lost_names(DECODED, kept) == ["lazy read less often", "self read less often"]


def test_a_statement_that_does_nothing_may_not_be_added() -> None:
    # The 0.5B, shown E711's example (`if arg is not None:` / `pass`), wrote the
    # header with the example's `pass` under it: the same behaviour, one more line.
    before = "def get(item):\n    if item == None:\n        return 0\n    return item\n"
    after = before.replace("if item == None:\n", "if item is None:\n        pass\n")
    assert lost_names(before, after) == ["a statement that does nothing (pass or ...) added"]
    assert lost_names(before, before.replace("item == None", "item is None")) == []


CLASS_FILE = (
    "import re\n\n\n"
    "class Cleaner:\n"
    "    @staticmethod\n"
    "    def clean(string, separator):\n"
    "        sep = re.escape(separator)\n"
    "        string = re.sub(r'%s{2,}' % sep, separator, string)\n"
    "        return string\n\n\n"
    "def other(string):\n"
    "    return re.sub('x', '', string)\n"
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("r'%s{2,}' % sep", "rf'{sep}{{2,}}'"),
        ("r'%s{2,}' % sep, separator, string", "r'%s{2,}', '%.2f'"),
        ("        sep = re.escape(separator)\n", ""),
        ("        return string\n", "        return string + re.sub(sep, '', string)\n"),
    ],
)
def test_a_method_is_judged_on_its_own_text_as_on_the_whole_files(old: str, new: str) -> None:
    after = CLASS_FILE.replace(old, new)
    ref = NodeRef("method", "Cleaner.clean", 5)
    node, replaced = locate(ParsedFile(CLASS_FILE), ref), locate(ParsedFile(after), ref)
    lo = CLASS_FILE.index(old)
    own_before, own_after = own_texts(node, replaced, (lo, lo + len(old.rstrip("\n"))))
    assert own_before.startswith("if 1:\n    @staticmethod\n") and "def other" not in own_before
    assert lost_names(own_before, own_after) == lost_names(CLASS_FILE, after)
