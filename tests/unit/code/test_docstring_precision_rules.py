"""Rules that keep a docstring proposal out of the queue (issue 57, precision over recall):
what is not public and stubs are left alone; a summary that copies a comment, names a
returned type the code does not show, or a file or database the code never touches is
refused."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from remora.code.context import CodeContext
from remora.code.docstring.draft import FIXED_EXAMPLES, docstring_prompt
from remora.code.docstring.left_alone import left_alone
from remora.code.docstring.pieces import Pieces, check_pieces
from remora.code.parsing import NodeRef, SourceNode, locate, parse
from remora.config import SandboxConfig
from remora.discovery import CSTNode, make_node_id
from remora.workspace import WorkspaceStore

KENNEL = '''\
import itertools


class Kennel:
    def __init__(self, dogs):
        self.dogs = dogs

    def walk(self):
        return [dog.walk() for dog in self.dogs]

    def _tidy(self):
        self.dogs = [d for d in self.dogs if d]

    def __count_paws(self):
        return 4 * len(self.dogs)

    def feed(self):
        raise NotImplementedError("subclasses feed their dogs")

    def groom(self):
        ...

    def bark(self) -> None:
        """Make noise."""
        pass

    def rest(self):
        return None

    def couples(self):
        return itertools.combinations(self.dogs, 2)

    def leashes(self):
        found = []
        for dog in self.dogs:
            found.append(dog.leash)
        return found

    def names(self) -> list[str]:
        return sorted_names(self.dogs)

    def by_name(self):
        return self.index.to_dict()

    def register(self, dog):
        # Every dog gets a tag before it is let into the yard.
        self.dogs.append(dog.tagged())

    def close(self):
        # Send the dogs to bed
        for dog in self.dogs:
            dog.sleep()

        # Lock the gate
        self.locked = True

    def load(self, path):
        with open(path) as stream:
            self.dogs = stream.read().split()

    def label(self):
        return "/".join(self.dogs)

    def places(self):
        return self.room

    def dog_count(self):
        return len(self.dogs)

    def legs(self):
        return 4

    def fed(self):
        total = 0
        for dog in self.dogs:
            total += dog.meals
        return total


class _Yard:
    def gate(self):
        return self.width > 1


class KennelError(Exception):
    pass


def as_given(dog):
    return dog


class Leads:
    def chain(self):
        return self

    def pick(self, dog, spare):
        return spare

    def lead(self, dog):
        return dog.lead

    @staticmethod
    def same(dog):
        return dog


def make_whistle(pitch):
    def whistle():
        return pitch * 2

    return whistle


class Leash:
    length: float
    """How far the dog may go from its walker, in metres."""
    colour: str = "red"
'''


def node(name: str, kind: str = "method") -> SourceNode:
    """The node ``name`` of KENNEL, found by its ``ast`` position."""
    short = name.rsplit(".", 1)[-1]
    line = next(
        d.lineno
        for d in ast.walk(ast.parse(KENNEL))
        if isinstance(d, ast.FunctionDef | ast.ClassDef) and d.name == short
    )
    return locate(parse(KENNEL, "yard/kennel.py"), NodeRef(kind, name, line))


def summary_refusal(name: str, summary: str) -> str:
    _, refused = check_pieces(node(name), Pieces(summary=summary), ())
    return "; ".join(r["reason"] for r in refused if r["field"] == "summary")


@pytest.mark.parametrize(
    ("name", "kind", "why"),
    [
        ("Kennel._tidy", "method", "'_tidy' is private (a leading underscore)"),
        ("Kennel.__count_paws", "method", "'__count_paws' is private (a leading underscore)"),
        ("_Yard.gate", "method", "'_Yard' is private (a leading underscore)"),
        ("_Yard", "class", "'_Yard' is private (a leading underscore)"),
        ("make_whistle.whistle", "function", "it is defined inside the function 'make_whistle'"),
    ],
)
def test_what_is_not_public_is_left_alone_unless_asked(name: str, kind: str, why: str) -> None:
    located = node(name, kind)
    asked = {"classes": True}
    assert (
        left_alone(located, **asked) == f"{why}: documented only on request (option private: true)"
    )
    assert left_alone(located, private=True, **asked) == ""


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Kennel.feed", "method"),  # raise NotImplementedError(...)
        ("Kennel.groom", "method"),  # ...
        ("Kennel.bark", "method"),  # a docstring and pass
        ("Kennel.rest", "method"),  # return None: a hook a subclass fills in
        ("KennelError", "class"),  # pass
    ],
)
def test_a_stub_is_left_alone_whatever_the_options(name: str, kind: str) -> None:
    why = "a stub: its body says nothing a summary could rest on but its name"
    asked = {"private": True, "special_methods": True, "classes": True}
    assert left_alone(node(name, kind), **asked) == why


@pytest.mark.parametrize(
    ("name", "kind", "handed"),
    [
        ("as_given", "function", "dog"),  # jsonpickle's iterator(class_): return class_
        ("Leads.chain", "method", "self"),
        ("Leads.pick", "method", "spare"),  # a merge strategy's return nxt
        ("Leads.lead", "method", ""),  # an attribute of its argument: something to say
        ("Leads.same", "method", ""),  # decorated: the decorator may add what it does
    ],
)
def test_a_function_that_hands_an_argument_back_is_left_alone(
    name: str, kind: str, handed: str
) -> None:
    why = left_alone(node(name, kind), private=True, special_methods=True, classes=True)
    said = f"its body only hands {handed} back as it came: the line says all"
    assert why == (said if handed else "")


SHIMS = """\
import sys

