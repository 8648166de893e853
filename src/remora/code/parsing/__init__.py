"""The parsing core: a file's text parsed with LibCST, its nodes found and read, kept per text.

- :mod:`.source`: a parsed text (:class:`ParsedFile`: its tree, every node's byte span
  and line) and one node of it (:class:`SourceNode`, found by :func:`locate`);
- :mod:`.tree_walk`: the classes and functions of a tree, by qualified name;
- :mod:`.parse_cache`: :func:`parse`, the last texts parsed, a new text of a file made
  from an earlier parse by :mod:`.reparse` (which parses only the definition that changed:
  :mod:`.reparse_statements`, :mod:`.reparse_steps`, on :mod:`.reparse_tree` and
  :mod:`.reparse_spans`);
- :mod:`.structure`: what a node is (span, signature, raises, returns), its annotations
  written as type comments too (:mod:`.type_comments`);
- :mod:`.text_cache`: work done once per text (the ``ast`` tree); :mod:`.ast_definitions`:
  the ``ast`` definitions of a text, the one a node names, and whether one is a stub;
  :mod:`.line_breaks`; :mod:`.python_tokens`: a text's tokens (its comments, its literals'
  spelling).

It imports nothing else of :mod:`remora.code` (a contract of ``lint-imports``).
"""

from remora.code.parsing.ast_definitions import (
    Defined,
    alternative_definitions,
    ast_definitions,
    decorator_name,
    is_stub,
    located_definition,
    module_names,
    overridden_stub,
    overrides,
    sole_function,
    stub_owner,
)
from remora.code.parsing.line_breaks import line_starts
from remora.code.parsing.parse_cache import parse
from remora.code.parsing.python_tokens import python_tokens
from remora.code.parsing.source import (
    NodeRef,
    ParsedFile,
    SourceNode,
    literal_value,
    locate,
    python_syntax_error,
)
from remora.code.parsing.structure import (
    NodeReturns,
    NodeSignature,
    NodeSpan,
    RaisedException,
    SignatureParameter,
    TypeParameter,
    node_raises,
    node_returns,
    node_signature,
    node_span,
)
from remora.code.parsing.text_cache import ast_tree, per_node, per_text
from remora.code.parsing.tree_walk import (
    Definition,
    child_nodes,
    qualified_definitions,
    statement_children,
)
from remora.code.parsing.type_comments import comment_annotations

__all__ = [
    "Defined",
    "Definition",
    "NodeRef",
    "NodeReturns",
    "NodeSignature",
    "NodeSpan",
    "ParsedFile",
    "RaisedException",
    "SignatureParameter",
    "SourceNode",
    "TypeParameter",
    "alternative_definitions",
    "ast_definitions",
    "ast_tree",
    "child_nodes",
    "comment_annotations",
    "decorator_name",
    "is_stub",
    "line_starts",
    "literal_value",
    "locate",
    "located_definition",
    "module_names",
    "node_raises",
    "node_returns",
    "node_signature",
    "node_span",
    "overridden_stub",
    "overrides",
    "parse",
    "per_node",
    "per_text",
    "python_syntax_error",
    "python_tokens",
    "qualified_definitions",
    "sole_function",
    "statement_children",
    "stub_owner",
]
