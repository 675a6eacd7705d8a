"""The Session, the one way in: a dialect, an engine and the machine options; it builds the machine (the only
place one is built), boots it, loads programs, runs them, and hands out the stage views and the trace.

``tinyc run``, the shell, every view and tool, the notebook magics, the debugger and the tests start here.
The options of every way of running tiny-c (reference sections 4, 9 and 14) are applied here too:
:func:`settle_memory` and :func:`file_sandbox` read an argparse namespace for the commands.
"""

from __future__ import annotations

import os
import sys

from ..machine.console import Console
from ..machine.memory import DEFAULT_MEMORY, MEMORY_16
from .dialect import DEFAULT as DEFAULT_DIALECT, Dialect, find as find_dialect
from .options import DEFAULT_INT_BITS, DEFAULT_MAX_DEPTH, DEFAULT_RANDOM_DIVISOR, MachineOptions
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    import argparse  # the annotations only: `tinyc run FILE` parses its arguments without argparse
    from types import ModuleType
    from typing import Any, Callable

    from ..engines.options import Optimisations
    from .outcome import Interrupt, Outcome
    from ..machine.port import EngineFactory
    from ..machine.sandbox import FileSandbox, Policy
    from .interpreter import Machine
    from .workspace import Workspace

MIN_MEMORY = 200_000  # the system file, the shell's ln and pr(90000) buffers and room for a program
MIN_MEMORY_16 = 32_768  # the same with 16-bit ints: the system file, ln, pr(12000) and room for a program


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
    """The file sandbox the options in ``args`` ask for (``--allow-read PATH``, ``--allow-write PATH`` or
    ``--allow-files PATH``, ``--allow-write-code``, ``--allow-files-anywhere``, :mod:`tinyc.machine.sandbox`),
    with the directories of the program files ``programs`` (by default ``args.files`` or ``args.file``: those
    the command runs; ``-`` has none)."""
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


