"""A lint rewrite keeps every value ``repr`` formatted: ``%r`` is ``{x!r}``, never ``{x}``.

Two blind reviewers of a selector parser's lint fixes edited three ``__repr__`` rewrites of
``"%s[%r.%s]" % (...)`` into ``f"...[{self.selector}...]"``: the same text only while the
tree classes define no ``__str__``, so the calls that compared old and new agreed.
"""

from __future__ import annotations

import pytest

from remora.code.lint.repr_conversions import lost_reprs


def _method(returned: str) -> str:
    return f"class Hash:\n    def __repr__(self):\n        return {returned}\n"


BEFORE = _method('"%s[%r#%s]" % (self.__class__.__name__, self.selector, self.id)')


@pytest.mark.parametrize(
    "after",
    [
        _method('f"{type(self).__name__}[{self.selector}#{self.id}]"'),
        _method('"{}[{}#{}]".format(type(self).__name__, self.selector, self.id)'),
        _method('"%s[%s#%s]" % (type(self).__name__, self.selector, self.id)'),
    ],
)
def test_a_repr_turned_into_str_is_refused(after: str) -> None:
    assert lost_reprs(BEFORE, after).startswith("the replacement formats 1 value(s) with str()")


@pytest.mark.parametrize(
    "after",
    [
        _method('f"{type(self).__name__}[{self.selector!r}#{self.id}]"'),
        _method('"{}[{!r}#{}]".format(type(self).__name__, self.selector, self.id)'),
        _method('f"{type(self).__name__}[{repr(self.selector)}#{self.id}]"'),
        # A named field and a width still count as the one %r.
        BEFORE.replace("%r", "%-4r"),
    ],
)
def test_a_repr_kept_in_any_form_passes(after: str) -> None:
    assert lost_reprs(BEFORE, after) == ""


def test_a_literal_percent_sign_is_no_conversion() -> None:
    before = 'def ratio(x):\n    return "%d%% of %r" % (x, x)\n'
    assert lost_reprs(before, 'def ratio(x):\n    return f"{x}% of {x!r}"\n') == ""
    assert lost_reprs(before, 'def ratio(x):\n    return f"{x}% of {x}"\n') != ""
