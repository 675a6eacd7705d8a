"""Stage 1: text to AST, as one pipeline (:mod:`tinyc.syntax.pipeline`): the lexer, the linker's level
scan, the Lark grammar and parser, its statement-level error recovery and the AST builder, each a pass
the driver runs once, for tiny-c and (with its own front end) for Tom Gibson's dialect.

May import: :mod:`tinyc.errors`, :mod:`tinyc.ast`, :mod:`tinyc.dirs` (where Lark's grammar cache lives).
"""
