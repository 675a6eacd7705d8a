"""Running a program in the Gibson dialect: ``tinyc run --dialect gibson FILE`` (gibson-dialect.md 1.3).

The program memory is laid out as that interpreter lays it out: the seed statement (``[main();]``, or
``[CODE]`` and a line end with ``-r CODE``), the libraries (the ``#include`` header lines in order, or
the dialect's standard library), the 10 bytes ``endlibrary``, the application text, a NUL and 10 bytes
of slack; globals and call frames follow.  The text is linked by the dialect's front end
(:mod:`tinyc.dialects.gibson.syntax`), the seed runs, and the end is ``done`` or the dialect's error report,
both on stdout; the exit status is 0 either way.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from ... import ast
from ...machine.console import Console
from ...errors import TinyCError
from lark import Token

from . import syntax
from .syntax import TopItem, tokenize
from ...syntax import pipeline
from ...syntax.lexer import Level
from ...link.linker import link
from .calls import GibsonState, QuietExit, close_units
from .report import Layout, gibson_code, report
from .plugins import Plugin, PluginError
from .plugins import find as find_plugin
from ...machine.sandbox import DEFAULT as DEFAULT_SANDBOX, FileSandbox
from ...machine.shipped import ProgramFileError, program_path
from ...driver.dialect import find
from ...driver.dialect import CannotStart

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from ...driver.interpreter import Machine
    from ...driver.outcome import Outcome
    from ...driver.session import Session
    from ...machine.port import EngineFactory

BANNER = (b"***  TINY-C VERSION 1.0,  COPYRIGHT 1977, T A GIBSON  ***\n"
          b"        This C version copyright 2017, T A Gibson\n")
MARKER = b"endlibrary"
SLACK = 11  # the NUL after the application and 10 spare bytes
ERROR_STATUS = 0  # tc's exit status after a tiny-c error (gibson-dialect.md 1.8): every door of the dialect ends so


def library_dir() -> Path:
    """The dialect's library folder (its first search path: ``pps/library.tc`` is found there)."""
    dialect = find("gibson")  # this package's DIALECT (its hooks import this module)
    return Path(dialect.package_path(dialect.search_paths[0]))


class StartError(CannotStart):
    """The program cannot start: ``message`` (on stderr unless ``stdout``), exit ``status``."""


@dataclass
class Loaded:
    memory: bytes
    layout: Layout
    includes: list[str] = field(default_factory=list)
    plugin: str | None = None  # the last #loadMC name: only the last one counts, as in the original
    parts: list[tuple[str, int]] = field(default_factory=list)  # each library's name and length, in order


def header(app: bytes) -> tuple[list[str], list[str]]:
    """The ``#include`` and ``#loadMC`` names of the header lines (section 1.3).  The first line that is
    neither ends the header; a file that is nothing but header lines is StartError 252."""
    includes, plugins = [], []
    rest = app
    while True:
        if not rest:
            raise StartError("", 252)
        nl = rest.find(b"\n")
        line, rest = (rest, b"") if nl < 0 else (rest[:nl + 1], rest[nl + 1:])
        name = line[:-1] if line.endswith(b"\n") else line
        name = name[:-1] if name.endswith(b"\r") else name
        if line.startswith(b"#include "):
            includes.append(name[len(b"#include "):].decode("latin-1"))
        elif line.startswith(b"#loadMC "):
            plugins.append(name[len(b"#loadMC "):].decode("latin-1"))
        else:
            return includes, plugins


def resolve(name: str, app_dir: Path, files: FileSandbox = DEFAULT_SANDBOX) -> Path | None:
    """An include file: relative to the including application's directory, then to the current
    directory (where the original looked), then in the dialect's own library directory by its last
    component (``pps/library.tc`` is our ``library.tc``, ``pps/lrblib.tc`` our ``lrblib.tc``...).  Only
    a file the sandbox ``files`` lets a program read is found (issue 24); a name the system cannot take
    (too long, a NUL) is not found."""
    for p in (app_dir / name, Path(name), library_dir() / Path(name).name):
        try:
            if files.permits(p) is not None and p.is_file():
                return p
        except (OSError, ValueError):
            continue
    return None


