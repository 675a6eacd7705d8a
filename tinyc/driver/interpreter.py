"""The machine: flat memory, symbol levels, console and engine, and the ways a program starts.

:class:`Machine` is the one context object every stage shares.  It boots a system file (IPL) the way
the original does (section 4, "Program entry"), and runs an application held in memory as MC 11 does
(section 8): link its text as the program level, run one statement, report the error and cursor.
"""

from __future__ import annotations

import sys
from collections.abc import Set as AbstractSet
from functools import lru_cache
import os
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from .. import ast

from . import startcache
from ..machine.console import Console
from ..errors import ErrorCode, TinyCError
from ..syntax.lexer import Level, canonical, scan_levels, tokenize
from ..syntax.positions import end_of, start_of
from ..syntax.toplevel import LAYOUT, declared_names, scan
from ..link.linker import LinkedText, link
from ..machine.machine_calls import PC_CALLS, MachineCalls
from ..machine.memory import Memory
from ..machine.sandbox import DEFAULT as DEFAULT_SANDBOX, FileSandbox
from ..link.symbols import Symbol, SymbolTable
from ..engines.caches import EngineCaches

if TYPE_CHECKING:
    from typing import Any

    from ..machine.port import Engine, EngineFactory

    Names = tuple[tuple[str, bool], ...]  # a symbol level's names (function or not), as a cache key
    Functions = dict[str, tuple[int, int, frozenset[str]]]  # a library function: (start, end, free names)

DEFAULT_MAX_DEPTH = 1000
DEFAULT_RANDOM_DIVISOR = 8


def system_file() -> bytes:
    """The project's own system file (library, ``endlibrary``, a small shell), ``tinyc/lib/system.ipl``."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tinyc/ (os.path: no pathlib on a start)
    with open(os.path.join(here, "lib", "system.ipl"), "rb") as f:  # package data
        return f.read()


def _parse(text: bytes, base: int, outer: tuple[Names, ...] = (), program: Names | None = None,
           startup: bool = False) -> ast.Program:
    """Parse and cache (in the process and on disk, :mod:`tinyc.driver.startcache`): the same text at the same
    address with the same names gives the same AST, or raises the same TinyCError (what the linker's scan
    finds: the shell runs every statement against a buffer that may not link, and an edit changes the
    text, so the key)."""
    result = _parsed(text, base, outer, program, startup)
    if isinstance(result, tuple):
        raise TinyCError(*result)  # a new exception each time: one raised again would grow its traceback
    return result


@lru_cache(maxsize=256)
def _parsed(text: bytes, base: int, outer: tuple[Names, ...], program: Names | None,
            startup: bool) -> ast.Program | tuple[int, int]:
    """:func:`_parse`'s AST, or the (error number, address) of the TinyCError it raises."""
    def parse() -> ast.Program:
        from ..syntax.pipeline import parse_program  # Lark only when something must be parsed
        levels = [Level(dict(names)) for names in outer]
        return parse_program(text.decode("latin-1"), levels, base,
                             Level(dict(program)) if program is not None else None, startup)
    try:
        return startcache.parsed(text, base, parse, "prog", repr((outer, program, startup)).encode())
    except TinyCError as e:
        return int(e.code), e.address


@lru_cache(maxsize=4)
def _parse_system(text: bytes, base: int) -> ast.Program:
    """``_parse`` of a whole system file."""
    return _parse(text, base, ())


@lru_cache(maxsize=256)
def _parse_statement(text: str, base: int, levels: tuple[Names, ...]) -> list[ast.Stmt]:
    """A typed statement (MC 11), parsed once per text, address and names (cached on disk too)."""
    def parse() -> list[ast.Stmt]:
        from ..syntax.pipeline import parse_statements
        return parse_statements(text, [Level(dict(names)) for names in levels], base)
    return startcache.parsed(text.encode("latin-1"), base, parse, "stmt", repr(levels).encode())