if sys.version < "3":

    def text(x):
        return unicode(x, "utf-8")

    def width(x):
        return len(x)

elif sys.platform == "win32":

    def text(x):
        return x.decode("mbcs")

else:

    def text(x):
        return x

try:
    from os import fspath
except ImportError:

    def fspath(path):
        return str(path)

try:
    import json
except ImportError:

    def loads(data):
        return eval(data)
"""


def _shim(name: str, nth: int = 0) -> SourceNode:
    lines = [
        n.lineno
        for n in ast.walk(ast.parse(SHIMS))
        if isinstance(n, ast.FunctionDef) and n.name == name
    ]
    return locate(parse(SHIMS, "compat.py"), NodeRef("function", name, lines[nth]))


def test_each_definition_an_if_or_a_try_chooses_between_is_left_alone() -> None:
    # isbnlib's _bouth23: ``u``, ``s``, ``b`` under ``if sys.version < '3'`` and ``else``;
    # every drafted summary rejected (one branch described, a dead branch documented).
    why = "one of the definitions of 'text' an if or a try chooses between at import"
    for nth in range(3):  # the if, the elif and the else branch
        assert left_alone(_shim("text", nth)).startswith(why)
    assert left_alone(_shim("fspath")).startswith("one of the definitions of 'fspath'")
    # Defined in one branch only: nothing stands for it.
    assert left_alone(_shim("width")) == ""
    assert left_alone(_shim("loads")) == ""


def test_public_code_with_a_body_is_asked() -> None:
    for name, kind in [
        ("Kennel.walk", "method"),
        ("make_whistle", "function"),
    ]:
        assert left_alone(node(name, kind)) == ""
    # A class only when asked: what it is for is its author's to say.
    assert left_alone(node("Kennel", "class")).endswith("(option classes: true)")
    assert left_alone(node("Kennel", "class"), classes=True) == ""
    # A special method keeps its own reason (and option), private as its name looks.
    assert left_alone(node("Kennel.__init__")).startswith("a special method")


def test_a_summary_copied_from_a_comment_is_refused() -> None:
    copied = "Every dog gets a tag before it is let into the yard."
    assert "from a comment of the code" in summary_refusal("Kennel.register", copied)
    # Five words in a row with the comment are a coincidence, not a copy.
    assert (
        summary_refusal("Kennel.register", "Add the dog, which gets a tag before entering.") == ""
    )


def test_a_summary_that_holds_one_comment_of_a_longer_body_is_refused() -> None:
    # The comment over one of the two steps, whole: it says what that step does.
    reason = summary_refusal("Kennel.close", "Send the dogs to bed.")
    assert reason.startswith("it repeats the comment 'Send the dogs to bed', one step")
    assert "one step" in summary_refusal("Kennel.close", "Lock the gate of the kennel.")
    # Not the whole comment (a shorter one is no copy), or a one-statement body.
    assert summary_refusal("Kennel.close", "Put the dogs to bed and lock up.") == ""
    assert summary_refusal("Kennel.register", "Add a tagged dog to the yard.") == ""


def test_a_summary_that_borrows_a_style_example_s_words_is_refused() -> None:
    # The fixed examples shown to a file without documented code: "Read a text file and
    # return its lines without line endings." lends "line endings" to what has none.
    def refusal(summary: str) -> str:
        _, refused = check_pieces(node("Kennel.label"), Pieces(summary=summary), FIXED_EXAMPLES)
        return "; ".join(r["reason"] for r in refused if r["field"] == "summary")

    assert "borrows 'line endings'" in refusal("Join the dogs' names without line endings.")
    assert refusal("Join the dogs' names with slashes.") == ""
    # Shown no example (a file with documented neighbours), nothing is lent.
    _, refused = check_pieces(
        node("Kennel.label"), Pieces(summary="Join the names without line endings."), ()
    )
    assert not refused


PARSER = """\
import argparse


