"""A node's docstring asked of a code model as code, not as a field of JSON.

Code models are trained to fill in the middle of files, so the ask is a small
file: documented code from the same project as the style to follow (the
nearest documented functions of the node's own file, else of its folder, else a
few fixed ones), then the node's header and the opening quotes, with the
closing quotes and the body after the gap. A file with no documented
neighbours would teach the model that functions here have no docstrings; the
examples are what keeps it from writing an empty one. The same code also makes
the second shape, a chat whose reply already holds the header and the quotes.

Examples are chosen per file, not per node, so that the nodes of one file share
the prompt's opening and the engine's prompt cache serves it once.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

from remora import python_ast
from remora.code.context import CodeContext
from remora.code.docstring.comparisons import comparison_summary
from remora.code.docstring.docstring_results import DocstringPrompt, PromptText
from remora.code.docstring.left_alone import left_alone
from remora.code.docstring.summaries import file_docstring_summaries
from remora.code.host_function import host_function
from remora.code.parsing import Defined, ast_definitions, ast_tree, located_definition
from remora.code.values.project_imports import imported_class

__all__ = [
    "FIXED_EXAMPLES",
    "Example",
    "docstring_left_alone",
    "docstring_not_proposed",
    "file_docstring_summaries",
    "file_examples",
    "first_sentence",
    "note_not_proposed",
    "own_examples",
    "shape_prompt",
]

# The context note under which docstring_prompt keeps why the node is left alone.
_LEFT_ALONE = "docstring left alone"
# The one under which a tool keeps why it proposes nothing after asking the model.
_NOT_PROPOSED = "docstring not proposed"

MAX_EXAMPLES = 3
MAX_EXAMPLE_LINES = 6
MAX_BODY_LINES = 24

# Style for a project with no documented function: code from no project Remora is
# measured on, one-line summaries that say what the code does.
FIXED_EXAMPLES = (
    'def clamp(value, low, high):\n    """Limit value to the range from low to high."""\n'
    "    return max(low, min(high, value))",
    'def read_lines(path):\n    """Read a text file and return its lines without line endings."""\n'
    "    with open(path) as fh:\n        return fh.read().splitlines()",
    "class Stack:\n"
    '    """A last-in, first-out collection of items."""\n\n'
    "    def __init__(self):\n        self.items = []",
)


@dataclass(frozen=True)
class Example:
    """A documented definition shown as style: its code with the summary line only."""

    name: str
    summary: str
    code: str


@host_function
def first_sentence(context: CodeContext, text: str) -> str:
    """The first line of a completion, cut after its first sentence."""
    # Quotes the model put before its words (it sometimes re-opens the literal).
    line = next((part.strip() for part in text.strip().splitlines() if part.strip()), "")
    line = line.lstrip("\"' ")
    for end in (". ", "! ", "? "):
        if end in line:
            line = line[: line.index(end) + 1]
    return line


def _example(text: str, node: Defined) -> Example | None:
    """The node's code with its docstring reduced to the summary line; None if unsuited."""
    doc = ast.get_docstring(node)
    if not doc or node.end_lineno is None or len(node.body) < 2:
        return None
    summary = doc.strip().splitlines()[0].strip()
    if not summary or len(summary) > 100 or '"""' in summary or "\\" in summary:
        return None
    lines = text.splitlines()
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    header = lines[first - 1 : node.body[0].lineno - 1]
    rest = lines[node.body[1].lineno - 1 : node.end_lineno]
    if not header or node.body[0].lineno == node.lineno:
        return None
    indent = " " * node.body[0].col_offset
    body = rest[:MAX_EXAMPLE_LINES]
    code = "\n".join([*header, f'{indent}"""{summary}"""', *body])
    # Shown at the left margin, as the model sees a module's own functions.
    outer = node.col_offset
    return Example(node.name, summary, "\n".join(line[outer:] for line in code.splitlines()))


# Every node of a file asks these of the same texts (its own file and up to
# siblings.MAX_SIBLING_FILES others): walked once per text, not once per node (a folder's
# walks per node were a third of a docstring run's CPU on click).
@functools.lru_cache(maxsize=64)
def _documented(text: str) -> tuple[tuple[int, int, Example], ...]:
    """The file's examples in file order, each with its first line and its ``def`` line."""
    found = []
    for node in sorted(ast_definitions(text), key=lambda n: n.lineno):
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        if example := _example(text, node):
            found.append((start, node.lineno, example))
    return tuple(found)


def file_examples(text: str, *, skip_line: int = 0) -> list[Example]:
    """Documented definitions of one file, in file order, the node at ``skip_line`` left out."""
    return [e for start, line, e in _documented(text) if skip_line not in (start, line)]


