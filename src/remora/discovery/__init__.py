"""Discovery: tree-sitter parsing of Python projects into CSTNodes."""

from remora.discovery.node import CSTNode, NodeType, make_node_id

__all__ = ["CSTNode", "NodeType", "make_node_id"]