def make_parser():
    parser = argparse.ArgumentParser(description="Walk the dogs of a kennel, one lead at a time")
    parser.add_argument("--lead", help="the lead to use")
    return parser


def walked():
    return Signal(doc="Sent after a dog is walked.")
"""


def test_a_summary_that_is_a_text_the_code_shows_its_user_is_refused() -> None:
    line = PARSER.splitlines().index("def make_parser():") + 1
    located = locate(parse(PARSER, "kennel/cli.py"), NodeRef("function", "make_parser", line))

    def refusal(summary: str) -> str:
        _, refused = check_pieces(located, Pieces(summary=summary), ())
        return "; ".join(r["reason"] for r in refused if r["field"] == "summary")

    # The parser's description is the program's, not what the function does.
    shown = "Walk the dogs of a kennel, one lead at a time."
    assert "a text the code shows its user" in refusal(shown)
    assert "a text the code shows its user" in refusal("The lead to use.")  # a whole help text
    # Saying what it builds and returns stands.
    assert refusal("Build the command-line parser with its --lead option.") == ""
    # A ``doc=`` text documents what the body returns: saying it is no copy of a message.
    line = PARSER.splitlines().index("def walked():") + 1
    walked = locate(parse(PARSER, "kennel/cli.py"), NodeRef("function", "walked", line))
    _, refused = check_pieces(walked, Pieces(summary="Sent after a dog is walked."), ())
    assert not [r for r in refused if "shows its user" in r["reason"]]


@pytest.mark.parametrize(
    ("name", "summary", "refused"),
    [
        ("Kennel.couples", "Return a list of the pairs of dogs.", True),  # an iterator
        ("Kennel.couples", "Return the pairs of dogs.", False),  # no type said
        # The verb need not open the summary (pathspec's check_files: "... and return a list").
        ("Kennel.couples", "Pair the dogs and return a list of the pairs.", True),
        ("Kennel.walk", "Return a list of what each dog's walk gives.", False),  # a display
        ("Kennel.leashes", "Return a list of the dogs' leashes.", False),  # through a name
        ("Kennel.names", "Return a list of the dogs' names.", False),  # the annotation
        ("Kennel.by_name", "Return a dictionary of the index.", False),  # to_dict()
        ("Kennel.by_name", "Return a tuple of the index.", True),
        # A count: len(), a name that counts; an attribute of another meaning is none.
        ("Kennel.places", "Return the number of dogs in the kennel.", True),
        ("Kennel.dog_count", "Return the number of dogs in the kennel.", False),
        ("Kennel.fed", "Return the number of meals the dogs had.", False),
        ("Kennel.legs", "Return the number of legs of a dog.", False),  # an int literal
        ("Kennel.places", "Return the places of the kennel.", False),
        # Converting to a kind says it is returned (roman-numerals' from_string, "to an
        # integer", returned ``cls(result)``).
        ("Kennel.by_name", "Convert the dogs to a tuple of names.", True),
        ("Kennel.by_name", "Convert the index to a dictionary.", False),  # to_dict()
        # Splitting or parsing into a kind says it too (flatten-dict's splitters, "into a
        # list of keys" on tuple(...): reviewers, false).
        ("Kennel.by_name", "Split the dogs into a tuple of names.", True),
        ("Kennel.by_name", "Parse the kennel into a dictionary of dogs.", False),
        # Any verb: what comes back "into"/"as" a kind (more-itertools' run_length.encode
        # "into a list of tuples" on a generator expression; flatten "into a single list"
        # on chain.from_iterable(...): reviewers, false).
        ("Kennel.couples", "Group the dogs into a single list of pairs.", True),
        ("Kennel.couples", "Hand the pairs back as a list.", True),
        ("Kennel.walk", "Gather each dog's walk into a list.", False),  # a display
        # A procedure returns nothing: "into a list" says where it puts things.
        ("Kennel.register", "Tag the dog and put it into a list of dogs.", False),
    ],
)
def test_a_returned_type_needs_the_code_to_show_it(name: str, summary: str, refused: bool) -> None:
    reason = summary_refusal(name, summary)
    assert reason.startswith("it says the code returns a") == refused, reason


def test_a_file_or_database_needs_the_code_to_touch_it() -> None:
    reason = summary_refusal("Kennel.label", "Return the dogs joined as the path of a file.")
    assert reason.startswith("it speaks of 'file', which label never touches or names")
    assert "database" in summary_refusal("Kennel.label", "Return the dogs' names in the database.")
    # A body that opens and reads shows the file.
    assert summary_refusal("Kennel.load", "Read the dogs' names from a file.") == ""


def test_a_unit_of_measure_needs_the_code_to_name_it() -> None:
    # schedule's every(interval): "a Job that runs every interval seconds" sets no unit.
    reason = summary_refusal("Kennel.legs", "Return the legs every four seconds.")
    assert reason.startswith("it speaks of 'seconds', which legs never touches or names")
    assert summary_refusal("Kennel.legs", "Return how many legs a dog has.") == ""


GUARDED = """\
LIMIT = 1000


