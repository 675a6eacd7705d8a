"""The ``tinyc`` command: the shell, ``tinyc run``, ``tinyc FILE.ipl`` and the stage views.

Exit status: 0 on success, 1 when a tiny-c error stopped the program (its report is on stderr),
2 for bad command-line use.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__
from .console import Console
from .errors import ErrorCode, ExitProgram, TinyCError, error_report
from .interpreter import DEFAULT_MEMORY, Machine
from .workspace import Workspace

# Stage views and tools that live in their own modules: name -> (module, help).  Each module has
# ``add_arguments(parser)`` and ``command(args) -> int``.
TOOLS = {
    "tokens": ("tinyc.views", "print the token stream of a program, with line:column"),
    "parse": ("tinyc.views", "print the Lark parse tree of a program"),
    "ast": ("tinyc.views", "print the AST of a program, with source offsets"),
    "link": ("tinyc.views", "print the symbol levels and the memory map after linking"),
    "trace": ("tinyc.trace", "run a program, printing each statement as it runs"),
    "compile": ("tinyc.compiler", "print the Python the fast engine generates for a program"),
    "check": ("tinyc.check", "list every syntax error and undeclared name of a program up front"),
}


def machine_options(p: argparse.ArgumentParser, engine: bool = True) -> None:
    """The options of reference section 14 that every way of running tiny-c accepts
    (``engine=False`` for commands that always use the reference evaluator, like ``tinyc trace``)."""
    p.add_argument("--int-bits", type=int, choices=(16, 32), default=32,
                   help="int width: 32 (Linux port, default) or 16 (DOS era)")
    p.add_argument("--memory", type=int, default=DEFAULT_MEMORY, metavar="BYTES",
                   help=f"size of the flat memory (default {DEFAULT_MEMORY})")
    p.add_argument("--strip-cr", action="store_true", help="drop CR bytes from the output")
    p.add_argument("--echo", action="store_true", help="echo each input line read")
    if engine:
        p.add_argument("--engine", choices=("reference", "fast"), default=default_engine(),
                       help="execution engine (default: %(default)s)")
    p.add_argument("--random-divisor", type=int, choices=(7, 8), default=8,
                   help="divisor in the library's random: 8 (2015, default) or 7 (2017 library)")
    p.add_argument("--max-depth", type=int, default=1000, metavar="N",
                   help="active function calls before error 17 (default 1000)")


def default_engine() -> str:
    try:
        from . import compiler  # noqa: F401
        return "fast"
    except ImportError:
        return "reference"


MIN_MEMORY = 200_000  # the system file, the shell's ln and pr(90000) buffers and room for a program


def memory_ok(args: argparse.Namespace) -> bool:
    """False, after saying why on stderr, when ``--memory`` is too small for the shell's buffers."""
    if args.memory >= MIN_MEMORY:
        return True
    print(f"tinyc: --memory must be at least {MIN_MEMORY} bytes (the shell's buffers live there)", file=sys.stderr)
    return False


def make_machine(args: argparse.Namespace, console: Console | None = None) -> Machine:
    if not memory_ok(args):
        raise SystemExit(2)
    console = console or Console(strip_cr=args.strip_cr, echo=args.echo)
    return Machine(args.memory, args.int_bits, console, args.engine, args.max_depth, args.random_divisor)


def boot(args: argparse.Namespace, console: Console | None = None) -> tuple[Machine, Workspace]:
    """A machine with the system library booted and an empty program buffer.

    Raises SystemExit with the report if the system file itself has an error."""
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


def dialect_options(p: argparse.ArgumentParser) -> None:
    """The options of the Gibson dialect (issue 15, docs/dialects.md)."""
    p.add_argument("--dialect", choices=("pc", "gibson"), default=None,
                   help="the language: pc (tiny-c/PC, the default) or gibson (Tom Gibson's tiny-C; "
                        "chosen by itself for a file that starts with #include)")
    p.add_argument("-q", "--quiet", action="store_true", help="gibson: no banner, no done at the end")
    p.add_argument("-r", dest="code", metavar="CODE", default=None,
                   help="gibson: run the statement CODE instead of main()")
    p.add_argument("--allow-system", action="store_true",
                   help="gibson: let the library's system() run shell commands (off by default)")


def chosen_dialect(args: argparse.Namespace, path: str) -> str:
    """The dialect to run ``path`` in: --dialect, else gibson for a file starting with #include
    (with a note on stderr), else pc."""
    if getattr(args, "dialect", None):
        return args.dialect
    from .dialect import detect
    try:
        with open(path, "rb") as f:
            start = f.read(16)
    except OSError:
        return "pc"
    if detect(start) is not None:
        print(f"tinyc: {path} starts with #include: running it in the Gibson dialect "
              "(--dialect gibson; --dialect pc to override)", file=sys.stderr)
        return "gibson"
    return "pc"


