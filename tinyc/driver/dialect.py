"""Dialects: what one dialect of tiny-c brings, and how the Session finds one by its name.

A dialect is a subclass of :class:`Dialect` whose methods are its hooks (the ``run`` of ``tinyc run``, the
stage views and tools, the debugger's runner, the machine calls and engines its machines are built with, its
language server front end...) and whose class attributes say the rest (its library, how many characters of a
name count, whether a notebook cell is a whole program).  Each hook imports its module inside the method,
when it is called: importing a dialect package stays cheap (every ``tinyc run`` imports the shipped ones, so
that :func:`detect` may ask each whether a file is its own), and mypy and import-linter still see every
hook's import.

The core (syntax, link, machine, engines, driver and the doors) never imports a dialect package (an
import-linter contract) and never tests a dialect's name (``tests/project/test_dialect_neutral.py``):
:func:`find` loads one by its name -- a package ``tinyc.dialects.NAME`` shipped with tinyc, or a
distribution's entry point in the group ``tinyc.dialects`` -- so a third dialect is one new package.
``docs/dialects.md`` says how to add one and compares the two shipped.
"""

from __future__ import annotations

import os
import sys

from ..errors import Problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
    import re
    from types import ModuleType
    from typing import Any, Iterator, Mapping, Protocol

    from ..machine.machine_calls import MachineCalls
    from ..machine.port import EngineFactory
    from .outcome import Outcome
    from .options import MachineOptions

    Session = Any  # a tinyc.driver.session.Session: that module imports this one, so it is not named here

    class Lexis(Protocol):
        """What ``tinyc fmt`` reads of a dialect's lexical rules (:class:`tinyc.views.format.Lexis`)."""

        @property
        def hiding(self) -> re.Pattern[str]: ...
        @property
        def open_strings(self) -> bool: ...
        @property
        def headers(self) -> bool: ...
        @property
        def starts(self) -> str: ...

DEFAULT = "pc"  # the dialect of a file that announces none; the only place tinyc's core names a dialect
PACKAGE = "tinyc.dialects"
GROUP = "tinyc.dialects"  # the entry-point group of the dialects other distributions install
TOOLS = ("tokens", "parse", "ast", "link", "check", "compile", "trace")  # the commands each dialect answers
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tinyc package's folder


class UnknownDialect(Problem, ValueError):
    """A dialect name that no shipped package and no installed entry point provides."""


class CannotStart(Problem):
    """A dialect's program that cannot start (a missing include, a plug-in not found): ``message`` to print
    (on stdout with ``stdout``, else stderr) and the exit ``status``, as that dialect's interpreter ends."""

    def __init__(self, message: str, status: int, stdout: bool = False):
        super().__init__(message)
        self.message, self.status, self.stdout = message, status, stdout