def bounded_square(n):
    if abs(n) > LIMIT:
        raise ValueError(n)
    return n * n


def checked_sum(values, overflow_at):
    total = sum(values)
    if total > overflow_at:
        raise OverflowError(total)
    return total
"""


def test_a_condition_needs_the_code_to_name_it() -> None:
    def refusal(name: str, summary: str) -> str:
        found = locate(parse(GUARDED, "pkg/bounds.py"), NodeRef("function", name, 0))
        _, refused = check_pieces(found, Pieces(summary=summary), ())
        return "; ".join(r["reason"] for r in refused if r["field"] == "summary")

    reason = refusal("bounded_square", "Square a number safely, preventing overflow.")
    assert reason.startswith("it speaks of 'overflow', which bounded_square never touches")
    assert "timeout" in refusal("bounded_square", "Square a number before the timeout.")
    # What the code names: its parameter, its exception.
    assert refusal("checked_sum", "Sum the values unless the total would overflow.") == ""
    assert refusal("bounded_square", "Square a number, refusing one above LIMIT.") == ""


def test_a_class_summary_copied_from_its_field_s_docstring_is_refused() -> None:
    # pathspec's CheckResult got its first field's docstring as its own (two rejects).
    copied = "How far the dog may go from its walker, in metres."
    _, refused = check_pieces(node("Leash", "class"), Pieces(summary=copied), ())
    reason = "; ".join(r["reason"] for r in refused if r["field"] == "summary")
    assert "the docstring of the attribute length" in reason


def test_a_methods_summary_about_its_class_is_refused() -> None:
    # bidict's SentinelNode.iternodes: "The SentinelNode class iterates over its nodes …".
    reason = summary_refusal("Kennel.couples", "The Kennel class pairs its dogs.")
    assert reason.startswith("it speaks of the class, not of what couples does"), reason
    assert summary_refusal("Kennel.couples", "This class pairs its dogs.").startswith(
        "it speaks of the class"
    )
    assert "speaks of the class" not in summary_refusal("Kennel.couples", "Pair the dogs.")


def test_a_callables_summary_that_defines_another_thing_is_refused() -> None:
    # pyee's ``uplift``: "UpliftingEventEmitter is a base class for emitting events."
    reason = summary_refusal("Kennel.couples", "DogPair is a tuple of two dogs.")
    assert reason.startswith("it says what DogPair is, not what couples does"), reason
    assert "it says what" not in summary_refusal("Kennel.couples", "Pair the dogs two by two.")


TYPED = """\
class Link:
    @property
    def port(self):
        # type: () -> Optional[int]
        return self._port

    def replace(self, host=None):
        # type: (Optional[str]) -> Link
        return Link(host)

    @staticmethod
    def fields():  # pragma: no cover
        return list(FIELDS)
