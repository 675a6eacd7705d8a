"""Stage 3: running a linked program.  The reference evaluator, which reads like the manual, and the fast
engine, which compiles each function to Python (code generation of expressions and statements, the bounds
analysis, the run-time helpers).  A dialect extends them by subclassing (:mod:`tinyc.dialects.gibson`).

An engine is given its machine when the machine is built (the driver passes ``factory(machine) -> engine``);
it reaches memory, the console and the machine calls through it and sees it as
:class:`tinyc.machine.port.MachinePort`: the hardware sits below the engines, the driver above them.

May import: :mod:`tinyc.machine`, :mod:`tinyc.link`, :mod:`tinyc.syntax`, :mod:`tinyc.errors`, :mod:`tinyc.ast`.
"""
