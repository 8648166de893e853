"""A summary that only restates the node's name is refused, with what to write instead.

The cases are the review corpus's development part (tomli 2.0.1, semver 3.0.2,
itsdangerous 2.2.0, isodate 0.7.2): small excerpts of the functions, and the summaries
blind reviewers rejected as noise ("it only restates the name") or accepted.
"""

from __future__ import annotations

import pytest

from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.docstring.text import compose
from remora.code.parsing import NodeRef, SourceNode, locate, parse

TOMLI = """\
class Flags:
    FROZEN = 0

    def __init__(self) -> None:
        self._flags: dict[str, dict] = {}
        self._pending_flags: set[tuple[Key, int]] = set()

    def finalize_pending(self) -> None:
        for key, flag in self._pending_flags:
            self.set(key, flag, recursive=False)
        self._pending_flags.clear()

    def unset_all(self, key: Key) -> None:
        cont = self._flags
        for k in key[:-1]:
            if k not in cont:
                return
            cont = cont[k]["nested"]
        cont.pop(key[-1], None)


def skip_comment(src: str, pos: Pos) -> Pos:
    try:
        char: str | None = src[pos]
    except IndexError:
        char = None
    if char == "#":
        return skip_until(src, pos + 1, "\\n", error_on=ILLEGAL_COMMENT_CHARS, error_on_eof=False)
    return pos


def skip_comments_and_array_ws(src: str, pos: Pos) -> Pos:
    while True:
        pos_before_skip = pos
        pos = skip_chars(src, pos, TOML_WS_AND_NEWLINE)
        pos = skip_comment(src, pos)
        if pos == pos_before_skip:
            return pos


def parse_key_value_pair(
    src: str, pos: Pos, parse_float: ParseFloat, nest_lvl: int
) -> tuple[Pos, Key, Any]:
    pos, key = parse_key(src, pos)
    if src[pos] != "=":
        raise TOMLDecodeError("Expected '=' after a key in a key/value pair", src, pos)
    pos, value = parse_value(src, pos + 1, parse_float, nest_lvl)
    return pos, key, value


def parse_basic_str(src: str, pos: Pos, *, multiline: bool) -> tuple[Pos, str]:
    result = ""
    start_pos = pos
    while True:
        char = src[pos]
        if char == '"':
            return pos + 1, result + src[start_pos:pos]
        pos += 1


def parse_array(src: str, pos: Pos, parse_float: ParseFloat, nest_lvl: int) -> tuple[Pos, list]:
    pos += 1
    array: list = []
    pos = skip_comments_and_array_ws(src, pos)
    if src.startswith("]", pos):
        return pos + 1, array
    return pos, array
"""

SEMVER = """\
def deprecated(func=None, *, replace=None, version=None, remove=None, category=DeprecationWarning):
    if func is None:
        return partial(deprecated, replace=replace, version=version, remove=remove)
    return wrapper


def parse(version):
    return Version.parse(version).to_dict()


def bump_major(version):
    return str(Version.parse(version).bump_major())


def finalize_version(version):
    verinfo = Version.parse(version)
    return str(verinfo.finalize_version())
"""

ITSDANGEROUS = """\
def want_bytes(s: str | bytes, encoding: str = "utf-8", errors: str = "strict") -> bytes:
    if isinstance(s, str):
        s = s.encode(encoding, errors)
    return s
"""

ISODATE = """\
def max_days_in_month(year: int, month: int) -> int:
    if month in (1, 3, 5, 7, 8, 10, 12):
        return 31
    if month in (4, 6, 9, 11):
        return 30
    return 29 if year % 4 == 0 else 28
"""


PYJWT = """\
class ECAlgorithm(Algorithm):
    def to_jwk(self, key_obj, as_dict=False):
        obj = {"kty": "EC", "crv": key_obj.curve.name}
        return obj if as_dict else json.dumps(obj)

    @staticmethod
    def from_jwk(jwk: str | JWKDict) -> "AllowedECKeys":
        obj = json.loads(jwk) if isinstance(jwk, str) else jwk
        return load(obj)
"""

INVENTED = """\
class Pipeline:
    def __init__(self, steps):
        self.steps = steps

    @classmethod
    def noop(cls):
        return cls([])

    def get_loader(self, fullname):
        if fullname.endswith(".json"):
            return self.steps[0]
        return None

    def copy(self):
        return type(self)(list(self.steps))

    def last_step_head(self, label):
        return "+-- " + label

    @property
    def limit(self):
        return self.__limit


def lfu_store(maxsize=128):
    return _store(maxsize, lambda entry: entry.hits)


def checked_rotl(word, count):
    if count > 64:
        raise ValueError(count)
    return ((word << count) | (word >> (64 - count))) & MASK
"""


def located(source: str, name: str, kind: str = "function") -> SourceNode:
    return locate(parse(source, "pkg/module.py"), NodeRef(kind, name, 0))


