"""Views for learning: each stage shown on its own (tokens, parse tree, AST, link map), the statement
tracer, the up-front checker and the fast engine's generated Python.

May import: :mod:`tinyc.machine` and everything below it; not :mod:`tinyc.shell` or :mod:`tinyc.cli`.
The names below are the Python API the docs use (``tinyc.views.tokens(...)``, ``tinyc.views.trace(...)``).
"""
from .stages import ast_dump, link_map, load, parse_tree, tokens
from .tracer import trace

__all__ = ["ast_dump", "link_map", "load", "parse_tree", "tokens", "trace"]
