"""The ``tinyc`` command: the shell, ``tinyc run``, ``tinyc boot`` and the stage views.

Exit status: 0 on success, 1 when a tiny-c error stopped the program (its report is on stderr),
2 for bad command-line use, 130 after Ctrl-C (``stopped`` on stderr), 74 when standard output is closed or
full or standard input is closed (one line on stderr: EX_IOERR), 141 when the reader of the output went away
(a broken pipe), 70 for an internal error (a bug in tinyc).

Every command takes the same machine options (one argparse parent parser).  A command's module is
imported only when it is the command, so ``tinyc run`` does not load the stage views.  The commonest
command line, ``tinyc run FILE... [--entry NAME]``, is read by :func:`quick_args` without argparse:
importing it and building the parsers (help formatters, gettext's look-ups, ``shutil``) cost a start a
fifth of its time.
"""

from __future__ import annotations

import gc
_COLLECTING = gc.isenabled()
gc.disable()  # until the end of this module's imports: see tinyc.dialects.pc.NoCollections
import os
import sys


def _stopped_early(signum, frame) -> None:
    """Ctrl-C while ``tinyc`` is still importing itself: ``stopped``, 130, as at any other moment (a
    KeyboardInterrupt here would end in Python's traceback, before :func:`main` can catch it)."""
    os.write(2, b"stopped\n")
    os._exit(130)


if sys.argv and os.path.basename(sys.argv[0]) in ("tinyc", "__main__.py"):  # the command, not an import
    try:
        import _signal  # type: ignore[import-not-found]  # the C module: signal costs a start 1 ms
        _signal.signal(_signal.SIGINT, _stopped_early)  # main() puts Python's own handler back
    except (ImportError, ValueError, OSError):
        pass
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
from functools import lru_cache

from .. import __version__
from ..machine.console import (OutputClosed, StreamFailed, align_report, byte_transparent_stdio,
                               flush_consoles, stand_in_streams)
from ..driver.dialect import DEFAULT as DEFAULT_DIALECT, TOOLS as TOOL_NAMES
from ..machine.shipped import (ProgramFileError, find_program, program_capacity, program_path, read_ahead,  # noqa: F401
                               read_source, shipped_programs)
from ..driver.outcome import INTERRUPTED_STATUS, interrupted
from .options import UsageError, chosen_dialect, has_header_line, session_of, settle_memory  # noqa: F401  (UsageError: the tools raise it)
if TYPE_CHECKING:
    import argparse  # imported only to build a parser: see quick_args

# Commands with their help.  Those with a module live there: ``add_arguments(parser, name)`` and
# ``command(args) -> int``.
BUILTIN = {
    "run": "run a tiny-c program: tinyc run FILE... [--entry NAME]  (FILE - reads it from stdin)",
    "shell": "the tc> shell (the default with no command)",
    "boot": "boot a system file (IPL) as the original did: tinyc boot FILE",
}
TOOLS = {
    "tokens": ("tinyc.cli.stage_views", "print the token stream of a program, with line:column"),
    "parse": ("tinyc.cli.stage_views", "print the Lark parse tree of a program"),
    "ast": ("tinyc.cli.stage_views", "print the AST of a program, with source offsets"),
    "link": ("tinyc.cli.stage_views", "print the symbol levels and the memory map after linking"),
    "trace": ("tinyc.cli.trace", "run a program, printing each statement as it runs"),
    "step": ("tinyc.cli.step", "record a run step by step and write it as a stepper page: tinyc step FILE -o run.html"),
    "compile": ("tinyc.cli.compile", "print the Python the fast engine generates for a program"),
    "check": ("tinyc.cli.check", "list every syntax error, undeclared name and duplicate definition up front"),
    "debug": ("tinyc.cli.debug", "debug a program: breakpoints, stepping, frames (Gibson's tc -d commands and more)"),
    "dap": ("tinyc.cli.dap", "serve the Debug Adapter Protocol on stdin/stdout, for editors (VS Code...)"),
    "lsp": ("tinyc.cli.lsp", "serve the Language Server Protocol on stdin/stdout, for editors (VS Code, Neovim...)"),
    "fmt": ("tinyc.cli.fmt", "re-indent tiny-c source by its [ ] blocks: tinyc fmt FILE... [--check]"),
    "completion": ("tinyc.cli.completion", "print a shell completion script: eval \"$(tinyc completion bash)\""),
}

