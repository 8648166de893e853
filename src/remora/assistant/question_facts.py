"""The facts a question needs, gathered by the host before the model's first step.

The host finds the session's globals the question names, and Python expressions
it writes out (``config['port']``, ``p.x``), and asks the capabilities about
them: type, repr (bounded), length, an instance's attributes, a callable's
docstring, plus the last exception with its traceback. They are capability
calls like the model's (recorded by the executor), so the first message's facts
are capability results and the answer may rest on them.

Names are found with Python's own parser: each word of the question (and each
`code span`) is parsed with :func:`ast.parse`; a word that is no expression
still yields its identifiers (``total's`` → ``total``). The host evaluates
what the question writes out (names, attributes, subscripts by a literal, and
calls of those with literal arguments, see :func:`_evaluable`); anything else
is left to the model's own calls.
"""

from __future__ import annotations

import ast
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from remora import python_ast
from remora.assistant.executor import CallRecord, CapabilityExecutor

__all__ = ["MAX_SUBJECTS", "QuestionFacts", "gather_facts", "question_subjects"]

# At most this many names or expressions get facts: the model's context is small.
MAX_SUBJECTS = 6
REPR_CHARS = 400
# Characters that end a sentence or clause rather than belong to an expression.
_EDGE_PUNCTUATION = "?!,;:."
# Sized types whose len() is worth stating (asked as "how many ...").
_SIZED_TYPES = frozenset(
    {
        *(f"builtins.{name}" for name in ("list", "tuple", "dict", "set", "frozenset", "str")),
        *(f"builtins.{name}" for name in ("bytes", "bytearray", "range")),
        *(f"collections.{name}" for name in ("deque", "OrderedDict", "Counter", "defaultdict")),
    }
)
# Builtins a question's call may use (``len(items)``): they only read their arguments.
PURE_BUILTINS = frozenset(
    {"len", "sum", "min", "max", "sorted", "abs", "round", "type", "repr", "str", "int"}
    | {"float", "bool", "list", "tuple", "set", "dict", "any", "all", "isinstance", "hasattr"}
)
_CALLABLE_TYPES = frozenset(
    {"function", "builtin_function_or_method", "method", "type", "partial", "ABCMeta"}
)


@dataclass(frozen=True, slots=True)
class QuestionFacts:
    """The host's calls for one question and their rendering for the first message."""

    subjects: tuple[str, ...]
    records: tuple[CallRecord, ...]
    text: str


def _spans(text: str) -> Iterator[str]:
    """Each stretch of ``text`` that may be an expression: from the start of a word,
    identifier characters and dots, with bracketed parts whole (``average([2, 4])``,
    ``stock['plum']``); quotes count only inside brackets, so ``total's`` is ``total``."""
    i = 0
    while i < len(text):
        starts = (text[i].isalpha() or text[i] == "_") and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")
        )
        if not starts:
            i += 1
            continue
        j, depth, quote = i, 0, ""
        while j < len(text):
            char = text[j]
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"" and depth:
                quote = char
            elif char in "([{":
                depth += 1
            elif char in ")]}":
                if not depth:
                    break
                depth -= 1
            elif not depth and not (char.isalnum() or char in "_."):
                break
            j += 1
        yield text[i:j]
        i = j


def _words(question: str) -> Iterator[str]:
    """`code spans` whole, then the expression-like stretches of the prose."""
    pieces = question.split("`")
    for inside in pieces[1::2]:
        if inside.strip():
            yield inside.strip()
    yield from _spans(" ".join(pieces[0::2]))


def _identifiers(word: str) -> Iterator[str]:
    """The identifier runs of a word that is not an expression (``total's`` → total, s)."""
    run: list[str] = []
    for char in f"{word} ":
        if char.isalnum() or char == "_":
            run.append(char)
            continue
        name = "".join(run)
        run = []
        if name.isidentifier():
            yield name


def _parse(word: str) -> ast.expr | None:
    """The expression a word writes, trying it as it stands, then without the
    punctuation of the sentence around it and without quotes or brackets that
    wrap it whole."""
    candidates = [word, word.strip(_EDGE_PUNCTUATION)]
    stripped = candidates[-1]
    if len(stripped) > 1 and stripped[0] + stripped[-1] in ("''", '""', "()"):
        candidates.append(stripped[1:-1].strip(_EDGE_PUNCTUATION))
    for text in candidates:
        if not text:
            continue
        try:
            return python_ast.parse_expression(text)
        except SyntaxError:
            continue
    return None


