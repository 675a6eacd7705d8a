"""The Session, the one way in: a dialect, an engine and the machine options; it builds the machine (the only
place one is built), boots it, loads programs, runs them, and hands out the stage views and the trace.

``tinyc run``, the shell, every view and tool, the notebook magics, the debugger and the tests start here.
It takes the machine options as one record (:class:`~tinyc.driver.options.MachineOptions`, reference sections
4, 9 and 14); reading them from the command line is :mod:`tinyc.cli.options`'s work, and nothing here raises
SystemExit: a boot that fails is an :class:`~tinyc.driver.outcome.Outcome` (:meth:`Session.start`).
"""

from __future__ import annotations

import os

from ..machine.console import Console
from ..machine.memory import DEFAULT_MEMORY, MEMORY_16
from .dialect import DEFAULT as DEFAULT_DIALECT, Dialect, find as find_dialect
from .options import DEFAULT_ENGINE, DEFAULT_INT_BITS, DEFAULT_MAX_DEPTH, DEFAULT_RANDOM_DIVISOR, MachineOptions
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Callable

    from ..engines.caches import EngineCaches
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


class Session:
    """One dialect, one engine, one set of machine options; :meth:`machine` builds every machine.

    ``dialect`` is a :class:`~tinyc.driver.dialect.Dialect` or its name (``pc``, ``gibson``: found with
    :func:`tinyc.driver.dialect.find`); ``engine`` "fast" or "reference" (default :data:`~tinyc.driver.options.DEFAULT_ENGINE`); ``memory`` bytes (None: 1 MiB, or
    65536 with 16-bit ints); ``int_bits`` 32 or 16; ``max_depth`` active calls before error 17/26;
    ``random_divisor`` 8 or 7 (the library's random, section 14 item 3); ``console`` the program's byte
    streams (default: stdin/stdout); ``files`` the file sandbox (default: the current directory tree);
    ``allow_system`` and ``allow_plugins`` the Gibson dialect's ``system()`` and ``#loadMC NAME.py``; or, in
    place of those three, ``policy`` (:class:`~tinyc.machine.sandbox.Policy`: one for every door); ``quiet`` no
    banner (Gibson's ``-q``); ``interrupt`` the :class:`~tinyc.driver.outcome.Interrupt` policy its runs answer
    (default: the process's, :data:`~tinyc.driver.outcome.INTERRUPT`); ``caches`` the fast engine's code,
    line maps and analyses (:class:`~tinyc.engines.caches.EngineCaches`, bounded; default: a new one, this
    session's alone).  Raises UnknownDialect for a dialect
    with no package.  (The commands
    check ``--memory`` against the int width first: :func:`memory_problem`; a Session takes any size.)

    The PC way of running: :meth:`boot` (the library, an empty program buffer), :meth:`load_file` /
    :meth:`load_text`, :meth:`run` (a statement against the buffer, as MC 11 runs it).  Every dialect:
    :meth:`run_files` (``tinyc run``), :meth:`view` and :meth:`trace` (a file's stage views and transcript),
    :meth:`tool` (the modules of the commands: the stage views, check, compile, trace).
    """

    def __init__(self, dialect: str | Dialect = DEFAULT_DIALECT, engine: str = DEFAULT_ENGINE, *,
                 memory: int | None = None, int_bits: int = DEFAULT_INT_BITS, max_depth: int = DEFAULT_MAX_DEPTH,
                 random_divisor: int = DEFAULT_RANDOM_DIVISOR,
                 console: Console | None = None, files: FileSandbox | None = None, allow_system: bool = False,
                 allow_plugins: bool = False, quiet: bool = False, optimisations: Optimisations | None = None,
                 policy: Policy | None = None, interrupt: Interrupt | None = None,
                 caches: EngineCaches | None = None):
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
        if caches is None:
            from ..engines.caches import EngineCaches
            caches = EngineCaches()
        self.caches = caches  # the fast engine's, bounded, shared by the machines this session builds
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
                       self.random_divisor, d.machine_calls(), self.files, state, self.caches)

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

    def start(self, console: Console | None = None) -> Outcome:
        """:meth:`boot` with the dialect's library, its end told as an Outcome (a door renders it): finished,
        the machine and buffer in :attr:`current` and :attr:`workspace`; or failed (status 1) with the report
        of an error in the system file itself, ``tinyc: error in the system file`` first."""
        from ..errors import TinyCError, error_report
        from .outcome import failed, finished
        try:
            self.boot(console=console)
        except TinyCError as e:
            with open(self.dialect.package_path(self.dialect.library), "rb") as f:
                text = f.read()
            return failed(e.code, "tinyc: error in the system file\n" + error_report(e.code, b"\n" + text,
                                                                                     e.address + 1), e.address)
        return finished()

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
               small: bool = True, **options: Any) -> Any:  # a Trace: tinyc.debug sits above the driver
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