"""


def test_a_summary_that_holds_a_note_to_a_tool_is_refused() -> None:
    # hyperlink's properties: "Type: () -> bool." ten times, every one rejected as noise.
    tree = ast.parse(TYPED)
    lines = {n.name: n.lineno for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}

    def refusal(name: str, summary: str) -> str:
        ref = NodeRef("method", f"Link.{name}", lines[name])
        _, refused = check_pieces(locate(parse(TYPED, "link.py"), ref), Pieces(summary), ())
        return "; ".join(r["reason"] for r in refused if r["field"] == "summary")

    assert "copies the type comment '() -> Optional[int]'" in refusal(
        "port", "Type: () -> Optional[int]."
    )
    assert "type comment" in refusal("replace", "Return a (Optional[str]) -> Link copy.")
    # Another node's comment is not this one's.
    assert "type comment" not in refusal("replace", "Type: () -> Optional[int].")
    # isbnlib's ``Metadata.fields``: "Pragma: no cover.", from the directive on its line.
    assert "copies the 'pragma' comment 'pragma: no cover'" in refusal(
        "fields", "Pragma: no cover."
    )
    assert "a note to a tool" not in refusal("fields", "Return the names of the fields.")
    assert "a note to a tool" not in refusal("port", "Return the pragma of the port.")


SIGNERS = '''\
from abc import ABC, abstractmethod

import hashlib

from outside import Codec


class Signer(ABC):
    @abstractmethod
    def sign(self, msg):
        raise NotImplementedError

    def name(self):
        """The name a token's header gives this signer."""
        return type(self).__name__.lower()

    def digest(self, msg):
        return hashlib.sha256(msg).digest()


if hashlib:

    class HashSigner(Signer):
        def sign(self, msg):
            return self.digest(msg)

        def name(self):
            return "hash"

        def digest(self, msg):
            return hashlib.sha512(msg).digest()


    class SaltedSigner(HashSigner):
        def sign(self, msg):
            return self.digest(b"salt" + msg)


class Plain(Codec):
    def sign(self, msg):
        return msg + b"."
