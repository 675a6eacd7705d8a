"""Views for learning: each stage shown on its own (tokens, parse tree, AST, link map), the up-front
checker, the formatter and the fast engine's generated Python. The tracer and the debugger are in
:mod:`tinyc.debug`.

May import: :mod:`tinyc.machine` and everything below it; not :mod:`tinyc.shell`, :mod:`tinyc.debug` or
:mod:`tinyc.cli`. The names below are the Python API the docs use (``tinyc.views.tokens(...)``).
"""
from .stages import ast_dump, link_map, load, parse_tree, tokens

__all__ = ["ast_dump", "link_map", "load", "parse_tree", "tokens"]