@lru_cache(maxsize=4)
def _scan_system(text: bytes) -> tuple[Functions, dict[str, bool] | None]:
    """A system file's library functions and its own program level (cached on disk, see ``_parse``).

    Returns ``({function name: (start, end, free names)}, names after endlibrary or None)``: each
    function's text offsets, and the names it uses that are not its parameters or locals, the only
    names whose meaning a program can change (gotcha 11)."""
    def scan_text() -> tuple[Functions, dict[str, bool] | None]:
        src = text.decode("latin-1")
        tokens = tokenize(src, tolerant=True)
        functions: Functions = {}
        for item in scan(tokens, src, strict=False):
            if item.kind == "endlibrary":
                break
            if item.kind != "func":
                continue
            raw = tokens[item.start:item.end]
            sig = [t for t in raw if t.type not in LAYOUT]
            local = {canonical(n.value) for k, t in enumerate(sig) if t.type in ("INT", "CHAR")
                     for n in declared_names(sig, k)}
            used = {canonical(t.value) for t in sig[1:] if t.type == "NAME"}
            functions.setdefault(canonical(raw[0].value),
                                 (start_of(raw[0]), end_of(raw[-1]), frozenset(used - local)))
        after = scan_levels(tokens, src)[1]
        return functions, (after.names if after is not None else None)
    return startcache.parsed(text, 0, scan_text, "scan")


def _key(levels: list[Level]) -> tuple[tuple[tuple[str, bool], ...], ...]:
    return tuple(tuple(sorted(level.names.items())) for level in levels)


