"""What the docstring agent's toolkit functions give (:mod:`remora.code.docstring.draft`,
:mod:`remora.code.docstring.edit`, :mod:`remora.code.docstring.text`,
:mod:`remora.code.docstring.view`)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

__all__ = [
    "ComposedDocstring",
    "DocstringPrompt",
    "DocstringWrite",
    "DocumentedParameter",
    "DocumentedParameters",
    "NodeDocstring",
    "NodeView",
    "PromptText",
    "RefusedDocstringPiece",
]


class NodeView(TypedDict):
    """The node as a model is shown it: its ``text`` (``shortened`` when it did not fit) and
    how many ``lines`` the whole node has."""

    text: str
    shortened: bool
    lines: int


class NodeDocstring(TypedDict):
    """The node's docstring: ``value`` cleaned (what ``ast.get_docstring`` gives),
    ``literal`` as written; the literal's ``quote`` and span only when ``present``."""

    present: bool
    value: str | None
    literal: str | None
    quote: NotRequired[str]
    start_line: NotRequired[int]
    end_line: NotRequired[int]
    start_byte: NotRequired[int]
    end_byte: NotRequired[int]


class DocstringWrite(TypedDict):
    """A docstring written: whether the file ``changed``, and the literal's lines now."""

    changed: bool
    start_line: int
    end_line: int


class DocumentedParameter(TypedDict):
    """A parameter a docstring documents, its ``annotation`` and ``default`` as written
    (None when there is none); ``kind`` as :class:`~remora.code.parsing.SignatureParameter`'s."""

    name: str
    kind: str
    annotation: str | None
    default: str | None


class DocumentedParameters(TypedDict):
    """The parameters a docstring of the node documents; ``known`` False (and ``reason``
    says why, ``parameters`` then empty) when they cannot be read exactly."""

    known: bool
    reason: str
    parameters: list[DocumentedParameter]


class RefusedDocstringPiece(TypedDict):
    """A piece of the model's that was refused: ``field`` (``summary``, ``params.NAME``,
    ``raises.NAME``…) and why."""

    field: str
    reason: str


class ComposedDocstring(TypedDict):
    """The docstring's text built from the model's checked pieces (None: nothing to write),
    the pieces ``refused``, what was ``filled`` from facts or the existing docstring, why it
    was ``kept`` as it is ('' when not), and the sections ``left_out`` with why."""

    text: str | None
    refused: list[RefusedDocstringPiece]
    filled: list[str]
    kept: str
    left_out: list[str]


class PromptText(TypedDict, total=False):
    """The node asked as code: ``prefix``, ``suffix`` and ``stop`` for fill-in-the-middle,
    ``chat_prefix`` and ``instruction`` for a prefilled chat reply."""

    prefix: str
    suffix: str
    chat_prefix: str
    instruction: str
    stop: list[str]


class DocstringPrompt(PromptText):
    """The draft's prompt: the :class:`PromptText` keys only when ``available``, else the
    ``reason``; ``leave`` says why the docstring is left alone, ``summary`` is the one the
    facts give ('' for neither)."""

    available: bool
    reason: str
    leave: str
    summary: str
