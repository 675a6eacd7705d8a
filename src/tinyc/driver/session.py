"""A machine ready to run programs: the options of every way of running tiny-c applied, the system library
booted, an empty program buffer (reference sections 4, 9 and 14).  The commands, the shell and the
notebook magics all start here.
"""

from __future__ import annotations

import os
import sys

from ..machine.console import Console
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    import argparse  # the annotations only: `tinyc run FILE` parses its arguments without argparse

MIN_MEMORY = 200_000  # the system file, the shell's ln and pr(90000) buffers and room for a program
MIN_MEMORY_16 = 32_768  # the same with 16-bit ints: the system file, ln, pr(12000) and room for a program
MEMORY_16 = 65_536  # 16-bit ints address 64 KB: the machine's size, and the most --memory may ask (14 item 21)
DEFAULT_MEMORY = 1 << 20  # as tinyc.interpreter.DEFAULT_MEMORY (not imported: it would load the parser)


def memory_problem(int_bits: int, memory: int | None) -> str | None:
    """Why ``--memory`` ``memory`` (None: not given) cannot go with ``--int-bits`` ``int_bits``, or None.

    With 16-bit ints the machine has at most 65536 bytes (reference section 14 item 21)."""
    if memory is None:
        return None
    if int_bits == 16 and memory > MEMORY_16:
        return (f"--memory {memory} is more than 16-bit ints can address: "
                f"with --int-bits 16 the machine has at most {MEMORY_16} bytes")
    low = MIN_MEMORY_16 if int_bits == 16 else MIN_MEMORY
    if memory < low:
        return f"--memory must be at least {low} bytes (the shell's buffers live there)"
    return None


def settle_memory(args: argparse.Namespace) -> str | None:
    """Give ``args.memory`` its value when the option was not given (None): 65536 bytes with
    ``--int-bits 16`` (reference section 14 item 21), else 1 MiB.  Returns why the size given does not go
    with the int width (the caller reports it as a usage error, status 2), else None."""
    bits = getattr(args, "int_bits", 32)
    problem = memory_problem(bits, args.memory)
    if problem is None and args.memory is None:
        args.memory = MEMORY_16 if bits == 16 else DEFAULT_MEMORY
    return problem


def memory_ok(args: argparse.Namespace) -> bool:
    """False, after saying why on stderr, when ``--memory`` is too small for the shell's buffers or too big
    for 16-bit ints; a memory not given (None) is settled first (:func:`settle_memory`)."""
    problem = settle_memory(args)
    if problem:
        print(f"tinyc: {problem}", file=sys.stderr)
        return False
    return True


def file_sandbox(args: argparse.Namespace, programs: list[str] | None = None):
    """The file sandbox the options in ``args`` ask for (``--allow-files PATH``, ``--allow-files-anywhere``,
    :mod:`tinyc.machine.sandbox`), with the directories of the program files ``programs`` (by default
    ``args.files`` or ``args.file``: those the command runs; ``-`` has none)."""
    from ..machine.sandbox import FileSandbox
    from ..machine.shipped import program_path
    if programs is None:
        programs = list(getattr(args, "files", None) or []) + [f for f in [getattr(args, "file", None)] if f]
    return FileSandbox(getattr(args, "allow_files", None) or (), getattr(args, "allow_files_anywhere", False),
                       [os.path.dirname(os.path.abspath(program_path(p))) for p in programs
                        if isinstance(p, str) and p != "-"])


def make_machine(args: argparse.Namespace, console: Console | None = None):
    """A :class:`~tinyc.interpreter.Machine` with the machine options in ``args`` (``--memory``,
    ``--int-bits``, ``--engine``, ``--max-depth``, ``--random-divisor``, ``--strip-cr``, ``--echo``, the
    file sandbox of :func:`file_sandbox`);
    SystemExit(2), after saying why, when the memory is too small for the shell's buffers."""
    from .interpreter import Machine
    if not memory_ok(args):
        raise SystemExit(2)
    console = console or Console(strip_cr=args.strip_cr, echo=args.echo)
    m = Machine(args.memory, args.int_bits, console, args.engine, args.max_depth, args.random_divisor)
    m.files = file_sandbox(args)
    return m


def boot(args: argparse.Namespace, console: Console | None = None):
    """A machine with the system library booted and an empty program buffer: ``(machine, workspace)``.

    Raises SystemExit with the report if the system file itself has an error."""
    from ..errors import TinyCError, error_report
    from .workspace import Workspace
    m = make_machine(args, console)
    try:
        m.boot_library()
    except TinyCError as e:
        from .interpreter import system_file
        text = system_file()
        sys.stderr.write("tinyc: error in the system file\n"
                         + error_report(e.code, b"\n" + text, e.address + 1))
        raise SystemExit(1)
    return m, Workspace(m)


def boot_with_files(args: argparse.Namespace, console: Console | None = None):
    """``boot(args, console)``, then the program files ``args.files`` read into the program buffer in order, as
    ``tinyc run`` reads them.  Raises ProgramFileError for a file that cannot be read or does not fit."""
    from ..machine.shipped import ProgramFileError, program_capacity, read_source
    capacity = program_capacity(args.int_bits)
    texts = [read_source(f, capacity) for f in args.files]  # every file read before the library boots
    m, ws = boot(args, console)
    for name, text in zip(args.files, texts):
        if not ws.append(text, name):
            raise ProgramFileError(f"{name}: does not fit the program buffer ({ws.free} bytes free)")
    return m, ws