def _read_include(p: Path | None, files: FileSandbox, limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of the include file ``p`` (enough to tell that it does not fit), read
    within the sandbox; b"" when there is none or it cannot be read."""
    if p is None:
        return b""
    try:
        with files.open(str(p), "rb") as f:
            return f.read(limit + 1)
    except (OSError, ValueError):
        return b""


def load(path: str | Path, code: str | None = None, files: FileSandbox | None = None,
         limit: int = 1 << 20) -> Loaded:
    """The program memory for the application file ``path`` (StartError when it cannot start).

    The includes are read within ``files`` (by default the current directory tree, the application's own
    directory tree and the shipped library).  ``limit`` is the size of the program memory (``--memory``,
    the original's PRLEN, section 1.9): it holds the seed, the libraries, the application, the slack and
    the variables.  Files are read only as far as fits, so a program that does not fit is refused at
    once, whatever its size."""
    if files is None:
        files = FileSandbox(program_dirs=[Path(path).parent])
    app = _read(Path(path), limit)
    if app is None:
        raise StartError("APPERR, app not found\n", 255, stdout=True) from None
    includes, plugin_names = header(app)
    seed = b"[main();]" if code is None else b"[" + code.encode("latin-1") + b"]\n"
    libs, parts = [], []
    names: list[str | None] = [*includes] if includes else [None]  # no #include: the dialect's library.tc
    for name in names:
        if name is None:  # the default library: pps/library.tc where an #include of it would find it (1.3,
            own = library_dir() / "library.tc"  # step 5); ours is package data, a missing one a broken install
            found = resolve("pps/library.tc", Path(path).parent, files)
            if found not in (None, own):
                data = _read_include(found, files, limit)
            else:
                with open(own, "rb") as f:
                    data = f.read(limit + 1)
        else:
            data = _read_include(resolve(name, Path(path).parent, files), files, limit)
        if not data:
            raise StartError(f"No such file: {name}\n", 1)
        libs.append(data)
        parts.append((name or "library.tc", len(data)))
    lib = b"".join(libs)
    memory = seed + lib + MARKER + app
    if len(memory) + SLACK > limit:
        raise StartError(f"tinyc: {path}: too big: the seed, the libraries and the application do not fit "
                         f"in the {limit} bytes of program memory (--memory)\n", 2)
    layout = Layout(lib=len(seed), marker=len(seed) + len(lib), app=len(seed) + len(lib) + len(MARKER),
                    end=len(memory))
    return Loaded(memory, layout, includes, plugin_names[-1] if plugin_names else None, parts)


def _read(path: Path, limit: int) -> bytes | None:
    """At most ``limit`` + 1 bytes of ``path`` (enough to tell that it does not fit), None if it cannot
    be read."""
    try:
        with open(path, "rb") as f:
            return f.read(limit + 1)
    except (OSError, ValueError):
        return None


def _unclosed(part: bytes) -> bool:
    """True when a [ of ``part`` has no matching ] before its end, as the original's link checks:
    from each [ it counts brackets (in strings and comments too) to the balancing ], and looks for the
    next [ after it.  A ] with no [ open is not counted (a stray one at the top level is error 20 later);
    a [ that is the part's last byte is not checked."""
    at = 0
    while True:
        at = part.find(b"[", at, len(part) - 1) + 1
        if at == 0:
            return False
        depth = 1
        while depth and at < len(part):
            depth += (part[at] == 91) - (part[at] == 93)
            at += 1
        if depth:
            return True


def _bracket_check(memory: bytes, layout: Layout) -> None:
    """Error 1023/2023/3023 when a [ is not closed in the seed, the libraries or the application (G 1.6)."""
    for code, a, b in ((1023, 0, layout.lib), (2023, layout.lib, layout.marker), (3023, layout.app, layout.end)):
        if _unclosed(memory[a:b]):
            raise TinyCError(code, layout.end)


def link_program(m: Machine, loaded: Loaded) -> ast.Block:
    """Scan and link the program memory on ``m``; returns the seed statement."""
    program, seed = parse_memory(loaded)
    linked = link(program, 0, loaded.memory, m.allocate, m.engine.evaluate_constant, function_cells=True)
    m.library = linked.tables[0]
    m.program = linked.tables[1] if len(linked.tables) > 1 else None
    return seed


def scan_memory(loaded: Loaded) -> tuple[str, list[Token], list[TopItem], list[Level]]:
    """The program memory as text, its tokens (absolute positions), its top-level items and the name
    levels [program, library] the lexer hack uses.  Raises TinyCError as :func:`parse_memory`."""
    _bracket_check(loaded.memory, loaded.layout)
    source = pipeline.Source(loaded.memory.decode("latin-1"), 0, loaded.layout)
    top = syntax.scan_top(source, syntax.lex(source))
    return source.text, top.tokens, top.items, top.levels


def parse_memory(loaded: Loaded) -> tuple[ast.Program, ast.Block]:
    """The program memory scanned and parsed as the dialect's linker does (section 1.6), by the syntax
    pipeline with the dialect's front end (:data:`tinyc.dialects.gibson.syntax.FRONT_END`): the Program of
    every library and application item (addresses are program-memory offsets) and the seed statement.
    Raises TinyCError for a bracket imbalance (1023/2023/3023) or a top level that does not scan."""
    _bracket_check(loaded.memory, loaded.layout)
    return pipeline.run(syntax.FRONT_END, pipeline.Source(loaded.memory.decode("latin-1"), 0, loaded.layout))


def make_machine(session: Session, engine: EngineFactory | None = None, memory: int | None = None,
                 plugin: Plugin | None = None, console: Console | None = None) -> Machine:
    """A machine of the dialect, built by ``session``: 32-bit ints, the dialect's machine calls, ``system`` only
    with ``session.allow_system``, the ``#loadMC`` ``plugin``; ``engine`` a factory (default: the session's
    engine of the dialect), ``memory`` a size other than the session's, ``console`` another console."""
    state = GibsonState(session.allow_system)
    state.plugin = plugin
    return session.machine(engine, memory, console, state, int_bits=32)


def run_files(session: Session, files: list[str], entry: str | None = None, code: str | None = None) -> Outcome:
    """The dialect's ``tinyc run`` (its ``run`` hook): the one application file ``files[0]``, running ``code``
    (``-r CODE``), else ``entry`` when it is not ``main``, else main().  Raises ProgramFileError for more
    than one file.  Returns the Outcome (:func:`run`)."""
    if len(files) != 1 or files[0] == "-":
        raise ProgramFileError("the Gibson dialect runs one application file (use #include lines)")
    if session.int_bits != 32 or session.random_divisor != 8:
        print("tinyc: the Gibson dialect has 32-bit ints and its own library's random: "
              "--int-bits and --random-divisor are not used", file=sys.stderr)
    if code is None and entry not in (None, "main"):
        code = entry  # --entry NAME: the seed runs NAME instead of main()
    return run(session, program_path(files[0]), code)


def run(session: Session, path: str | Path, code: str | None = None) -> Outcome:
    """Run the application file ``path`` as ``tc [-q] [-r CODE] FILE`` does, with ``session``'s options: the
    :class:`~tinyc.driver.outcome.Outcome`.  As that interpreter, the end (``done``, or the dialect's error
    report) goes to the program's output and an error ends with status 0 (the Outcome's report is empty);
    Ctrl-C is ``stopped``, 130, as in every dialect.  ``session.allow_plugins`` lets a ``#loadMC NAME`` line
    load ``NAME.py`` beside the program (:mod:`.plugins`).  Includes and the program's files stay within
    ``session.files`` (the current directory tree, and for reading the application's directory and the
    dialect's library: :mod:`tinyc.machine.sandbox`); ``session.quiet`` leaves out the banner and ``done``."""
    from ...driver.outcome import Outcome, outcome_of
    console, files, memory, quiet = session.console, session.files, session.memory, session.quiet
    files.add_program(path)
    try:
        loaded = load(path, code, files, memory)
        plugin = find_plugin(loaded.plugin, Path(path).parent, session.allow_plugins) if loaded.plugin else None
    except (PluginError, StartError) as e:
        console.flush()
        if getattr(e, "stdout", False):
            console.write(e.message.encode("latin-1", "replace"))
            console.flush()
            return Outcome("error", e.status)
        return Outcome("error", e.status, report=e.message)
    m = make_machine(session, plugin=plugin)
    m.memory.store(0, loaded.memory)
    m.top = len(loaded.memory) + SLACK
    if not quiet:
        console.write(BANNER)

    def program() -> None:
        try:
            seed = link_program(m, loaded)
        except TinyCError as e:
            if int(e.code) in (1023, 2023, 3023):
                console.write(_report(e, m, loaded).encode("latin-1"))  # the linker's report, then the final one
            raise
        try:
            with m.deep_stack():
                m.engine.run([seed])
        except QuietExit:  # Ctrl-C typed as a byte of the input: that interpreter's quiet end
            return
        console.write(b"\n" if quiet else b"\ndone\n")

    def report(code: int, address: int) -> str:  # on the program's output, as that interpreter writes it
        console.write(_report(TinyCError(code, address), m, loaded).encode("latin-1"))
        return ""
    try:
        outcome = outcome_of(program, report, status=ERROR_STATUS, interrupt=session.interrupt)
        if outcome.interrupted and console.last != b"\n":  # "stopped" comes on a line of its own
            console.write(b"\n")
    finally:
        close_units(m)
        console.flush()
    return outcome


def _report(e: TinyCError, m: Machine, loaded: Loaded) -> str:
    code = gibson_code(int(e.code))
    data = bytes(m.memory.data[:loaded.layout.end + 1])
    if code in (1023, 2023, 3023):
        return report(code, data, loaded.layout.end, loaded.layout)
    return report(code, data, e.address, loaded.layout)