'''


def _method(source: str, file: str, name: str) -> SourceNode:
    """The method ``Class.name`` of ``source``, located as a run locates it."""
    cls, method = name.split(".")
    tree = ast.parse(source)
    owner = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls)
    line = next(n.lineno for n in owner.body if getattr(n, "name", "") == method)
    return locate(parse(source, file), NodeRef("method", name, line))


def _signer(name: str) -> SourceNode:
    return _method(SIGNERS, "signers.py", name)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        # The base's abstract stub is the interface; a class under ``if`` is the module's.
        ("HashSigner.sign", "it implements the stub Signer.sign: the interface is the base's"),
        # Through an override of the stub.
        ("SaltedSigner.sign", "it implements the stub Signer.sign"),
        # help() shows the base's docstring for the override.
        ("HashSigner.name", "it overrides Signer.name, whose docstring Python shows for it"),
    ],
)
def test_an_override_of_a_documented_or_stub_method_of_the_module_is_left_alone(
    name: str, why: str
) -> None:
    assert left_alone(_signer(name)).startswith(why)


@pytest.mark.parametrize(
    "name",
    [
        "HashSigner.digest",  # the base's is neither documented nor a stub
        "Plain.sign",  # a base from elsewhere is not read
    ],
)
def test_an_override_of_an_undocumented_method_or_of_another_module_is_asked(name: str) -> None:
    assert left_alone(_signer(name)) == ""


STORES = """\
import collections
import typing

try:
    from collections.abc import MutableMapping as Base
except ImportError:
    from collections import MutableMapping as Base

from outside import Cache


class Store(Base):
    def clear(self):
        self._data.clear()

    def describe(self):
        return repr(self._data)


class Ordered(Store, collections.OrderedDict):
    def keys(self):
        return list(self._data)

    def fromkeys(cls, seq):
        return cls()


class Items(list):
    def append(self, item):
        super().append(str(item))


class Counts(typing.Dict[str, int]):
    def setdefault(self, key, default=0):
        return super().setdefault(key.lower(), default)


class Remote(Cache):
    def clear(self):
        self._data.clear()
"""


def _store(name: str) -> SourceNode:
    return _method(STORES, "stores.py", name)


@pytest.mark.parametrize(
    ("name", "base"),
    [
        # A standard base imported under another name, in a try (dotmap's MutableMapping).
        ("Store.clear", "collections.abc.MutableMapping"),
        # Through an ancestor of the module, and a base named through its module (dotmap).
        ("Ordered.keys", "collections.abc.Mapping"),
        ("Ordered.fromkeys", "collections.OrderedDict"),
        # A builtin base, and a generic alias of one subscripted.
        ("Items.append", "builtins.list"),
        ("Counts.setdefault", "builtins.dict"),
    ],
)
def test_an_override_of_a_method_a_standard_base_documents_is_left_alone(
    name: str, base: str
) -> None:
    method = name.split(".")[1]
    why = f"it overrides {base}.{method}, whose docstring Python shows for it"
    assert left_alone(_store(name)) == why


@pytest.mark.parametrize("name", ["Store.describe", "Remote.clear"])
def test_a_method_no_standard_base_documents_is_asked(name: str) -> None:
    assert left_alone(_store(name)) == ""


HANDLERS = '''\
class BaseHandler:
    def flatten(self, obj, data):
        raise NotImplementedError("implement flatten")

    def restore(self, obj):
        return obj


class Registered(BaseHandler):
    def name(self):
        """The name the registry keeps this handler under."""
        return type(self).__name__


class Pending(Exception):
    pass
'''

EXTENSIONS = """\
from .handlers import Pending, Registered as Handler


class ArrayHandler(Handler, Pending):
    def flatten(self, obj, data):
        data["values"] = list(obj)
        return data

    def restore(self, obj):
        return tuple(obj)

    def name(self):
        return "array"

    def with_traceback(self, tb):
        return self
"""


def _extension_prompt(tmp_path: Path, method: str) -> str:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "handlers.py").write_text(HANDLERS)
    (tmp_path / "pkg" / "ext.py").write_text(EXTENSIONS)
    lines = EXTENSIONS.splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.strip().startswith(f"def {method}("))
    start = sum(len(x) + 1 for x in lines[: line - 1])
    name = f"ArrayHandler.{method}"
    node = CSTNode(
        make_node_id("pkg/ext.py", name, "method"), "method", method, name, "pkg/ext.py",
        start, start + 10, line, line + 2, EXTENSIONS[start : start + 10],
    )  # fmt: skip
    with WorkspaceStore(tmp_path).create("d", node.node_id) as workspace:
        return docstring_prompt(CodeContext(workspace, node, SandboxConfig(workers=1)))["leave"]


@pytest.mark.parametrize(
    ("method", "why"),
    [
        # jsonpickle's handlers: the base of another file of the project is the interface.
        ("flatten", "it implements the stub BaseHandler.flatten: the interface is the base's"),
        # Through the imported base's own ancestor there, under the name it is imported as.
        ("name", "it overrides Registered.name, whose docstring Python shows for it"),
        # A standard base of a base in another file, read there: Exception's method.
        (
            "with_traceback",
            "it overrides builtins.BaseException.with_traceback, whose docstring Python "
            "shows for it",
        ),
        # An undocumented base method that does something: the override is asked.
        ("restore", ""),
    ],
)
def test_an_override_of_a_base_from_another_file_of_the_project(
    tmp_path: Path, method: str, why: str
) -> None:
    assert _extension_prompt(tmp_path, method) == why