def cmd_gibson(path: str, args: argparse.Namespace) -> int:
    """Run ``path`` in the Gibson dialect (tinyc.gibson): exit status as that interpreter's."""
    from . import gibson
    console = Console(strip_cr=args.strip_cr, echo=args.echo)
    return gibson.run(path, code=args.code, quiet=args.quiet, engine=getattr(args, "engine", "reference"),
                      memory=args.memory, max_depth=args.max_depth, allow_system=args.allow_system,
                      console=console)


def cmd_run(args: argparse.Namespace) -> int:
    """``tinyc run FILE... [--entry NAME]``: load the library and the files, run the statement NAME."""
    if chosen_dialect(args, args.files[-1]) == "gibson":
        if len(args.files) > 1:
            print("tinyc: the Gibson dialect runs one application file (use #include lines)", file=sys.stderr)
            return 2
        return cmd_gibson(args.files[0], args)
    m, ws = boot(args)
    for f in args.files:
        n = ws.read_file(f)
        if n < 0:
            print(f"tinyc: {f}: " + ("file not found" if n == -1 else "does not fit the program buffer"),
                  file=sys.stderr)
            return 2
    try:
        err, cu = ws.run(args.entry.encode("latin-1"))
    except ExitProgram:
        err = 0
    if m.console.last != b"\n":  # pl puts its newline first, so output usually ends mid-line
        m.console.write(b"\n")
    m.console.flush()
    if err:
        sys.stdout.flush()
        sys.stderr.write("stopped\n" if err == ErrorCode.KILL else ws.report(err, cu, len(args.files) > 1))
        return 1
    return 0


def cmd_ipl(path: str, args: argparse.Namespace) -> int:
    """``tinyc FILE.ipl``: boot a system file; no library unless the file holds it (section 4).
    A file in the Gibson dialect (``--dialect gibson``, or starting with ``#include``) runs as ``tc FILE``."""
    if chosen_dialect(args, path) == "gibson":
        return cmd_gibson(path, args)
    try:
        text = Path(path).read_bytes().replace(b"\r", b"")
    except OSError as e:
        print(f"tinyc: {path}: {e.strerror}", file=sys.stderr)
        return 2
    m = make_machine(args)
    try:
        m.boot_ipl(text)
    except ExitProgram:
        pass
    except TinyCError as e:
        m.console.flush()
        if e.code == ErrorCode.KILL and m.console.at_eof:
            return 0  # end of input at the IPL's own prompt: exit, as the shell does (14 item 10)
        sys.stderr.write(error_report(e.code, b"\n" + text, e.address + 1))
        return 1
    finally:
        m.console.flush()
    return 0


def _first_positional(argv: list[str]) -> str | None:
    """The first argument that is not an option or an option's value: a command or an IPL file."""
    probe = argparse.ArgumentParser(add_help=False)
    machine_options(probe)
    dialect_options(probe)
    _, rest = probe.parse_known_args(argv)
    return next((a for a in rest if not a.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="tinyc", description="tinyc: a faithful, fast and teachable tiny-c (tiny-c/PC, Linux port).",
        epilog="With no command, starts the tc> shell.  tinyc FILE.ipl boots a system file.")
    parser.add_argument("--version", action="version", version=f"tinyc {__version__}")
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run a tiny-c program: tinyc run FILE... [--entry NAME]")
    run.add_argument("files", nargs="+", metavar="FILE")
    run.add_argument("--entry", default="main", help="statement to run (default: main)")
    machine_options(run)
    dialect_options(run)
    shell = sub.add_parser("shell", help="the tc> shell (the default with no command)")
    machine_options(shell)
    for name, (module, help_) in TOOLS.items():
        tool = sub.add_parser(name, help=help_)
        try:
            import importlib
            importlib.import_module(module).add_arguments(tool, name)
        except Exception:  # a broken or missing tool must not take the other commands down
            tool.set_defaults(unavailable=True)
        tool.set_defaults(tool_module=module)
    first = _first_positional(argv)
    if first is not None and first not in sub.choices:
        ipl = argparse.ArgumentParser(prog="tinyc FILE.ipl")
        ipl.add_argument("file")
        machine_options(ipl)
        dialect_options(ipl)
        a = ipl.parse_args(argv)
        return cmd_ipl(a.file, a)
    if first is None and not {"-h", "--help", "--version"} & set(argv):
        argv = ["shell"] + argv
    elif first is not None and argv[0] != first:  # options before the command: move the command first
        argv.remove(first)
        argv = [first] + argv
    args = parser.parse_args(argv)
    if args.command == "run":
        return cmd_run(args)
    if args.command in TOOLS:
        if getattr(args, "unavailable", False):
            print(f"tinyc: {args.command} is not available in this version", file=sys.stderr)
            return 2
        import importlib
        return importlib.import_module(args.tool_module).command(args)
    from .shell import run_shell
    return run_shell(args)


if __name__ == "__main__":
    sys.exit(main())
