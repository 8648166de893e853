"""A call whose only work left an argument as it was given, through a normaliser, shows nothing.

rfc3986's ``URIBuilder().add_host("github.com")`` returns a builder whose ``host`` is
``normalize_host("github.com")``: the text it was given, already lower-case, so the test
passes were the normaliser gone; blind reviewers rejected three such tests ("'github.com'
is already normalized, so the lowercasing in add_host is never exercised"). Made-up module
here, probed as the sandbox probes it: a link whose ``with_host`` returns a copy with the
host normalised, whose ``with_scheme`` stores its argument as it is, and whose ``rename``
strips the name it stores.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from probe_support import probe_outcome

from remora.code.testgen.no_op_calls import shows_nothing

LINKS = """\
def normalize_host(host):
    return host.lower()


class Link:
    def __init__(self, host=None, scheme=None, name=None):
        self.host = host
        self.scheme = scheme
        self.name = name

    def with_host(self, host):
        return Link(host=normalize_host(host), scheme=self.scheme)

    def with_scheme(self, scheme):
        return Link(host=self.host, scheme=scheme)

    def rename(self, name):
        self.name = name.strip()
"""


def _shows_nothing(tmp_path: Path, name: str, args: dict[str, Any]) -> bool:
    (tmp_path / "links.py").write_text(LINKS)
    qualname = f"Link.{name}"
    row = probe_outcome(tmp_path, "links", qualname, args, owner="Link", observe=["name"])
    row["args"] = args
    function = next(
        n for n in ast.walk(ast.parse(LINKS)) if isinstance(n, ast.FunctionDef) and n.name == name
    )
    return shows_nothing(row, function, {}, hands_on=False)


def test_an_input_already_in_normal_form_shows_nothing_of_the_normaliser(tmp_path: Path) -> None:
    assert _shows_nothing(tmp_path, "with_host", {"host": "example.com"})
    assert not _shows_nothing(tmp_path, "with_host", {"host": "Example.COM"})
    # The instance's own attribute, changed through a method of the text: the same.
    assert _shows_nothing(tmp_path, "rename", {"name": "plain"})
    assert not _shows_nothing(tmp_path, "rename", {"name": " padded "})


def test_an_input_stored_as_it_is_is_the_node_s_work(tmp_path: Path) -> None:
    assert not _shows_nothing(tmp_path, "with_scheme", {"scheme": "https"})


CHECKS = """\
from pathlib import PurePath


class Invalid(Exception):
    pass


def checked_name(value):
    if not value:
        return ""
    if "/" in value:
        raise Invalid("a slash")
    return value


def as_text(name):
    if isinstance(name, PurePath):
        return str(name)
    return name


def shout(value):
    if not value:
        return value
    return value.upper()
"""


def _handed_back(tmp_path: Path, name: str, args: dict[str, Any]) -> bool:
    (tmp_path / "checks.py").write_text(CHECKS)
    row = probe_outcome(tmp_path, "checks", name, args)
    row["args"] = args
    function = next(
        n for n in ast.walk(ast.parse(CHECKS)) if isinstance(n, ast.FunctionDef) and n.name == name
    )
    return shows_nothing(row, function, None, hands_on=True)


def test_a_validator_s_input_handed_back_shows_nothing(tmp_path: Path) -> None:
    # pathvalidate's validate_filename_arg("a") == "a", to_str("a") == "a": "never covers
    # the conversion to ArgumentTypeError", "only checks a plain string comes back".
    assert _handed_back(tmp_path, "checked_name", {"value": "report"})
    assert _handed_back(tmp_path, "as_text", {"name": "report"})
    # A node that also computes (upper()) keeps the test of its input handed back.
    assert not _handed_back(tmp_path, "shout", {"value": ""})
