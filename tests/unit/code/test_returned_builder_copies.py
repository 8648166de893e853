"""A builder's new copy is asserted and named by what the call changed on it.

rfc3986's ``URIBuilder().add_port(0)`` returns another builder; its tests asserted every
attribute (``result.scheme is None`` ... ``result.port == "0"``) under the name
``returns_uribuilder``, and a blind reviewer asked for the name to say what is checked and
for "the repeated None asserts" to go. Made-up module here: a link whose ``with_port``
returns a new link. The probe runs as the sandbox runs it; the attributes that read as on
the instance before the call are its own, not the call's work.
"""

from __future__ import annotations

from pathlib import Path

from probe_support import failed_tests, observed_test, probe_outcome

from remora.code.testgen.test_names import behaviour_name

LINKS = """\
class Link:
    def __init__(self, scheme=None, host=None, port=None):
        self.scheme = scheme
        self.host = host
        self.port = port

    def with_port(self, port):
        return Link(self.scheme, self.host, str(port))
"""
BUILT = {"scheme": "https", "host": None}


def test_a_returned_copy_is_asserted_and_named_by_what_the_call_changed(tmp_path: Path) -> None:
    (tmp_path / "links.py").write_text(LINKS)
    args = {"port": 8080}
    test = observed_test(
        tmp_path, "links", "with_port", args, {"Link"}, owner="Link", owner_args=BUILT
    )
    asserts = [line.strip() for line in test.splitlines() if "assert" in line]
    assert asserts == ["assert result.port == '8080'"]
    row = probe_outcome(tmp_path, "links", "Link.with_port", args, owner="Link", owner_args=BUILT)
    assert behaviour_name("with_port", row, "typical", set(), set(), BUILT) == (
        "test_with_port_sets_port"
    )
    assert failed_tests(tmp_path / "code", "links", LINKS, {"with_port": test}) == set()
    dropped = LINKS.replace("str(port)", "None")
    assert failed_tests(tmp_path / "dropped", "links", dropped, {"with_port": test}) == {
        "with_port"
    }