class Session:
    """One dialect, one engine, one set of machine options; :meth:`machine` builds every machine.

    ``dialect`` is a :class:`~tinyc.driver.dialect.Dialect` or its name (``pc``, ``gibson``: found with
    :func:`tinyc.driver.dialect.find`); ``engine`` "reference" or "fast"; ``memory`` bytes (None: 1 MiB, or
    65536 with 16-bit ints); ``int_bits`` 32 or 16; ``max_depth`` active calls before error 17/26;
    ``random_divisor`` 8 or 7 (the library's random, section 14 item 3); ``console`` the program's byte
    streams (default: stdin/stdout); ``files`` the file sandbox (default: the current directory tree);
    ``allow_system`` and ``allow_plugins`` the Gibson dialect's ``system()`` and ``#loadMC NAME.py``; or, in
    place of those three, ``policy`` (:class:`~tinyc.machine.sandbox.Policy`: one for every door); ``quiet`` no
    banner (Gibson's ``-q``); ``interrupt`` the :class:`~tinyc.driver.outcome.Interrupt` policy its runs answer
    (default: the process's, :data:`~tinyc.driver.outcome.INTERRUPT`).  Raises UnknownDialect for a dialect
    with no package.  (The commands
    check ``--memory`` against the int width first: :func:`memory_problem`; a Session takes any size.)

    The PC way of running: :meth:`boot` (the library, an empty program buffer), :meth:`load_file` /
    :meth:`load_text`, :meth:`run` (a statement against the buffer, as MC 11 runs it).  Every dialect:
    :meth:`run_files` (``tinyc run``), :meth:`view` and :meth:`trace` (a file's stage views and transcript),
    :meth:`tool` (the modules of the commands: the stage views, check, compile, trace).
    """

    def __init__(self, dialect: str | Dialect = DEFAULT_DIALECT, engine: str = "reference", *,
                 memory: int | None = None, int_bits: int = DEFAULT_INT_BITS, max_depth: int = DEFAULT_MAX_DEPTH,
                 random_divisor: int = DEFAULT_RANDOM_DIVISOR,
                 console: Console | None = None, files: FileSandbox | None = None, allow_system: bool = False,
                 allow_plugins: bool = False, quiet: bool = False, optimisations: Optimisations | None = None,
                 policy: Policy | None = None, interrupt: Interrupt | None = None):
        self.dialect = find_dialect(dialect) if isinstance(dialect, str) else dialect
        self.memory = memory if memory is not None else MEMORY_16 if int_bits == 16 else DEFAULT_MEMORY
        self.engine, self.int_bits, self.max_depth = engine, int_bits, max_depth
        self.random_divisor = random_divisor
        self.console = console if console is not None else Console()
        if policy is None:
            from ..machine.sandbox import Policy
            policy = Policy(files, allow_system, allow_plugins)
        self.policy = policy  # one object: a kernel's %allow changes the sandbox of the machines already made
        files = policy.files
        for folder in self.dialect.search_paths:  # the dialect's library folders: its programs include from them
            files.add_readable(self.dialect.package_path(folder))
        self.files = files
        self.quiet = quiet
        self.optimisations = optimisations  # the fast engine's (engines/options.py; None: its default, all)
        if interrupt is None:
            from .outcome import INTERRUPT as interrupt
        self.interrupt = interrupt  # the interrupt policy its runs note Ctrl-C, pause and Stop with
        self.current: Machine | None = None       # the machine :meth:`boot` made
        self.workspace: Workspace | None = None   # and its program buffer

    @classmethod
    def from_options(cls, options: MachineOptions, dialect: str | Dialect = DEFAULT_DIALECT,
                     console: Console | None = None, interrupt: Interrupt | None = None) -> Session:
        """The session of ``dialect`` with the machine ``options`` (:class:`~tinyc.driver.options.MachineOptions`,
        the one record every door builds); ``console`` by default a console on stdin/stdout with the options'
        ``strip_cr`` and ``echo``."""
        o = options
        if console is None:
            console = Console(strip_cr=o.strip_cr, echo=o.echo)
        return cls(dialect, o.engine, memory=o.memory, int_bits=o.int_bits, max_depth=o.max_depth,
                   random_divisor=o.random_divisor, console=console, policy=o.policy, quiet=o.quiet,
                   optimisations=o.optimisations, interrupt=interrupt)

    @classmethod
    def from_args(cls, args: argparse.Namespace, console: Console | None = None,
                  dialect: str | Dialect | None = None, programs: list[str] | None = None) -> Session:
        """The session the command-line options ``args`` ask for (``--memory``, ``--int-bits``, ``--engine``,
        ``--max-depth``, ``--random-divisor``, ``--strip-cr``, ``--echo``, the sandbox of :func:`file_sandbox`
        over ``programs``, ``--dialect``...): :meth:`from_options` of their MachineOptions; ``dialect``
        overrides ``args.dialect``."""
        options = MachineOptions.from_values(args, policy(args, programs), _optimisations(args))
        return cls.from_options(options, dialect or getattr(args, "dialect", None) or DEFAULT_DIALECT, console)

    @property
    def allow_system(self) -> bool:
        """Gibson's ``system()`` runs commands (the policy's ``--allow-system``)."""
        return self.policy.system

    @property
    def allow_plugins(self) -> bool:
        """``#loadMC NAME`` loads ``NAME.py`` beside the program (the policy's ``--allow-plugins``)."""
        return self.policy.plugins

    # ---- machines

    def machine(self, engine: EngineFactory | None = None, memory: int | None = None,
                console: Console | None = None, state: object = None, int_bits: int | None = None) -> Machine:
        """A new machine of this session's dialect (its machine calls), options and sandbox; ``engine`` a factory
        ``factory(machine) -> engine`` (default: the dialect's engine of the session's name), ``memory``,
        ``console`` and ``int_bits`` other than the session's, ``state`` the dialect's per-machine state of its
        calls.  The only place a :class:`~tinyc.driver.interpreter.Machine` is built."""
        from .interpreter import Machine
        d = self.dialect
        return Machine(self.memory if memory is None else memory, self.int_bits if int_bits is None else int_bits,
                       self.console if console is None else console,
                       engine if engine is not None else self.engine_factory(), self.max_depth,
                       self.random_divisor, d.machine_calls(), self.files, state)

    def engine_factory(self) -> EngineFactory:
        """The factory of the session's engine in its dialect; the fast engine's is given the session's
        :attr:`optimisations` (``tinyc run -O0``, ``--no-NAME``) when it has any."""
        factory: Callable[..., Any] = self.dialect.engine(self.engine)
        options = self.optimisations
        if options is None or self.engine != "fast":
            return factory
        return lambda machine: factory(machine, options=options)

    # ---- the PC way: a booted library, the shell's program buffer, statements run against it

    def boot(self, system: bytes | None = None, engine: EngineFactory | None = None,
             console: Console | None = None) -> tuple[Machine, Workspace]:
        """A new machine with the library booted (``system``: a system file's text, default the dialect's
        library) and an empty program buffer: ``(machine, workspace)``, kept as :attr:`current` and
        :attr:`workspace`; ``engine`` and ``console`` as :meth:`machine` takes them.  Raises TinyCError for an
        error in the system file."""
        from .workspace import Workspace
        m = self.machine(engine, console=console)
        if system is None:
            with open(self.dialect.package_path(self.dialect.library), "rb") as f:
                system = f.read()
        m.boot_library(system)
        self.current, self.workspace = m, Workspace(m)
        return m, self.workspace

    def _booted(self) -> Workspace:
        if self.workspace is None:
            self.boot()
        assert self.workspace is not None
        return self.workspace

    def load_text(self, text: bytes, name: str | None = None) -> None:
        """Append ``text`` (a program's bytes; ``name`` the file it came from) to the program buffer, booting
        first if needed.  Raises DoesNotFit when it does not fit."""
        from ..machine.shipped import DoesNotFit
        ws = self._booted()
        if not ws.append(text, name):
            raise DoesNotFit(f"{name or 'the program'}: does not fit the program buffer ({ws.free} bytes free)")

    def load_file(self, path: str) -> None:
        """Read the program file ``path`` (a shipped program by its name too; ``-`` is stdin) into the buffer.
        Raises ProgramFileError for a file that cannot be read or does not fit."""
        from ..machine.shipped import program_capacity, read_source
        self.load_text(read_source(path, program_capacity(self.int_bits)), path)

    def run(self, entry: str = "main") -> tuple[int, int]:
        """Run the statement ``entry`` against the program buffer (MC 11): ``(error number, cursor)``, the cursor
        an offset in the buffer; ``(0, 0)`` when it ran to its end; the output flushed after.  ExitProgram
        propagates."""
        ws = self._booted()
        try:
            return ws.run(os.fsencode(entry))
        finally:
            ws.machine.console.flush()

    # ---- every dialect

    def execute(self, files: list[str], entry: str | None = None, code: str | None = None) -> Outcome:
        """``tinyc run FILES --entry ENTRY`` in this session's dialect (its ``run`` hook; ``code``: Gibson's ``-r
        CODE``): how it ended, an :class:`~tinyc.driver.outcome.Outcome` for the door to render.  The program's
        output has gone to the session's console, flushed.  Raises ProgramFileError for a file that cannot be
        read or does not fit."""
        return self.dialect.run(self, files, entry, code)

    def run_files(self, files: list[str], entry: str | None = None, code: str | None = None) -> int:
        """:meth:`execute`, its Outcome rendered (the report on stderr): the exit status."""
        return self.execute(files, entry, code).render()

    def view(self, name: str, path: str) -> str:
        """The stage view ``name`` (``tokens``, ``parse``, ``ast``, ``link``) of the program file ``path`` in this
        session's dialect (its ``view`` hook), or the report of the stage that rejects the program."""
        return self.dialect.view(self, name, path)

    def trace(self, path: str, entry: str = "main", stdin: bytes = b"", calls: bool = False, limit: int = 1000) -> str:
        """The transcript of the program file ``path`` run traced from ``entry`` in this session's dialect (its
        ``trace`` hook): the program's output and one line per statement, then the report of an error."""
        return self.dialect.trace(self, path, entry, stdin, calls, limit)

    def record(self, program: str | bytes, entry: str | None = None, stdin: bytes = b"", limit: int | None = None,
               small: bool = True, **options):
        """The recorded run of ``program`` (a file's path, or its text as bytes) from ``entry`` (None: main) with
        ``stdin`` as input, on this session's dialect's reference evaluator (its ``record`` hook): a
        :class:`~tinyc.debug.steptrace.Trace` (the JSON of docs/stepper.md) of at most ``limit`` steps (None: the
        default, 2,000,000); ``small`` False keeps statement steps only; ``options``: the hook's
        (``snapshots``, :func:`tinyc.debug.stepper.record`)."""
        return self.dialect.record(self, program, entry, stdin, limit, small, **options)

    def debugger(self, files: list[str], entry: str | None = None, code: str | None = None) -> Any:
        """The program files ``files`` as :mod:`tinyc.debug.debugger` runs them from ``entry`` (``code``: a
        statement instead): the dialect's runner (its ``debugger`` hook).  Raises CannotStart for a program
        that cannot start, ProgramFileError for a file that cannot be read."""
        return self.dialect.debugger(self, files, entry, code)

    def tool(self, command: str) -> ModuleType:
        """The module of the dialect's ``command`` (``tokens``, ``parse``, ``ast``, ``link``, ``check``,
        ``compile``, ``trace``): ``module.command(args) -> status``.  KeyError for a command it lacks."""
        return self.dialect.tool(command)


def _optimisations(args: argparse.Namespace) -> Optimisations | None:
    """The fast engine's optimisations that ``-O``, ``--no-NAME`` and ``--only-NAME`` in ``args`` choose;
    None when none was given (the options module is then not imported)."""
    if getattr(args, "opt_level", None) is None and not getattr(args, "opt_off", None) \
            and not getattr(args, "opt_only", None):
        return None
    from ..engines.options import from_args
    return from_args(args)


def boot(args: argparse.Namespace, console: Console | None = None) -> tuple[Machine, Workspace]:
    """The commands' start: a :class:`Session` of the options ``args``, booted: ``(machine, workspace)``.
    Raises SystemExit(2) after saying why for a memory that cannot be, SystemExit(1) with the report for an
    error in the system file itself."""
    from ..errors import TinyCError, error_report
    if not memory_ok(args):
        raise SystemExit(2)
    session = Session.from_args(args, console)
    try:
        return session.boot()
    except TinyCError as e:
        with open(session.dialect.package_path(session.dialect.library), "rb") as f:
            text = f.read()
        sys.stderr.write("tinyc: error in the system file\n" + error_report(e.code, b"\n" + text, e.address + 1))
        raise SystemExit(1)


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