class Dialect:
    """One dialect of tiny-c: subclass it, set the class attributes, implement the hooks (each imports what
    it needs when called), and make one instance ``DIALECT`` in the dialect's package.

    Class attributes:

    * ``name``, ``title``: ``--dialect NAME``, and a line that says what it is;
    * ``significance``: characters of a name that count (the first ``significance - 1`` plus the last);
    * ``library``: the library file, relative to ``root``; ``search_paths``: folders relative to ``root`` that
      the programs' ``#include`` lines find files in (the file sandbox lets programs read them);
    * ``root``: the folder those are relative to (default: the tinyc package's);
    * ``engines``: the engine names :meth:`engine` knows;
    * ``whole_program``: a notebook cell is part of one program text run as a file (with ``-r`` code), not
      definitions put in the ``tc>`` shell's program buffer; ``program_start``: that text's first lines;
    * ``tools``: the stage commands it answers (:meth:`tool`); ``commands``: commands of its own that
      ``tinyc`` offers (name -> one line of help; :meth:`command`).

    The hooks that raise NotImplementedError here are the ones a dialect must provide."""

    name: str = ""
    title: str = ""
    significance: int = 8
    library: str = ""
    search_paths: tuple[str, ...] = ()
    root: str = ROOT
    engines: tuple[str, ...] = ("reference", "fast")
    whole_program: bool = False
    program_start: bytes = b""
    tools: tuple[str, ...] = TOOLS
    commands: Mapping[str, str] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # ---- what the core reads

    def detect(self, head: bytes) -> bool:
        """Whether a file starting with the bytes ``head`` (its first 16) announces this dialect; by default
        none does (the default dialect claims no file by itself)."""
        return False

    def canonical(self, name: str) -> str:
        """The significant form of a name: a long name keeps its first characters plus its last."""
        n = self.significance
        return name if len(name) <= n else name[:n - 1] + name[-1]

    def package_path(self, relative: str) -> str:
        """The absolute path of ``relative`` (a library or a search path) under :attr:`root`."""
        return os.path.join(self.root, relative)

    def int_size(self, int_bits: int) -> int:
        """Bytes of an int in this dialect's memory, the machine's ints ``int_bits`` wide (the stepper's
        memory view)."""
        return int_bits // 8

    def read_program(self, path: str, int_bits: int) -> bytes:
        """The program file ``path`` (a shipped program's path already found) as the dialect's run reads it:
        by default at most the program buffer's capacity with ``int_bits`` ints.  Raises ProgramFileError."""
        from ..machine.shipped import program_capacity, read_source
        return read_source(path, program_capacity(int_bits))

    def machine_calls(self) -> MachineCalls:
        """Its machine calls (:class:`~tinyc.machine.machine_calls.MachineCalls`)."""
        raise NotImplementedError(f"the {self.name} dialect has no machine calls")

    def engine(self, name: str) -> EngineFactory:
        """The factory ``factory(machine, options=None) -> engine`` of the engine ``name`` ("reference":
        :meth:`reference_engine`, "fast": :meth:`fast_engine`).  Raises ValueError for a name it lacks."""
        if name not in self.engines:
            raise ValueError(f"the {self.name} dialect has no engine {name!r} ({', '.join(self.engines)})")
        return self.fast_engine() if name == "fast" else self.reference_engine()

    def reference_engine(self) -> EngineFactory:
        """The factory of its reference evaluator (the PC one: :class:`~tinyc.engines.evaluator.Evaluator`)."""
        from ..engines.evaluator import Evaluator
        return Evaluator

    def fast_engine(self) -> EngineFactory:
        """The factory of its fast engine, ``factory(machine, options=None)``."""
        raise NotImplementedError(f"the {self.name} dialect has no fast engine")

    # ---- the doors' hooks

    def run(self, session: Session, files: list[str], entry: str | None, code: str | None) -> Outcome:
        """``tinyc run FILES --entry ENTRY`` (``code``: a statement to run instead, Gibson's ``-r``): how the run
        ended.  The output has gone to the session's console, flushed."""
        raise NotImplementedError(f"the {self.name} dialect cannot run a program")

    def shell(self, session: Session, args: Any) -> int:
        """``tinyc`` with no command: its interactive shell; the exit status.  ``args`` is the command line's
        parsed options (an ``argparse.Namespace``: only the command line calls this hook)."""
        raise NotImplementedError(f"the {self.name} dialect has no shell")

    def view(self, session: Session, name: str, path: str) -> str:
        """One stage view (``tokens``, ``parse``, ``ast``, ``link``) of the program file ``path``, or the
        report of the stage that rejects it (the notebook's magics, the kernel)."""
        raise NotImplementedError(f"the {self.name} dialect has no stage views")

    def trace(self, session: Session, path: str, entry: str, stdin: bytes, calls: bool, limit: int) -> str:
        """The transcript of ``path`` run traced from ``entry`` (:meth:`tinyc.driver.session.Session.trace`)."""
        raise NotImplementedError(f"the {self.name} dialect has no tracer")

    def debugger(self, session: Session, files: list[str], entry: str | None, code: str | None) -> Any:
        """The program as :mod:`tinyc.debug.debugger` runs it: a runner (a type of the debug layer, which the
        driver cannot name; :class:`tinyc.debug.runs.PcRunner` is one)."""
        raise NotImplementedError(f"the {self.name} dialect has no debugger")

    def record(self, session: Session, program: str | bytes, entry: str | None, stdin: bytes, limit: int | None,
               small: bool, **options: Any) -> Any:
        """The stepper's recorded run: a :class:`tinyc.debug.steptrace.Trace` (docs/stepper.md)."""
        raise NotImplementedError(f"the {self.name} dialect has no stepper")

    def lexis(self) -> Lexis:
        """Its lexical rules for ``tinyc fmt`` (a :class:`tinyc.views.format.Lexis`)."""
        raise NotImplementedError(f"the {self.name} dialect has no formatter rules")

    def lsp_front(self, options: MachineOptions) -> Any:
        """Its language server front end: an object with ``analyse(data: bytes, path: str | None) ->
        Analysis`` (:mod:`tinyc.lsp.analysis`) for machines of ``options``, made once per server."""
        raise NotImplementedError(f"the {self.name} dialect has no language server front end")

    def tool(self, command: str) -> ModuleType:
        """The module of the stage command ``command`` (one of :attr:`tools`): ``command(args) -> status``,
        ``add_arguments(parser, name)``.  KeyError for a command it lacks."""
        raise KeyError(command)

    def command(self, name: str) -> ModuleType:
        """The module of its own command ``name`` (one of :attr:`commands`), as :meth:`tool`'s."""
        raise KeyError(name)