def _literal(node: ast.expr) -> bool:
    """A constant, or a list/tuple/set/dict display of constants (``[2, 4]``, ``-1``)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return _literal(node.operand)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_literal(item) for item in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _literal(k) for k in node.keys) and all(
            _literal(v) for v in node.values
        )
    return False


def _evaluable(node: ast.expr, is_global: Container[str]) -> bool:
    """What the host may evaluate for the facts: a global, its public attributes,
    subscripts by a literal, and calls the question writes out whose callee is one
    of those (or a pure builtin) and whose arguments are literals or globals.

    A call runs the user's code: the question wrote it out, and the model would
    make the same call with eval_expr; reading a value runs code too (properties,
    ``__repr__``), as every capability does.
    """
    if isinstance(node, ast.Name):
        return node.id in is_global
    if isinstance(node, ast.Attribute):
        return not node.attr.startswith("_") and _evaluable(node.value, is_global)
    if isinstance(node, ast.Subscript):
        return _literal(node.slice) and _evaluable(node.value, is_global)
    if isinstance(node, ast.Call):
        callee = node.func
        known = (isinstance(callee, ast.Name) and callee.id in PURE_BUILTINS) or _evaluable(
            callee, is_global
        )
        arguments = [*node.args, *(k.value for k in node.keywords)]
        plain = all(k.arg is not None for k in node.keywords) and not any(
            isinstance(a, ast.Starred) for a in node.args
        )
        return known and plain and all(_literal(a) or _evaluable(a, is_global) for a in arguments)
    return False


def question_subjects(
    question: str, namespace: Mapping[str, Any], hidden: Container[str] = frozenset()
) -> list[str]:
    """The session's globals and readable expressions the question names, in order.

    An expression the question writes (``stock['plum']``) comes before the bare
    names inside it (``stock``), which follow as their own subjects.
    """
    globals_ = {
        name
        for name in namespace
        if isinstance(name, str)
        and name not in hidden
        and not (name.startswith("__") and name.endswith("__"))
    }
    found: list[str] = []

    def add(subject: str) -> None:
        if subject not in found:
            found.append(subject)

    for word in _words(question):
        node = _parse(word)
        names = (
            [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
            if node is not None
            else list(_identifiers(word))
        )
        # Only what reads the session: len([1, 2]) says nothing about it.
        reads_session = any(name in globals_ for name in names)
        compound = node is not None and not isinstance(node, ast.Name)
        if node is not None and compound and reads_session and _evaluable(node, globals_):
            add(ast.unparse(node))
        for name in names:
            if name in globals_:
                add(name)
    return found[:MAX_SUBJECTS]


def _result(record: CallRecord) -> dict[str, Any] | None:
    return record.envelope.get("result") if record.ok else None


def _error(record: CallRecord) -> str:
    error = record.envelope.get("error") or {}
    return str(error.get("message", "failed"))


def _call_facts(executor: CapabilityExecutor, subject: str) -> str:
    """A call is evaluated once (it may do work or change state): its repr, or what it raised."""
    record = executor.host_call("eval_expr", {"expr": subject})
    result = _result(record)
    if result is None:
        return f"- {subject} raised {_error(record)}"
    return f"- {subject} returns {result['value_repr'][:REPR_CHARS]}"


def _subject_facts(executor: CapabilityExecutor, subject: str, value: Any) -> str:
    """One line about ``subject`` from capability calls; ``value`` (the namespace's
    object for a bare name, else None) only decides which calls are worth making."""
    if isinstance(python_ast.parse_expression(subject), ast.Call):
        return _call_facts(executor, subject)
    typed = executor.host_call("get_type", {"expr": subject})
    kind = _result(typed)
    if kind is None:
        return f"- {subject}: evaluating it raised {_error(typed)}"
    parts = [f"type {kind['name']}"]
    if kind["name"] in _CALLABLE_TYPES:
        doc = _result(executor.host_call("get_doc", {"expr": subject}))
        if doc is not None and doc["doc"]:
            parts.append(f"docstring {doc['doc'][:REPR_CHARS]!r}")
        return f"- {subject}: " + ", ".join(parts)
    represented = executor.host_call("get_repr", {"expr": subject, "max_chars": REPR_CHARS})
    shown = _result(represented)
    if shown is not None:
        cut = " (cut)" if shown["truncated"] else ""
        parts.append(f"value {shown['repr']}{cut}")
    else:
        parts.append(f"repr() raised {_error(represented)}")
    if kind["qualified"] in _SIZED_TYPES:
        length = _result(executor.host_call("eval_expr", {"expr": f"len({subject})"}))
        if length is not None:
            unit = "characters" if kind["qualified"] == "builtins.str" else "items"
            parts.append(f"{length['value_repr']} {unit} (its len)")
    # Asked of the type: an instance's own __getattr__ is user code that may raise.
    elif kind["name"] != "module" and type(value).__dictoffset__ and subject.isidentifier():
        attributes = _result(executor.host_call("eval_expr", {"expr": f"vars({subject})"}))
        if attributes is not None:
            parts.append(f"attributes {attributes['value_repr'][:REPR_CHARS]}")
    return f"- {subject}: " + ", ".join(parts)


def _where(frame: dict[str, Any]) -> str:
    place = f"line {frame['line']} of {PurePath(str(frame['file'])).name}"
    if frame["function"] != "<module>":
        place += f", in {frame['function']}()"
    return f"{place}: {frame['code']}" if frame["code"] else place


def _exception_facts(executor: CapabilityExecutor) -> str | None:
    """The last exception: its type and message, then where it was raised, innermost first."""
    found = _result(executor.host_call("get_last_exception", {}))
    exception = found.get("exception") if found else None
    if not exception:
        return None
    message = f"{exception['exc_type']}: {exception['message']}".rstrip(": ")
    lines = [f"- the last exception raised: {message}"]
    frames = list(exception.get("frames") or [])
    for depth, frame in enumerate(reversed(frames)):
        lines.append(f"  {'raised at' if depth == 0 else 'called from'} {_where(frame)}")
    return "\n".join(lines)


def gather_facts(question: str, executor: CapabilityExecutor) -> QuestionFacts:
    """Call the capabilities the question needs; the facts block for the first message."""
    capabilities = executor.capabilities
    namespace = capabilities.namespace
    subjects = question_subjects(question, namespace, capabilities.hidden)
    lines = [_subject_facts(executor, s, namespace.get(s)) for s in subjects]
    if not subjects:
        listed = _result(executor.host_call("list_globals", {}))
        if listed is not None and listed["globals"]:
            names = ", ".join(f"{g['name']} ({g['type_name']})" for g in listed["globals"][:40])
            lines.append(f"- the session's globals: {names}")
    exception = _exception_facts(executor)
    if exception is not None:
        lines.append(exception)
    text = "Facts the functions returned for this question:\n" + "\n".join(lines) if lines else ""
    return QuestionFacts(tuple(subjects), tuple(executor.facts), text)