NO_MACHINE = ("fmt", "completion")  # they run no program: the machine options mean nothing there (nor in a
# dialect's own commands, such as Gibson's draw: dialect_commands)
DIALECT_TOOLS = TOOL_NAMES  # each dialect's own (Dialect.tool)


def dialect_commands() -> dict[str, tuple[str, str]]:
    """The commands the dialects add (:attr:`tinyc.driver.dialect.Dialect.commands`): name -> (dialect, help).
    Every dialect is loaded (the installed ones' entry points read): only for a word that is no built-in
    command, and for ``--help``."""
    from ..driver.dialect import find, names
    found: dict[str, tuple[str, str]] = {}
    for dialect in names():
        for name, help_ in find(dialect).commands.items():
            if name not in BUILTIN and name not in TOOLS:
                found.setdefault(name, (dialect, help_))
    return found


def is_command(word: str) -> bool:
    """Whether ``word`` is a command: a built-in one, else (looked up only then) a dialect's."""
    return word in BUILTIN or word in TOOLS or (word.isidentifier() and word in dialect_commands())

# ---- running

def cmd_run(args: argparse.Namespace) -> int:
    """``tinyc run FILE... [--entry NAME]``: the dialect's run of the files (chosen as :func:`chosen_dialect`
    says): for tiny-c/PC, load the library and the files, run the statement NAME."""
    if args.list:
        for name in shipped_programs():
            print(name)
        return 0
    if not args.files:
        raise UsageError("run: give a FILE (or - to read the program from standard input)")
    if args.debug:  # tinyc run -d: the debug command's module (imported by name, as the tools are)
        import importlib
        return importlib.import_module("tinyc.cli.debug").command(args)
    if args.files.count("-") > 1:
        raise UsageError("run: standard input (-) can be read only once")
    last, dialect = args.files[-1], args.dialect
    if dialect is None and last != "-":  # told by the text the run then takes: the file is read once
        text = read_ahead(last, max(args.memory, program_capacity(args.int_bits)))
        dialect = chosen_dialect(args, last, head=text) if text is not None else DEFAULT_DIALECT
    outcome = session_of(args, dialect=dialect).execute(args.files, args.entry, args.code)
    sys.stdout.flush()  # the program's output before the report
    return outcome.render()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser.  With ``command`` given, only that command is built (and only its module is
    imported): nothing parses the others in this run, and each parser argparse builds costs a start a
    fraction of a millisecond in help formatters and message lookups.  ``None`` builds them all, for
    ``--help``."""
    import argparse
    from .options import EPILOG, RUN_DEFAULTS, SECURITY, dialect_argument, dialect_options, optimisation_options
    common = _common()
    parser = _parser_class()(
        prog="tinyc", description="tinyc: a faithful, fast and teachable tiny-c (tiny-c/PC, Linux port).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"tinyc {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                                help="one of these; `tinyc COMMAND --help` describes its options")

    def wanted(name: str) -> bool:
        return command is None or name == command
    if wanted("run"):
        run = sub.add_parser("run", help=BUILTIN["run"], description=BUILTIN["run"], parents=[common],
                             epilog=SECURITY + "\n\n" + EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        run.add_argument("files", nargs="*", metavar="FILE", help="program files, loaded in order (- is stdin)")
        run.add_argument("--entry", default=RUN_DEFAULTS["entry"], help="statement to run (default: main)")
        run.add_argument("--list", action="store_true", default=RUN_DEFAULTS["list"],
                         help="list the programs shipped with tinyc")
        run.add_argument("-d", "--debug", action="store_true", default=RUN_DEFAULTS["debug"],
                         help="run under the debugger (as tinyc debug; Gibson's tc -d)")
        dialect_options(run)
        optimisation_options(run)
    if wanted("shell"):
        shell = sub.add_parser("shell", help=BUILTIN["shell"], description=BUILTIN["shell"], parents=[common])
        dialect_argument(shell, "the language: pc (the tc> shell, the default), gibson (a buffer run as tc -r runs it)")
    if wanted("boot"):
        boot_ = sub.add_parser("boot", help=BUILTIN["boot"], description=BUILTIN["boot"], parents=[common])
        boot_.add_argument("file", metavar="FILE", help="a system file, such as system.ipl (the one shipped with tinyc)")
        dialect_argument(boot_, "pc (a system file, the default); another dialect runs the file as its program",
                         RUN_DEFAULTS["dialect"])
        boot_.set_defaults(**{k: v for k, v in RUN_DEFAULTS.items() if k != "dialect"})  # Gibson's -q, -r: run's
    for name, (module, help_) in TOOLS.items():
        if not wanted(name):
            continue
        runs = name not in NO_MACHINE
        tool = sub.add_parser(name, help=help_, description=help_, parents=[common] if runs else [])
        tool.set_defaults(tool_module=module)
        if not runs:  # the namespace every command has, without options that would mean nothing here
            from .options import MACHINE_DEFAULTS
            tool.set_defaults(**MACHINE_DEFAULTS)
        if name in DIALECT_TOOLS:
            dialect_argument(tool, "the language (default: gibson for a file that starts with #include or "
                                   "#loadMC, else pc)")
        if name == command:
            import importlib
            importlib.import_module(module).add_arguments(tool, name)
    if command is None or not (command in BUILTIN or command in TOOLS):
        _dialect_parsers(sub, command)
    return parser


def _dialect_parsers(sub, command: str | None) -> None:
    """The sub-parsers of the dialects' own commands (all, or ``command``'s alone, its arguments added)."""
    from .options import MACHINE_DEFAULTS
    for name, (dialect, help_) in dialect_commands().items():
        if command is None or name == command:
            tool = sub.add_parser(name, help=help_, description=help_)
            tool.set_defaults(dialect_command=dialect, **MACHINE_DEFAULTS)
            if name == command:
                from ..driver.dialect import find
                find(dialect).command(name).add_arguments(tool, name)


@lru_cache(maxsize=None)
def _parser_class() -> type:
    """argparse's parser, whose usage error is one line (the whole usage, with every --no-* switch of
    run, hid the message): ``tinyc run: argument --memory: ... (`tinyc run --help` lists the options)``."""
    import argparse
    import typing

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> typing.NoReturn:
            self.exit(2, f"{self.prog}: {message} (`{self.prog} --help` lists the options)\n")
    return Parser


@lru_cache(maxsize=None)
def _common() -> argparse.ArgumentParser:
    """The machine options' parent parser, made once per process (a parent is only read)."""
    from .options import common_options
    return common_options()


