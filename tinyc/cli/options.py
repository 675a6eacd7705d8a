"""The options every command shares (reference section 14): one argparse parent parser, also used by the
IPython magics and the tool commands; run's defaults, the dialect options and the choice of dialect for a
file, and the usage error every command raises.  Here, and nowhere below the command line, the parsed options
become the driver's one record, :class:`~tinyc.driver.options.MachineOptions` (:func:`options_of`,
:func:`session_of`), and a boot that fails becomes an exit status (:func:`boot`)."""

from __future__ import annotations

import sys

from ..machine.shipped import ProgramFileError
from ..machine.memory import DEFAULT_MEMORY, MEMORY_16
from ..driver.dialect import DEFAULT
from ..driver.options import DEFAULT_MAX_DEPTH, DEFAULTS
from ..driver.options import MachineOptions
from ..driver.session import MIN_MEMORY, MIN_MEMORY_16, Session, memory_problem
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet
    from pathlib import Path
    import argparse  # imported where a parser is built: `tinyc run FILE` needs none (cli.main.quick_args)

    from ..driver.dialect import Dialect
    from ..driver.interpreter import Machine
    from ..driver.workspace import Workspace
    from ..engines.options import Optimisations
    from ..machine.console import Console
    from ..machine.sandbox import FileSandbox, Policy

MAX_MEMORY = 1 << 30       # 1 GiB: more than any tiny-c program has used, and Python must allocate it
MAX_DEPTH = 100_000        # active calls; each costs Python stack, so the limit keeps a run in bounds


# The machine options' values when not given: argparse's defaults and cli.main.quick_args's namespace
# (memory None: not given; settle_memory below gives it its size, which depends on --int-bits)
MACHINE_DEFAULTS: dict[str, object] = {
    **{k: v for k, v in DEFAULTS.as_dict().items() if k in ("int_bits", "memory", "strip_cr", "echo", "engine",
                                                             "random_divisor", "max_depth")},
    "allow_read": [], "allow_write": [], "allow_files": [], "allow_write_code": False,
    "allow_files_anywhere": False, "allow_system": False, "allow_plugins": False}


def _bounded(low: int | None, high: int, what: str):
    """An argparse type: a whole number up to ``high`` and from ``low`` (None: any lower bound is the
    caller's, who knows the other options it depends on: ``--memory``'s on ``--int-bits``)."""
    def parse(text: str) -> int:
        import argparse
        try:
            value = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if low is None and value > high:
            raise argparse.ArgumentTypeError(f"{what} must be at most {high}, not {value}")
        if low is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}, not {value}")
        return value
    return parse


def default_engine() -> str:
    return str(MACHINE_DEFAULTS["engine"])


def common_options() -> argparse.ArgumentParser:
    """The options of reference section 14 that every command accepts (the ``parents=`` of each one)."""
    import argparse
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("machine options (every command)")
    _add_machine_options(g)
    return p


def _add_machine_options(g, present: AbstractSet[str] = frozenset(), engine: bool = True) -> None:
    def add(flag, **kw):
        if flag not in present:
            g.add_argument(flag, default=MACHINE_DEFAULTS[flag[2:].replace("-", "_")], **kw)
    add("--int-bits", type=int, choices=(16, 32),
        help="int width: 32 (Linux port, default) or 16 (DOS era)")
    add("--memory", type=_bounded(None, MAX_MEMORY, "--memory"), metavar="BYTES",
        help=f"size of the flat memory, {MIN_MEMORY}..{MAX_MEMORY} (default {DEFAULT_MEMORY}); with --int-bits 16 "
             f"{MIN_MEMORY_16}..{MEMORY_16} (default {MEMORY_16})")
    add("--strip-cr", action="store_true", help="drop CR bytes from the output")
    add("--echo", action="store_true", help="echo each input line read")
    if engine:
        add("--engine", choices=("reference", "fast"),
            help="execution engine (default: %(default)s; trace always uses reference)")
    add("--random-divisor", type=int, choices=(7, 8),
        help="divisor in the library's random: 8 (2015, default) or 7 (2017 library)")
    add("--max-depth", type=_bounded(1, MAX_DEPTH, "--max-depth"), metavar="N",
        help=f"active function calls before error 17, 1..{MAX_DEPTH} (default {DEFAULT_MAX_DEPTH})")
    # the opt-ins of the sandbox policy (tinyc.machine.sandbox.Policy), named the same on every command, in
    # the magics and (as %allow read PATH ...) in the kernel: docs/security.md
    add("--allow-read", action="append", metavar="PATH",
        help="let the program read files under PATH too (repeatable); by default it reads only in the current "
             "directory tree, its own directory and tinyc's shipped files")
    add("--allow-write", action="append", metavar="PATH",
        help="let the program read and write files under PATH too (repeatable); by default it writes only in "
             "the current directory tree")
    add("--allow-files", action="append", metavar="PATH", help="the older name of --allow-write")
    add("--allow-write-code", action="store_true",
        help="let the program create and overwrite Python code (*.py, *.pth, *.so ...) and files under .git/ "
             "where it may write (refused by default: Python or git would run them)")
    add("--allow-files-anywhere", action="store_true",
        help="let the program open any file you can (no file sandbox): only for programs you trust")
    add("--allow-system", action="store_true",
        help="gibson: let the library's system() run any shell command as you (off by default): "
             "the program can then do anything you can; only for programs you trust")
    add("--allow-plugins", action="store_true",
        help="gibson: let #loadMC NAME load NAME.py beside the program: Python code that runs "
             "with your rights (off by default; shipped and installed plug-ins need no switch)")