def own_examples(text: str, skip_line: int) -> list[str]:
    """Up to MAX_EXAMPLES of the node's own module, else the fixed ones.

    Not its folder's other files: a small model copies the nouns of what it is shown
    as style, and a neighbour's nouns are not this code's ("Label the order." on a
    product's method, the order from the next file's docstring; issue 57)."""
    examples = [e.code for e in file_examples(text, skip_line=skip_line)[:MAX_EXAMPLES]]
    return examples or list(FIXED_EXAMPLES)


def shape_prompt(
    text: str, node_type: str, full_name: str, start_line: int, examples: list[str]
) -> PromptText | None:
    """The FIM and chat prompts for one node of ``text``; None when it cannot be asked."""
    if ast_tree(text) is None:
        python_ast.parse(text)  # a file that does not parse: its SyntaxError, raised
    lines = text.splitlines()
    style = "\n\n\n".join(examples)
    if node_type == "file":
        after = "\n".join(lines[:MAX_BODY_LINES])
        return {
            "prefix": '"""',
            "suffix": '"""\n' + after + "\n",
            "chat_prefix": '"""',
            "instruction": (
                "Write the one-line docstring of this Python module:\n```python\n" + after + "\n```"
            ),
            "stop": ['"""', "\n"],
        }
    node = located_definition(text, full_name, start_line)
    if node is None or node.end_lineno is None or node.body[0].lineno == node.lineno:
        return None
    first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    outer = node.col_offset
    header = "\n".join(line[outer:] for line in lines[first - 1 : node.body[0].lineno - 1])
    indent = " " * (node.body[0].col_offset - outer)
    has_doc = ast.get_docstring(node) is not None
    body_from = node.body[1].lineno if has_doc and len(node.body) > 1 else node.body[0].lineno
    body_lines = lines[body_from - 1 : node.end_lineno][:MAX_BODY_LINES]
    body = "\n".join(line[outer:] for line in body_lines)
    opening = f'{header}\n{indent}"""'
    kind = "class" if node_type == "class" else "function"
    return {
        "prefix": f"{style}\n\n\n{opening}",
        "suffix": f'"""\n{body}\n',
        "chat_prefix": f"```python\n{opening}",
        "instruction": (
            f"Documented code from the same project:\n```python\n{style}\n```\n\n"
            f"Write the one-line docstring of this {kind}, in the same style:\n"
            f"```python\n{header}\n{body}\n```"
        ),
        "stop": ['"""', "\n"],
    }


@host_function
def docstring_prompt(
    context: CodeContext,
    special_methods: bool = False,
    modules: bool = False,
    private: bool = False,
    classes: bool = False,
) -> DocstringPrompt:
    """The node as code for ``remora_code.complete``: ``{prefix, suffix, stop}`` for
    fill-in-the-middle and ``{chat_prefix, instruction}`` for a prefilled chat reply.

    ``available`` is False (with ``reason``) for a node that cannot be asked this way
    (a one-line definition); ``leave`` says why a node's docstring must be left alone
    (left_alone.py: a property setter, a docstring the program reads, a stub, a special
    method, a module, a private definition or a class unless ``special_methods``/
    ``modules``/``private``/``classes`` ask for them), and ``summary``
    is the one its facts give (a comparison dunder: claims.py), for which no model is
    asked. The style comes from the documented code of the node's own module, else
    from fixed examples.
    """
    located = context.located()
    asked = {
        "special_methods": special_methods,
        "modules": modules,
        "private": private,
        "classes": classes,
    }
    if leave := left_alone(located, **asked, imported=imported_class(context)):
        context.note(_LEFT_ALONE, leave)
        return {"available": False, "reason": leave, "leave": leave, "summary": ""}
    if summary := comparison_summary(located):
        known = "the summary is known"
        return {"available": False, "reason": known, "leave": "", "summary": summary}
    node = context.bound_node()
    text = context.node_file_text()
    examples = own_examples(text, node.start_line)
    prompt = shape_prompt(text, node.node_type, node.full_name, node.start_line, examples)
    if prompt is None:
        reason = "its body shares the header's line"
        return {"available": False, "reason": reason, "leave": "", "summary": ""}
    return {"available": True, "reason": "", "leave": "", "summary": "", **prompt}


@host_function
def docstring_left_alone(context: CodeContext) -> str:
    """Why this run left the node's docstring alone without asking ('' when it did not):
    ``docstring_prompt``'s ``leave`` (a class, a setter, a docstring the program reads).
    The bundled submit tells such a node from one whose drafts were all refused."""
    noted = context.notes(_LEFT_ALONE)
    return str(noted[-1]) if noted else ""


@host_function
def note_not_proposed(context: CodeContext, why: str) -> None:
    """Keep why this run proposes no docstring after asking the model (every draft
    refused, or one the model was unsure of), for ``docstring_not_proposed``."""
    context.note(_NOT_PROPOSED, why)


@host_function
def docstring_not_proposed(context: CodeContext) -> str:
    """Why this run proposes no docstring after asking the model ('' when no tool said):
    the bundled submit puts it in the run's summary."""
    noted = context.notes(_NOT_PROPOSED)
    return str(noted[-1]) if noted else ""
