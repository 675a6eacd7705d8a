"""Stage 2: the linked program.  Symbol tables (the library, program and local levels) and frames, and the
linker that declares globals and functions over the flat memory (reference sections 3 and 9).

May import: :mod:`tinyc.syntax`, :mod:`tinyc.errors`, :mod:`tinyc.ast`.
"""