def summary_refusal(source: str, name: str, summary: str, kind: str = "function") -> str:
    _, refused = check_pieces(located(source, name, kind), Pieces(summary=summary))
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("source", "name", "kind", "summary"),
    [
        # The owner class's name ("flags") and the method's (tomli, 0.5B and 1.5B).
        (TOMLI, "Flags.finalize_pending", "method", "Finalize pending flags."),
        (TOMLI, "Flags.finalize_pending", "method", "Finalize any pending flags."),
        # Abbreviations spelled out: "str" is "string", "ws" "whitespace".
        (TOMLI, "parse_basic_str", "function", "Parse a basic string."),
        (TOMLI, "skip_comments_and_array_ws", "function", "Skip comments and array whitespace."),
        # A general word ("line") says nothing of its own.
        (TOMLI, "skip_comment", "function", "Skip a line comment."),
        # One parameter named ("src" as "source") adds nothing either.
        (TOMLI, "parse_key_value_pair", "function", "Parse a key-value pair from a source string."),
        # semver: the parameter's name and general words.
        (SEMVER, "bump_major", "function", "Bump the major version of the given version number."),
        (SEMVER, "finalize_version", "function", "Finalize the version number"),
        (SEMVER, "deprecated", "function", "Mark a function as deprecated"),
        # A name word spelled as two ("no-op" is noop), and two words of one parameter
        # ("full name" of fullname) naming one parameter, not two.
        (INVENTED, "Pipeline.noop", "method", "No-op pipeline instance."),
        (INVENTED, "Pipeline.get_loader", "method", "Get a loader for the given full name."),
        # "specific" names no subject (jsonpickle's set_decoder_options: "it restates the
        # method name", edited).
        (INVENTED, "Pipeline.get_loader", "method", "Get a loader for a specific full name."),
        # Two words shortened into one name word ("rotate left" is rotl), and a general
        # noun ("operation") that names no subject.
        (INVENTED, "checked_rotl", "function", "Checked rotate left operation."),
        # The signature's types (a quoted return annotation too) and an abbreviation
        # spelled out by its initials (pyjwt's blind reviewers: noise).
        (
            PYJWT,
            "ECAlgorithm.from_jwk",
            "method",
            "Convert a JWK string or dictionary to an AllowedECKeys object.",
        ),
        (PYJWT, "ECAlgorithm.to_jwk", "method", "Convert a key object to a JSON Web Key (JWK)."),
        # "Return" where the name already names what comes back (latexcodec's and
        # pygtrie's reviewers: "just repeats the method name").
        (INVENTED, "Pipeline.copy", "method", "Return a copy of the current object."),
        # The name's other words and a parameter (asciitree's reviewers: "goes in a circle").
        (
            INVENTED,
            "Pipeline.last_step_head",
            "method",
            "Return the head of the last step of the given label.",
        ),
        # The name wrapped in words that add nothing (cachetools' ``ttu`` and ``choice``:
        # "only repeats the name", both rejected).
        (INVENTED, "Pipeline.limit", "method", "Return the value of the limit attribute."),
        (INVENTED, "Pipeline.limit", "method", "Return the current limit."),
        # A hyphenated compound whose initials spell a word of the name (cachetools'
        # fifo_cache, lfu_cache and ttl: "they are decorators, not caches").
        (INVENTED, "lfu_store", "function", "A least-frequently-used store."),
        (INVENTED, "lfu_store", "function", "Return a least-frequently-used store."),
    ],
)
def test_a_summary_that_restates_the_name_is_refused(
    source: str, name: str, kind: str, summary: str
) -> None:
    short = name.rsplit(".", 1)[-1]
    reason = summary_refusal(source, name, summary, kind)
    assert reason.startswith(f"it restates the name {short!r}; say what it returns or changes")


@pytest.mark.parametrize(
    ("source", "name", "kind", "summary"),
    [
        # A word of its own ("nested").
        (TOMLI, "Flags.unset_all", "method", "Unset all nested flags for the given key."),
        # That it returns a value, which the name does not say.
        (ISODATE, "max_days_in_month", "function", "Return the number of days in the given month."),
        (
            SEMVER,
            "parse",
            "function",
            "Parse a version string and return its dictionary representation.",
        ),
        # What the copy is, beyond the name's word.
        (INVENTED, "Pipeline.copy", "method", "Return a shallow copy of the pipeline's steps."),
        (
            INVENTED,
            "Pipeline.last_step_head",
            "method",
            "Return the label drawn after a branch glyph.",
        ),
        # The name's own verb said in other words ("want" is "convert").
        (ITSDANGEROUS, "want_bytes", "function", "Convert a string or bytes object to bytes."),
        # The shortened words, with what the name does not say.
        (
            INVENTED,
            "checked_rotl",
            "function",
            "Rotate the bits of a 64-bit word left, refusing counts above 64.",
        ),
        # Two parameters named: how the arguments go together.
        (
            TOMLI,
            "parse_array",
            "function",
            "Parse an array from the source string starting at the given position.",
        ),
    ],
)
def test_a_summary_that_says_more_than_the_name_passes(
    source: str, name: str, kind: str, summary: str
) -> None:
    assert summary_refusal(source, name, summary, kind) == ""


