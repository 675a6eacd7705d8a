"""Stage 3: running a linked program.  The reference evaluator, which reads like the manual, and the fast
engine, which compiles each function to Python (code generation of expressions and statements, the bounds
analysis, the run-time helpers), for tiny-c and for Gibson's dialect.

An engine is given its machine; it reaches memory, the console and the machine calls through it, so nothing
here imports :mod:`tinyc.machine` except for type checking.

May import: :mod:`tinyc.link`, :mod:`tinyc.syntax`, :mod:`tinyc.errors`, :mod:`tinyc.ast`.
"""