def machine_options(p: argparse.ArgumentParser, engine: bool = True) -> None:
    """Add the machine options to ``p``; options it already has (from the parent parser) are kept."""
    _add_machine_options(p, set(p._option_string_actions), engine)


def unrecognized(parser: argparse.ArgumentParser, command: str | None, extra: list[str]) -> str:
    """The usage message for arguments ``extra`` that ``parser`` (for ``command``) did not recognize,
    with the closest option of that command for a mistyped one (``--entyr``: did you mean --entry?)."""
    import difflib  # only for a mistake
    target = parser
    if command is not None:
        for action in parser._subparsers._group_actions if parser._subparsers else ():
            target = getattr(action, "choices", {}).get(command, target)
    options = [s for s in target._option_string_actions if s.startswith("--")]
    where = f"tinyc {command}" if command else "tinyc"
    words = []
    for arg in extra:
        close = difflib.get_close_matches(arg.split("=", 1)[0], options, n=1, cutoff=0.6) if arg.startswith("-") else []
        words.append(f"{arg!r} (did you mean {close[0]}?)" if close else repr(arg))
    return f"{command + ': ' if command else ''}unrecognized argument{'s' if len(extra) > 1 else ''} {', '.join(words)} " \
           f"(`{where} --help` lists the options)"


EPILOG = """\
With no command, tinyc starts the tc> shell; tinyc FILE.ipl boots a system file (as tinyc boot FILE).
Every command that runs a program takes the machine options (--int-bits, --memory, --engine,
--max-depth, --allow-files...): `tinyc run --help` describes them.
A FILE that is not in the current directory is looked up among the programs shipped with tinyc
(bc.tc, bca.tc, hello.tc, ...), so `tinyc run bc.tc --entry bullcow` plays Bulls and Cows anywhere;
`tinyc run --list` lists them.  Exit status: 0 ok, 1 tiny-c error, 2 usage, 130 interrupted."""

SECURITY = """\
What a program may do (docs/security.md):
  by default     it reads and writes files only in the current directory tree, and reads those in
                 its own directory and tinyc's shipped library and programs; every other file
                 (absolute paths, ../.., symbolic links out, devices such as /dev/zero, FIFOs) fails
                 as a missing file does.  It cannot run commands, load Python code beside it or touch
                 tinyc's cache (#loadMC loads only the shipped and installed plug-ins).
  --allow-read PATH        adds the tree PATH, to read; repeatable.
  --allow-write PATH       adds the tree PATH, to read and write (--allow-files PATH too); repeatable.
  --allow-write-code       lets it write *.py, *.pth, *.so ... and files under .git/ where it may write.
  --allow-files-anywhere   no file sandbox: it may read and write every file you can.
  --allow-system           (gibson) system() runs shell commands as you: it may do anything you can.
  --allow-plugins          (gibson) #loadMC NAME loads NAME.py beside the program: likewise."""