_FOUND: dict[str, Dialect] = {}


def _shipped() -> list[str]:
    """The dialect packages shipped under ``tinyc/dialects`` (the default first)."""
    root = os.path.join(ROOT, "dialects")
    try:
        found = [n for n in os.listdir(root) if os.path.isfile(os.path.join(root, n, "__init__.py"))]
    except OSError:
        found = []
    return sorted(found, key=lambda n: (n != DEFAULT, n))


def _entry_points() -> dict[str, Any]:
    """The installed distributions' dialects: entry point name -> entry point (group :data:`GROUP`)."""
    from importlib.metadata import entry_points
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def names() -> list[str]:
    """Every dialect: the shipped ones (the default first), then those installed through entry points."""
    shipped = _shipped()
    return shipped + sorted(n for n in _entry_points() if n not in shipped)


def find(name: str) -> Dialect:
    """The dialect called ``name``: ``tinyc.dialects.NAME.DIALECT`` when shipped, else the object an entry
    point ``NAME`` of the group ``tinyc.dialects`` names (a Dialect, or a subclass to instantiate).  The entry
    points are read only for a name not shipped.  Raises UnknownDialect."""
    found = _FOUND.get(name)
    if found is not None:
        return found
    dialect: object
    if name.isidentifier() and name in _shipped():
        __import__(f"{PACKAGE}.{name}")  # importlib's package costs a start ~1 ms
        dialect = sys.modules[f"{PACKAGE}.{name}"].DIALECT
    else:
        point = _entry_points().get(name)
        if point is None:
            raise UnknownDialect(f"unknown dialect {name!r} (the dialects: {', '.join(names())})")
        dialect = _loaded(name, point)
    if not isinstance(dialect, Dialect) or dialect.name != name:
        raise UnknownDialect(f"the dialect {name!r} is not a tinyc.driver.dialect.Dialect called {name!r}")
    _FOUND[name] = dialect
    return dialect


def _loaded(name: str, point: Any) -> object:
    """The object the entry point ``point`` names; a class is instantiated.  UnknownDialect when it cannot
    be imported."""
    try:
        found = point.load()
    except (ImportError, AttributeError) as e:
        raise UnknownDialect(f"the dialect {name!r} cannot be loaded ({point.value}: {e})") from None
    return found() if isinstance(found, type) and issubclass(found, Dialect) else found


def detect(head: bytes) -> Dialect | None:
    """The shipped dialect a file starting with ``head`` announces (its first 16 bytes are enough), or None."""
    for name in _shipped():
        if name != DEFAULT and find(name).detect(head):
            return find(name)
    return None


class Choices:
    """The dialect names as argparse's ``choices``: ``in`` finds a name as :func:`find` does (the entry
    points read only for a name not shipped), iterating lists them all (``--help``, completion)."""

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in _shipped() or name in _entry_points())

    def __iter__(self) -> Iterator[str]:
        return iter(names())

    def __len__(self) -> int:
        return len(names())
