"""Stage 1: text to AST.  The lexer (tokens, the linker's top-level scan), the Lark grammar and the parser
with its statement-level error recovery, for tiny-c and for Tom Gibson's dialect.

May import: :mod:`tinyc.errors`, :mod:`tinyc.ast`, :mod:`tinyc.dirs` (where Lark's grammar cache lives).
"""