# The values of `run`'s own options when not given (argparse's defaults, and quick_args's namespace)
RUN_DEFAULTS = {"entry": "main", "list": False, "dialect": None, "quiet": False, "code": None,
                "debug": False,
                "opt_level": None, "opt_off": None, "opt_only": None}


def optimisation_options(p: argparse.ArgumentParser) -> None:
    """``-O0``, ``--no-NAME`` and ``--only-NAME``: the fast engine's optimisations (tinyc.engines.options)."""
    import argparse
    from ..engines.options import NAMES
    g = p.add_argument_group(
        "fast engine optimisations",
        "-O0 switches every optimisation off (the plain translation); --no-NAME switches NAME off, "
        "--only-NAME switches on only the NAMEs given (each repeatable; --engine reference ignores them)")
    g.add_argument("-O", dest="opt_level", type=int, choices=(0, 1), default=RUN_DEFAULTS["opt_level"],
                   metavar="LEVEL", help="0: no optimisation; 1: all of them (the default)")
    for name, what in NAMES.items():
        g.add_argument(f"--no-{name}", dest="opt_off", action="append_const", const=name,
                       default=RUN_DEFAULTS["opt_off"], help=what.replace("%", "%%"))  # (argparse formats help)
    for name in NAMES:
        g.add_argument(f"--only-{name}", dest="opt_only", action="append_const", const=name,
                       default=RUN_DEFAULTS["opt_only"], help=argparse.SUPPRESS)


def dialect_options(p: argparse.ArgumentParser) -> None:
    """The options of the Gibson dialect (issue 15, docs/dialects.md)."""
    dialect_argument(p, "the language: pc (tiny-c/PC, the default), gibson (Tom Gibson's tiny-C; chosen by "
                        "itself for a file that starts with #include) or an installed one",
                     RUN_DEFAULTS["dialect"])
    p.add_argument("-q", "--quiet", action="store_true", default=RUN_DEFAULTS["quiet"], help="gibson: no banner, no done at the end")
    p.add_argument("-r", dest="code", metavar="CODE", default=RUN_DEFAULTS["code"],
                   help="gibson: run the statement CODE instead of main()")


def dialect_argument(p: argparse.ArgumentParser, help: str, default: object = None) -> None:
    """``--dialect NAME``, NAME one of the dialects (:class:`tinyc.driver.dialect.Choices`: the installed ones
    are looked up only for a name not shipped, and listed only by ``--help`` and a usage error)."""
    from ..driver.dialect import Choices
    p.add_argument("--dialect", choices=Choices(), metavar="NAME", default=default,
                   help=help + " (the dialects: %(choices)s)")


class UsageError(ProgramFileError):
    """Bad command-line use: the message is printed after ``tinyc: `` and the exit status is 2."""


def announced_dialect(path: str | Path, head: bytes | None = None) -> str | None:
    """The name of the dialect the file ``path`` announces by its first bytes ``head`` (read when None;
    Gibson's: a ``#include``/``#loadMC`` header line, :func:`tinyc.driver.dialect.detect`), or None (none, or
    it cannot be read)."""
    if head is None:
        try:
            with open(path, "rb") as f:
                head = f.read(16)
        except (OSError, ValueError):
            return None
    from ..driver.dialect import detect
    found = detect(head[:16])
    return found.name if found is not None else None


def has_header_line(path: str | Path) -> bool:
    """Whether the file ``path`` announces a dialect other than the default (a Gibson-dialect program);
    False when it cannot be read."""
    return announced_dialect(path) is not None


def chosen_dialect(args: argparse.Namespace, path: str | Path, doing: str = "running it",
                   head: bytes | None = None) -> str:
    """The dialect to run ``path`` in: --dialect, else the one the file announces by its first bytes ``head``
    (read when None), with a note on stderr, else the default dialect."""
    if getattr(args, "dialect", None):
        return args.dialect
    found = announced_dialect(path, head)
    if found is not None:
        print(f"tinyc: {path} starts with a #include/#loadMC header line: {doing} in the {found.capitalize()} "
              f"dialect (--dialect {found}; --dialect {DEFAULT} to override)", file=sys.stderr)
        return found
    return DEFAULT


# ---- the parsed options as the driver takes them

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


