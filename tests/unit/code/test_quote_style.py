"""Strings a change wrote take the file's quote where the swap means the same."""

from __future__ import annotations

from remora.code.formatter import written_ranges
from remora.code.quote_style import file_quote, requoted

SINGLE = """\
def name(self):
    return '%s(%s)' % (type(self).__name__, self.items())


def other(self):
    return ', '.join(x for x in 'ab')


KEYS = ('head', 'tail')
"""


def _changed(original: str, old: str, new: str) -> str:
    text = original.replace(old, new)
    return requoted(original, text, written_ranges(original, text))


def test_a_single_quoted_file_is_recognised() -> None:
    assert file_quote(SINGLE) == "'"
    assert file_quote(SINGLE.replace("'", '"')) == '"'


def test_a_file_without_a_clear_quote_has_none() -> None:
    mixed = "A = 'a'\nB = \"b\"\nC = 'c'\nD = \"d\"\n"
    assert file_quote(mixed) is None
    assert file_quote("X = 1\n") is None


def test_strings_holding_a_quote_do_not_count() -> None:
    # Each of these must keep its quote, so it says nothing about the file's habit.
    assert file_quote('A = "it\'s"\nB = "don\'t"\nC = "isn\'t"\nD = \'x\'\n') is None


def test_a_written_f_string_takes_the_files_quote() -> None:
    out = _changed(
        SINGLE,
        "'%s(%s)' % (type(self).__name__, self.items())",
        'f"{type(self).__name__}({self.items()})"',
    )
    assert "return f'{type(self).__name__}({self.items()})'" in out


def test_lines_the_change_did_not_write_keep_their_quotes() -> None:
    original = SINGLE + 'LEGACY = "kept"\n'
    out = _changed(original, "'%s(%s)' % (type(self).__name__, self.items())", '"{}".format(1)')
    assert "return '{}'.format(1)" in out
    assert 'LEGACY = "kept"' in out


def test_a_string_whose_quote_would_change_its_meaning_is_left() -> None:
    for written in ("f\"{d['k']}\"", '"it\'s"', '"a\\tb"', '"""doc"""'):
        out = _changed(SINGLE, "'%s(%s)' % (type(self).__name__, self.items())", written)
        assert f"return {written}" in out


def test_a_double_quoted_file_keeps_double_quotes() -> None:
    original = SINGLE.replace("'", '"')
    out = _changed(original, '"%s(%s)"', 'f"{1}" + \'x\' + "%s(%s)"')
    assert 'return f"{1}" + "x" + "%s(%s)"' in out


def test_text_that_does_not_tokenize_is_returned_as_it_is() -> None:
    broken = SINGLE + "X = (\n"
    assert requoted(SINGLE, broken, [(1, 20)]) == broken