@lru_cache(maxsize=None)
def _takes_value() -> frozenset[str]:
    import argparse
    from .options import dialect_options
    dialect = argparse.ArgumentParser(add_help=False)
    dialect_options(dialect)  # --dialect and -r take a value before the command or file, too
    return frozenset(s for p in (_common(), dialect) for a in p._actions if a.nargs != 0 for s in a.option_strings)


def locate_command(argv: list[str]) -> int | None:
    """Index of the first argument that is neither an option nor an option's value (the command)."""
    values = _takes_value()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return i + 1 if i + 1 < len(argv) else None
        if a.startswith("-") and a != "-":
            name = a.split("=", 1)[0]
            matches = [v for v in values if v.startswith(name)] if name.startswith("--") else []
            if "=" not in a and (name in values or len(matches) == 1):
                i += 1
            i += 1
            continue
        return i
    return None


def quick_args(argv: list[str]) -> argparse.Namespace | None:
    """The namespace ``build_parser().parse_args(argv)`` gives for ``run FILE... [--entry NAME]`` (no other
    option; ``-`` is a FILE), built without argparse; None for any other command line, which argparse
    reads.  tests/driver/test_startup.py checks that both give the same namespace."""
    if len(argv) < 2 or argv[0] != "run":
        return None
    from .options import MACHINE_DEFAULTS, RUN_DEFAULTS
    files, entry = argv[1:], str(RUN_DEFAULTS["entry"])
    if len(files) >= 2 and files[-2] == "--entry":
        files, entry = files[:-2], files[-1]
    elif files[-1].startswith("--entry="):
        files, entry = files[:-1], files[-1][len("--entry="):]
    if not files or entry.startswith("-") or any(f.startswith("-") and f != "-" for f in files):
        return None
    from types import SimpleNamespace
    args = SimpleNamespace(command="run", files=files, **{**MACHINE_DEFAULTS, **RUN_DEFAULTS, "entry": entry})
    return args  # type: ignore[return-value]  # the attributes of an argparse.Namespace, which is all it is read for