def file_sandbox(args: argparse.Namespace, programs: list[str] | None = None) -> FileSandbox:
    """The file sandbox the options in ``args`` ask for (``--allow-read PATH``, ``--allow-write PATH`` or
    ``--allow-files PATH``, ``--allow-write-code``, ``--allow-files-anywhere``, :mod:`tinyc.machine.sandbox`),
    with the directories of the program files ``programs`` (by default ``args.files`` or ``args.file``: those
    the command runs; ``-`` has none)."""
    import os
    from ..machine.sandbox import FileSandbox
    from ..machine.shipped import program_path
    if programs is None:
        programs = list(getattr(args, "files", None) or []) + [f for f in [getattr(args, "file", None)] if f]
    return FileSandbox([*(getattr(args, "allow_write", None) or ()), *(getattr(args, "allow_files", None) or ())],
                       getattr(args, "allow_files_anywhere", False),
                       [os.path.dirname(os.path.abspath(program_path(p))) for p in programs
                        if isinstance(p, str) and p != "-"],
                       readable=getattr(args, "allow_read", None) or (),
                       code_writes=getattr(args, "allow_write_code", False))


def policy(args: argparse.Namespace, programs: list[str] | None = None) -> Policy:
    """The sandbox policy the ``--allow-*`` options in ``args`` ask for: :func:`file_sandbox`, with
    ``--allow-system`` and ``--allow-plugins`` (:class:`tinyc.machine.sandbox.Policy`)."""
    from ..machine.sandbox import Policy
    return Policy(file_sandbox(args, programs), getattr(args, "allow_system", False),
                  getattr(args, "allow_plugins", False))


def optimisations(args: argparse.Namespace) -> Optimisations | None:
    """The fast engine's optimisations that ``-O``, ``--no-NAME`` and ``--only-NAME`` in ``args`` choose;
    None when none was given (the options module is then not imported)."""
    if getattr(args, "opt_level", None) is None and not getattr(args, "opt_off", None) \
            and not getattr(args, "opt_only", None):
        return None
    from ..engines.options import from_args
    return from_args(args)


def options_of(args: argparse.Namespace, programs: list[str] | None = None) -> MachineOptions:
    """The machine options the command-line options ``args`` ask for (``--memory``, ``--int-bits``,
    ``--engine``, ``--max-depth``, ``--random-divisor``, ``--strip-cr``, ``--echo``, ``-q``, the optimisations,
    the sandbox of :func:`policy` over ``programs``); an option ``args`` lacks keeps its default."""
    return MachineOptions.from_values(args, policy(args, programs), optimisations(args))


def session_of(args: argparse.Namespace, console: Console | None = None, dialect: str | Dialect | None = None,
               programs: list[str] | None = None) -> Session:
    """The session the command-line options ``args`` ask for: :func:`options_of`, in ``dialect`` (default
    ``args.dialect``, else pc) on ``console`` (default: stdin/stdout with ``--strip-cr`` and ``--echo``)."""
    from ..driver.dialect import DEFAULT
    return Session.from_options(options_of(args, programs), dialect or getattr(args, "dialect", None) or DEFAULT,
                                console)


def boot(args: argparse.Namespace, console: Console | None = None) -> tuple[Machine, Workspace]:
    """The commands' start: :func:`session_of` ``args``, booted (:meth:`~tinyc.driver.session.Session.start`):
    ``(machine, workspace)``.  Raises SystemExit(2) after saying why for a memory that cannot be,
    SystemExit(1) after the report of an error in the system file itself."""
    if not memory_ok(args):
        raise SystemExit(2)
    session = session_of(args, console)
    outcome = session.start()
    if outcome.failed:
        raise SystemExit(outcome.render())
    assert session.current is not None and session.workspace is not None
    return session.current, session.workspace


def boot_with_files(args: argparse.Namespace, console: Console | None = None) -> tuple[Machine, Workspace]:
    """:func:`boot`, then the program files ``args.files`` read into the program buffer in order, as ``tinyc
    run`` reads them (every file read before the library boots).  Raises ProgramFileError for a file that
    cannot be read or does not fit."""
    from ..machine.shipped import DoesNotFit, program_capacity, read_source
    capacity = program_capacity(getattr(args, "int_bits", 32))
    texts = [read_source(f, capacity) for f in args.files]
    m, ws = boot(args, console)
    for name, text in zip(args.files, texts):
        if not ws.append(text, name):
            raise DoesNotFit(f"{name}: does not fit the program buffer ({ws.free} bytes free)")
    return m, ws