class Machine:
    """A tiny-c machine: ``memory_size`` bytes of flat memory, ints of ``int_bits`` bits.

    ``library`` and ``program`` are the two global symbol levels; ``top`` is the first free byte of
    value space (globals, then call frames, grow upward from there).  The machine is built with all it
    needs, and nothing is set on it afterwards: ``engine`` is a factory, ``factory(machine) -> engine``
    (:class:`tinyc.machine.port.Engine`), called once here; ``calls`` the dialect's machine calls, which the
    engines reach through the machine (``machine_call(m, values, node)`` and the ``routines`` table by MC
    number), so no engine imports them; ``files`` what the file machine calls may open
    (:mod:`tinyc.machine.sandbox`); ``state`` the dialect's per-machine state of its calls (None for PC);
    ``caches`` the fast engine's (:class:`tinyc.engines.caches.EngineCaches`: its Session's, shared by the
    machines it builds; None: a new one).
    Only :class:`tinyc.driver.session.Session` builds one (:meth:`tinyc.driver.session.Session.machine`).
    """

    def __init__(self, memory_size: int, int_bits: int, console: Console, engine: EngineFactory,
                 max_depth: int = DEFAULT_MAX_DEPTH, random_divisor: int = DEFAULT_RANDOM_DIVISOR,
                 calls: MachineCalls = PC_CALLS, files: FileSandbox = DEFAULT_SANDBOX, state: object = None,
                 caches: EngineCaches | None = None):
        self.memory = Memory(memory_size, int_bits)
        self.caches = caches if caches is not None else EngineCaches()
        self.console = console
        self.machine_call = calls.call
        self.routines = calls.routines
        self.files = files
        self.state = state
        self.library = SymbolTable("library")
        self.program: SymbolTable | None = None
        self.library_lex = Level()
        self.library_text: LinkedText | None = None
        self._library_names: AbstractSet[str] = set()
        self._library_views: dict[Names, SymbolTable] = {}
        self.top = 0
        self.units: dict[int, Any] = {}  # the files the machine calls opened, by unit
        self.max_depth = max_depth
        self.random_divisor = random_divisor
        self.engine: Engine = engine(self)

    def using(self, engine: EngineFactory) -> EngineSwap:
        """``with m.using(factory):`` runs this machine's programs on ``factory(m)`` inside the block (the
        debugger's engine for one session over the shell's machine), and on its own engine after."""
        return EngineSwap(self, engine)

    def deep_stack(self) -> DeepStack:
        """Python's recursion limit raised for ``max_depth`` tiny-c calls while a program runs, and
        restored after (a tiny-c call costs a few Python frames on either engine): ``with m.deep_stack():``.
        On top, room for the deepest expression the parser lets through (about 2,000 levels, a few frames
        each to evaluate or to compile), so that a small ``--max-depth`` limits calls, not expressions."""
        return DeepStack(40 * self.max_depth + 1000 + 20000)

    # ---- value space

    def allocate(self, type_: str, count: int, at: int) -> int:
        """Zeroed space for ``count`` elements of ``type_`` at the top of value space; error 19 if full."""
        size = self.memory.sizeof(type_) * count
        addr = self.top
        if addr + size > self.memory.size:
            raise TinyCError(ErrorCode.TMVLERR, at)
        self.memory.data[addr:addr + size] = bytes(size)
        self.top = addr + size
        return addr

    def load_text(self, text: bytes) -> int:
        """Copy a text into memory at the top of value space; returns its base address."""
        base = self.top
        if base + len(text) + 1 > self.memory.size:
            raise TinyCError(ErrorCode.TMVLERR, base)
        self.memory.store(base, text + b"\0")
        self.top = base + len(text) + 1
        return base

    def close_unit(self, unit: int) -> bool:
        """Close the file on ``unit`` if one is open; False when closing it failed (its last bytes could
        not be written: a full disk, ``/dev/full``).  The unit is free either way."""
        f = self.units.pop(unit, None)
        if f is None:
            return True
        try:
            f.close()
        except (OSError, ValueError):
            return False
        return True

    # ---- booting

    def boot_library(self, text: bytes | None = None) -> None:
        """Load a system file and link the part before ``endlibrary`` as the library level.

        This is how ``tinyc run`` and the shell start: the IPL's own start-up block and shell are
        not run.  ``text`` defaults to the project's system file.
        """
        text = self._patch_random(system_file() if text is None else text)
        base = self.load_text(text)
        program = _parse_system(text, base)
        items: list[ast.Decl | ast.Block | ast.Function | ast.EndLibrary] = []
        for item in program.items:
            if isinstance(item, ast.EndLibrary):
                break
            items.append(item)
        linked = self._link(ast.Program(program.pos, program.end, items), base, text)
        self._set_library(linked)

    def boot_ipl(self, text: bytes) -> bool:
        """Boot a system file as ``tinyc FILE.ipl`` does: link both levels, run its first statement.
        False when it has none (a program, not a system file: nothing ran)."""
        base = self.load_text(text)
        linked = self._link(_parse(text, base, (), startup=True), base, text)
        self._set_library(linked)
        if len(linked.tables) > 1:
            self.program = linked.tables[1]
        if linked.startup is None:
            return False
        with self.deep_stack():
            self.engine.run([linked.startup])
        return True

    def _set_library(self, linked: LinkedText) -> None:
        self.library_text = linked
        self.library = linked.tables[0]
        self.library_lex = linked.lex_levels[0]
        self._library_functions, after = _scan_system(linked.text)
        self._library_names = frozenset().union(*(free for _, _, free in self._library_functions.values()))
        self._system_level = Level(dict(after or {}))  # the system file's own program level (its shell)
        self._library_classes = self._classes(self._system_level.names)
        self._library_views = {}

    def _classes(self, program: dict[str, bool]) -> dict[str, bool]:
        """Function (True) or variable (False) for each name the library uses, with ``program`` linked."""
        lib = self.library_lex.names
        return {n: program.get(n, lib.get(n, False)) for n in self._library_names}

    def _link(self, program: ast.Program, base: int, text: bytes) -> LinkedText:
        return link(program, base, text, self.allocate, self.engine.evaluate_constant)

    def _patch_random(self, text: bytes) -> bytes:
        """Section 14 item 3: ``--random-divisor 7`` gives the 2017 library's ``random``."""
        if self.random_divisor == 8:
            return text
        return text.replace(b"(last/8)", b"(last/%d)" % self.random_divisor)

    # ---- MC 11

    def run_application(self, start: int, end: int, progstart: int) -> tuple[int, int]:
        """Link the text ``progstart..end`` (inclusive) as the program level and run the statement at ``start``.

        Returns ``(error number, cursor - progstart)``; ``(0, 0)`` when the statement ran to its end.
        The program's globals are allocated just after its text and freed afterwards, as are its frames;
        the previous program level is restored (section 8, MC 11).
        """
        saved = (self.program, self.library, self.top)
        try:
            _, linked = self.link_application(end, progstart)
            stmts = self.parse_entry(start, linked)
            with self.deep_stack():
                self.engine.run(stmts)
            return 0, 0
        except TinyCError as e:
            return int(e.code), e.address - progstart
        except RecursionError:  # nesting deeper than the parser's stack: expression stack overflow
            return int(ErrorCode.PUSHERR), start - progstart
        finally:
            self.program, self.library, self.top = saved

    def link_application(self, end: int, progstart: int) -> tuple[ast.Program, LinkedText]:
        """Link the text ``progstart..end`` (inclusive) as the program level, as MC 11 does before it runs
        a statement: its globals are allocated just after its text (section 14 item 14), and the library
        is seen as this program sees it.  Returns the program's AST and its link; raises TinyCError for
        what the linker finds."""
        text = self.memory.block(progstart, end)
        self.top = end + 1
        program = _parse(text, progstart, _key([self.library_lex]))
        linked = self._link(program, progstart, text)
        self.program = linked.tables[0]
        self.library = self._library_view(linked.lex_levels[0])
        return program, linked

    def parse_entry(self, start: int, linked: LinkedText) -> list[ast.Stmt]:
        """The statement MC 11 runs, typed at ``start``, parsed with the names of the program ``linked``."""
        return _parse_statement(self._statement_text(start), start, _key([linked.lex_levels[0], self.library_lex]))

    def _statement_text(self, start: int) -> str:
        """The typed statement at ``start``: up to the end of its line (a NUL outside a string ends it)."""
        data = self.memory.data
        i, quote = start, False
        while i < self.memory.size:
            c = data[i]
            if c == 10 or (c == 0 and not quote):
                break
            if c == 34:
                quote = not quote
            elif c == 0:
                quote = False
            i += 1
        return bytes(data[start:i]).decode("latin-1")

    def _library_view(self, program_lex: Level) -> SymbolTable:
        """The library as code linked with this program sees it.

        Library code looks names up in the program's globals first (gotcha 11), so when the program makes
        a function of a name a library function uses as a variable (or the reverse), that function is
        parsed again with the program's names; the other functions, and the library's variables (whose
        values persist), stay the same objects.  Only a function's free names count, never its locals.
        """
        if self.library_text is None:
            return self.library
        merged = {**self._system_level.names, **program_lex.names}
        classes = self._classes(merged)
        if classes == self._library_classes:
            return self.library_text.tables[0]
        changed = frozenset(n for n, c in classes.items() if c != self._library_classes[n])
        key = tuple(sorted((n, classes[n]) for n in changed))
        view = self._library_views.get(key)
        if view is None:
            from ..syntax.pipeline import parse_function
            lt = self.library_text
            text = lt.text.decode("latin-1")
            levels = [Level(dict(merged)), self.library_lex]
            view = SymbolTable("library")
            for own in lt.tables[0]:
                view.define(own)
            for name, (start, end, free) in self._library_functions.items():
                sym = view.get(name)
                if free & changed and sym is not None and sym.function is not None:
                    raw = tokenize(text[start:end], lt.base + start, tolerant=True)
                    fn = parse_function(raw, levels, lt.base + start, text[start:end])
                    view.symbols[name] = Symbol(name, "func", address=fn.pos, function=fn)
            self._library_views[key] = view
        return view


class DeepStack:
    """The context of :meth:`Machine.deep_stack`: the recursion limit at least ``limit`` inside, as it
    was after.  A class, not contextlib's decorator: importing contextlib costs every start 1 ms."""

    def __init__(self, limit: int):
        self.limit = limit

    def __enter__(self) -> None:
        self.saved = sys.getrecursionlimit()
        if self.saved < self.limit:
            sys.setrecursionlimit(self.limit)

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.saved)


class EngineSwap:
    """The context of :meth:`Machine.using`: another engine on the machine inside, its own after."""

    def __init__(self, machine: Machine, engine: EngineFactory):
        self.machine, self.factory = machine, engine

    def __enter__(self) -> Engine:
        self.saved = self.machine.engine
        self.machine.engine = engine = self.factory(self.machine)
        return engine

    def __exit__(self, *exc: object) -> None:
        self.machine.engine = self.saved