def _asks_dialect(argv: list[str]) -> bool:
    """Whether ``argv`` names a dialect other than the default (``--dialect gibson``)."""
    named = [a.split("=", 1)[1] for a in argv if a.startswith("--dialect=")]
    named += [b for a, b in zip(argv, argv[1:]) if a == "--dialect"]
    return any(n != DEFAULT_DIALECT for n in named)


def route(argv: list[str]) -> list[str]:
    """``argv`` with the command first: the shell by default, ``boot`` for an ``.ipl`` file.

    Raises UsageError for a file given where a command belongs, or a mistyped command."""
    at = locate_command(argv)
    if at is None:
        if {"-h", "--help", "--version"} & set(argv):
            return argv
        return ["shell"] + argv
    word, rest = argv[at], argv[:at] + argv[at + 1:]
    if at > 0 and argv[at - 1] in ("-e", "-c"):
        raise UsageError(f"{argv[at - 1]} STATEMENT is an option of the views: `tinyc tokens -e {word!r}` "
                         f"(or parse, ast) shows the statement; `echo {word!r} | tinyc` runs it in the shell")
    if word in BUILTIN or word in TOOLS or ("." not in word and os.sep not in word and is_command(word)):
        return [word] + rest
    if word.lower().endswith(".ipl"):
        return ["boot", word] + rest
    is_file = word.lower().endswith((".tc", ".c")) or os.sep in word
    try:
        is_file = is_file or os.path.exists(word)
    except (OSError, ValueError):
        pass
    if is_file and (has_header_line(word) or _asks_dialect(argv)):
        return ["run", word] + rest  # e.g. a Gibson-dialect program: "tinyc FILE" as that interpreter's "tc FILE"
    if is_file:
        raise UsageError(f"{word!r} is a file, not a command: `tinyc run {word}` runs a program, "
                         f"`tinyc boot {word}` boots it as a system file")
    import difflib  # only for a mistyped command
    close = difflib.get_close_matches(word, [*BUILTIN, *TOOLS, *dialect_commands()], n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise UsageError(f"unknown command {word!r}{hint} (`tinyc --help` lists the commands)")


def dispatch(args: argparse.Namespace) -> int:
    if args.command == "run":
        return cmd_run(args)
    if args.command == "boot":
        from .boot import cmd_boot
        return cmd_boot(args)
    own = getattr(args, "dialect_command", None)
    if args.command in TOOLS or own is not None:
        for name in getattr(args, "files", None) or [getattr(args, "file", None)]:
            if name is not None and name != "-":
                read_source(name)  # one message for a file that cannot be read, whichever the tool
    if own is not None:  # a dialect's own command (Gibson's draw)
        from ..driver.dialect import find
        return find(own).command(args.command).command(args)
    if args.command in TOOLS:
        import importlib
        module = args.tool_module
        first = (getattr(args, "files", None) or [getattr(args, "file", None)])[0]
        if args.command in DIALECT_TOOLS:
            from ..driver.dialect import find
            if args.dialect is None and first not in (None, "-"):
                args.dialect = chosen_dialect(args, program_path(first), "reading it")
            return find(args.dialect or DEFAULT_DIALECT).tool(args.command).command(args)  # the dialect's own
        return importlib.import_module(module).command(args)
    return cmd_shell(args)


def cmd_shell(args: argparse.Namespace) -> int:
    """``tinyc`` / ``tinyc shell``: the dialect's shell on stdin/stdout (tiny-c/PC's ``tc>``: prompt_toolkit
    when both are terminals)."""
    session = session_of(args, dialect=getattr(args, "dialect", None))
    return session.dialect.shell(session, args)


def internal_error(e: Exception) -> str:
    """The one line that reports an internal error (exit 70).  A package data file that is missing (the
    system file, a grammar, the Gibson library) is a broken installation, not a bug in the program: the
    line names the file."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep
    if isinstance(e, FileNotFoundError) and e.filename and os.path.realpath(str(e.filename)).startswith(package):
        return f"tinyc: the installation is incomplete: {e.filename} is missing (reinstall tinyc)"
    return f"tinyc: internal error (a bug in tinyc; TINYC_DEBUG=1 shows the traceback): {type(e).__name__}: {e}"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _python_interrupts()
    limit = sys.getrecursionlimit()  # the machine raises it for deep tiny-c recursion: confine that to this run
    try:
        with stand_in_streams(), byte_transparent_stdio():
            try:
                args = quick_args(argv)
                if args is None:
                    argv = route(argv)
                    named = argv[0] if argv and is_command(argv[0]) else None
                    parser = build_parser(named)
                    args, extra = parser.parse_known_args(argv)
                    if extra:
                        from .options import unrecognized
                        raise UsageError(unrecognized(parser, named, extra))
                problem = settle_memory(args)  # --memory's default and cap depend on --int-bits (14 item 21)
                if problem:
                    raise UsageError(problem)
                return dispatch(args)
            except ProgramFileError as e:  # UsageError, or a program file that cannot be read
                print(f"tinyc: {e}", file=sys.stderr)
                return 2
            except OutputClosed:
                return _output_closed()
            except StreamFailed as e:  # stdout closed or full, stdin closed: one line, status 74
                flush_consoles()
                return _stream_failed(e)
            except KeyboardInterrupt:  # Ctrl-C outside a run (a run tells it as its Outcome)
                flush_consoles()
                _flush_stdout()
                interrupted().render()
                return INTERRUPTED_STATUS
            except MemoryError:
                flush_consoles()
                print("tinyc: out of memory: try a smaller --memory or --max-depth", file=sys.stderr)
                return 1
            except Exception as e:  # a bug in tinyc: one clear line, the traceback only when asked for
                flush_consoles()  # what the program printed before it is not lost
                if os.environ.get("TINYC_DEBUG"):
                    raise
                print(internal_error(e), file=sys.stderr)
                return 70
    finally:
        flush_consoles()
        sys.setrecursionlimit(limit)


def _python_interrupts() -> None:
    """Ctrl-C raises KeyboardInterrupt again (the import's :func:`_stopped_early` is over), so that what the
    program printed is flushed before ``stopped``."""
    try:
        import _signal
        if _signal.getsignal(_signal.SIGINT) is _stopped_early:
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    except (ImportError, ValueError, OSError):
        pass


def _flush_stdout() -> None:
    """Flush sys.stdout; a closed, full or broken one is passed over (its own message comes elsewhere)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def _stream_failed(e: StreamFailed) -> int:
    """The end when a standard stream cannot be used: the one line on stderr, status 74 (EX_IOERR); what
    stdout still buffers is dropped, so that the exit does not fail on it again."""
    _drop_stdout()
    try:
        print(e.message, file=sys.stderr)
    except (OSError, ValueError):
        pass
    return 74


def _drop_stdout() -> None:
    """Point stdout's file descriptor at the null device: nothing more is written, and flushing it at
    exit finds nothing to fail on."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _output_closed() -> int:
    """The end after a broken pipe: nothing more is written to stdout (its file descriptor now points at
    the null device, so that flushing it at exit finds no pipe to break), no message, status 141 (128 +
    SIGPIPE: what the shell shows for a process that SIGPIPE ended, ``yes | head -1``)."""
    _drop_stdout()
    return 141


def entry() -> None:
    """The ``tinyc`` console script (and ``python -m tinyc``): :func:`main`, then the end of the process
    without tearing down its heap.  Freeing the parsed library and the generated code object by object
    cost a tenth of ``tinyc run hello.tc``; so, once :func:`main` has returned, the files a tiny-c
    program left open are closed (flushed, as C's exit() flushes its streams), the atexit handlers run,
    the standard streams are flushed and ``os._exit`` ends the process with main's status.  While
    another thread runs, the process ends the usual way."""
    try:
        status = main()
    except SystemExit as e:  # argparse: --help, --version, a usage error
        status = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        if not isinstance(e.code, (int, type(None))):
            print(e.code, file=sys.stderr)
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        sys.exit(status)
    from ..machine.machine_calls import OPENED
    import atexit
    for f in OPENED:
        try:
            f.close()
        except OSError:
            pass
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:  # a closed pipe: Python itself ends with 120 then
            status = status or 120
        except (OSError, ValueError) as e:  # a full or closed stdout: the one line of StreamFailed, 74
            if stream is sys.stdout and isinstance(e, OSError) and not status:
                from ..machine.console import stream_failed
                status = _stream_failed(stream_failed(e, reading=False))
            else:
                status = status or 120
    os._exit(status)


if _COLLECTING:
    gc.enable()  # this module's imports are done (gc.disable() at the top)

if __name__ == "__main__":
    entry()