def test_the_reason_says_what_the_body_returns_and_raises() -> None:
    summary = "Parse a key-value pair from a source string."
    reason = summary_refusal(TOMLI, "parse_key_value_pair", summary)
    assert reason == (
        "it restates the name 'parse_key_value_pair'; say what it returns or changes, or when "
        "it raises, from the body: it returns `(pos, key, value)`; it raises TOMLDecodeError"
    )
    reason = summary_refusal(TOMLI, "Flags.finalize_pending", "Finalize pending flags.", "method")
    assert reason.endswith("say what it returns or changes, or when it raises")


def test_a_class_and_a_module_are_asked_what_they_hold_or_provide() -> None:
    source = "class Output:\n    def __init__(self, data):\n        self.data = data\n"
    reason = summary_refusal(source, "Output", "The output data.", "class")
    assert reason.endswith("say what one instance holds or is for that its name does not say")
    module = locate(parse("X = 1\n", "pkg/version.py"), NodeRef("file", "pkg/version.py", 1))
    _, refused = check_pieces(module, Pieces(summary="The version of the package."))
    assert refused[0]["reason"].startswith("it restates the name 'version'; say what the module")


def test_without_another_summary_nothing_is_written() -> None:
    plan = compose(
        located(SEMVER, "bump_major"), Pieces(summary="Bump the major version."), "google", None
    )
    assert plan["text"] is None
    assert plan["refused"][0]["reason"].startswith("it restates the name 'bump_major'")


OPERATIONS = """\
class AddOperation:
    def __init__(self, operation):
        self.operation = operation

    def apply(self, obj):
        obj[self.operation["path"]] = self.operation["value"]
        return obj


class Cursor:
    def __init__(self, rows):
        self.rows = rows
        self.current = 0

    def value(self):
        return self.rows[self.current]


class Always:
    def match(self, version):
        return True


class Serializer:
    def process(self, stmt):
        return str(stmt).rstrip()


def group_if(tlist, key=None):
    for token in tlist:
        if token.match("IF"):
            token.group(key)
"""


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        # jsonpatch's operations: "Apply the operation to the current item." (reject).
        ("AddOperation.apply", "Apply the operation to the current item.", True),
        ("AddOperation.apply", "Set the operation's value at its path in obj.", False),
        # The version is the argument, not something the instance holds (semantic-version's
        # Always.match, reviewer: reject, "never compares against any current version").
        ("Always.match", "Return True if the version matches the current version.", True),
        ("Always.match", "Return True whatever the version.", False),
        # "Current" is the code's own word: the summary names what the code names.
        ("Cursor.value", "Return the row at the current value of the cursor.", False),
    ],
)
def test_a_summary_about_the_current_item_names_no_subject(
    name: str, summary: str, refused: bool
) -> None:
    reason = summary_refusal(OPERATIONS, name, summary, "method")
    assert reason.startswith("it speaks of 'the current") is refused, reason


@pytest.mark.parametrize(
    ("summary", "refused"),
    [
        # sqlparse's filters (reviewers: five rejects, "boilerplate that fits any filter").
        ("Process the statement and return the result.", True),
        # "It" names what came before it: the statement, handed back.
        ("Process a statement and return it.", False),
        # What it hands back, named: more than the name says.
        ("Return the statement's text without trailing whitespace.", False),
    ],
)
def test_returning_nothing_named_says_nothing(summary: str, refused: bool) -> None:
    reason = summary_refusal(OPERATIONS, "Serializer.process", summary, "method")
    assert reason.startswith("it restates the name 'process'") is refused, reason


@pytest.mark.parametrize(
    ("summary", "refused"),
    [
        # sqlparse's grouping functions (reviewers: rejects, "says nothing", false).
        ("Group items in a list based on a condition.", True),
        ("Group items in a list based on a case-sensitive comparison.", True),
        # A parameter, even named by a general word, is something the code names.
        ("Group the IF tokens of tlist based on the key.", False),
    ],
)
def test_a_basis_the_code_never_names_is_refused(summary: str, refused: bool) -> None:
    reason = summary_refusal(OPERATIONS, "group_if", summary, "function")
    assert reason.startswith("it says the result is based on") is refused, reason


@pytest.mark.parametrize(
    ("summary", "refused"),
    [
        # dicttoxml's convert_list, validators' currency: "filler", "vacuous" (edits).
        ("Group the IF tokens of tlist using the provided parameters.", True),
        ("Group the IF tokens of tlist according to the given arguments.", True),
        ("Group the IF tokens of tlist, using the key when given.", False),
    ],
)
def test_all_the_parameters_at_once_name_none_of_them(summary: str, refused: bool) -> None:
    reason = summary_refusal(OPERATIONS, "group_if", summary, "function")
    assert reason.startswith("it speaks of") is refused, reason
