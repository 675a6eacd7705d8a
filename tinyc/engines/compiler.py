"""The fast engine: tiny-c functions compiled to Python functions, and ``tinyc compile FILE``.

Each tiny-c function is translated by :mod:`tinyc.engines.codegen` to Python source, compiled once, and cached
by its AST node (the same program text at the same address parses to the same cached nodes) and the
shape of the global names it uses, in the Session's bounded caches (:mod:`tinyc.engines.caches`).  :class:`FastEngine` has the engine interface of the reference
:class:`~tinyc.engines.evaluator.Evaluator` and gives the same output, error numbers and error addresses.
Functions the generator cannot compile statically run on the reference evaluator.
"""

from __future__ import annotations

import itertools
import sys
import types

from .. import ast

from . import analysis
from .analysis import Analysis, Unsupported, assigned_names, facts, walk
from ..errors import ErrorCode, TinyCError
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from .evaluator import Evaluator
from .caches import LRU, EngineCaches
from .fastrt import Linkage, runtime_globals
from .options import ALL, Optimisations

_serial = itertools.count()  # generated file names are unique in the process (a frame's file names its map)


def line_map(frame: types.FrameType) -> dict[int, int] | None:
    """``{Python line: tiny-c address}`` of the generated code ``frame`` runs, or None for other code: its
    engine's cache keeps it (the generated code's globals hold that cache as ``_LINEMAPS``)."""
    maps = frame.f_globals.get("_LINEMAPS")
    return maps.get(frame.f_code.co_filename) if isinstance(maps, LRU) else None


def _renamed(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` and the code objects it holds, with ``filename`` as the file their frames report."""
    consts = tuple(_renamed(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


class _python_depth:
    """Python's recursion limit at least ``frames`` above the current depth while the engine works on a
    tree (``with _python_depth():``): pickling a function's AST for its cache key and generating its code
    recurse once or more per level of an expression, and the limit the machine set for tiny-c calls
    (``--max-depth``) must not decide whether a program runs (the parser keeps trees below 2,000 levels:
    error 16).  A class, not contextlib's decorator: contextlib is not imported by ``tinyc run``."""

    def __init__(self, frames: int = 20000):
        self.frames = frames

    def __enter__(self) -> None:
        depth, f = 0, sys._getframe()  # type: tuple[int, types.FrameType | None]
        while f is not None:
            depth, f = depth + 1, f.f_back
        self.saved = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.saved, depth + self.frames))

    def __exit__(self, *exc) -> None:
        sys.setrecursionlimit(self.saved)


def parameters(fn: ast.Function) -> list[tuple[str, ast.Declarator]]:
    """The parameters of ``fn`` as the code generator takes them: ``(type, declarator)`` in order."""
    return [(decl.type, d) for decl in fn.params for d in decl.names]


class FastEngine:
    """The engine interface (``name``, ``run``, ``evaluate_constant``) on compiled Python code."""

    name = "fast"
    constant_globals = True  # globals that only hold constants get bounds (constglobals.py)
    frames_known = True      # a function's frame is its static locals (Linkage.room)

    def __init__(self, machine, disk_cache=None, options: Optimisations = ALL):
        self.m = machine
        # the Session's caches, shared by its machines (a machine made by hand: a cache of its own)
        caches = getattr(machine, "caches", None)
        self.caches: EngineCaches = caches if isinstance(caches, EngineCaches) else EngineCaches()
        # the optimisations the generator applies (options.py); part of every code cache's key.  Set it
        # before the program runs (``tinyc run -O0``): code made before keeps the set it was made with
        self.options = options
        self._ref: Evaluator | None = None  # made when first needed (see ``ref``)
        # ``disk_cache(key, make)``: marshalled code for ``key`` kept across runs (the machine's start
        # cache, :func:`tinyc.driver.startcache.code`); None generates every function in every process
        self.disk_cache = disk_cache
        self.depth = 0
        self._runtime: dict | None = None

    def global_constants(self, link: Linkage, effects) -> dict[str, tuple[int, int]]:
        """The bounds of the globals of ``link`` that only ever hold constants (:mod:`.constglobals`)."""
        from .constglobals import constant_globals
        return constant_globals(link, effects)

    @property
    def ref(self) -> Evaluator:
        """The reference evaluator, for the functions and statements not compiled.  Made (and its module
        imported) when first asked for: a program whose code is all compiled never needs it."""
        if self._ref is None:
            from .evaluator import Evaluator
            self._ref = Evaluator(self.m)
        return self._ref

    @ref.setter
    def ref(self, evaluator: Evaluator) -> None:
        self._ref = evaluator

    @property
    def runtime(self) -> dict:
        if self._runtime is None:
            self._runtime = runtime_globals(self)
            self._runtime["_LINEMAPS"] = self.caches.linemaps  # for line_map(frame)
        return self._runtime

    # ---- the engine interface

    def evaluate_constant(self, expr: ast.Expr) -> int:
        if expr.__class__ is ast.Number:  # an array bound is nearly always a number: as Evaluator.eval_number
            return self.m.memory.wrap(expr.value)
        return self.ref.evaluate_constant(expr)

    def run(self, stmts: list[ast.Stmt]) -> None:
        """Execute top-level statements in a new frame (converts Ctrl-C to 99, deep recursion to 17)."""
        m = self.m
        link = Linkage(self, m.program, m.library, assigned_names(stmts), stmts)
        try:
            code, nodes = self._entry(stmts, link)
            fn = types.FunctionType(code, link.G)(nodes)
        except Unsupported:
            fn = None
        mark, saved = m.top, self.depth
        try:
            if fn is None or self.depth >= m.max_depth:  # at the depth limit every call is error 17
                self.ref.depth = self.depth
                self.ref.run(stmts)
            else:
                fn(m.top, self.depth)
        except KeyboardInterrupt:
            raise TinyCError(ErrorCode.KILL, self._where(sys.exc_info()[2], stmts)) from None
        except RecursionError:
            raise TinyCError(ErrorCode.TMFUERR, self._where(sys.exc_info()[2], stmts)) from None
        finally:
            m.top = mark
            self.depth = saved

    def _where(self, tb, stmts) -> int:
        """The tiny-c statement the innermost generated frame was running (the error cursor)."""
        at = stmts[0].pos if stmts else 0
        while tb is not None:
            lm = self.caches.linemaps.get(tb.tb_frame.f_code.co_filename)
            line = tb.tb_lineno  # None where the frame was between lines (Ctrl-C at a jump): skipped
            if lm and line is not None:
                best = [a for ln, a in lm.items() if ln <= line]
                if best:
                    at = best[-1]
            tb = tb.tb_next
        return at

    # ---- compiling

    def assigned(self, fn: ast.Function) -> set[str]:
        """Names ``fn`` assigns as a whole that may be globals (its own static locals are left out)."""
        return facts(fn, self.caches).assigned

    label = "tinyc"  # the generated code's file names: <tinyc NAME serial>

    def codegen(self, name, params, body, link: Linkage, toplevel: bool, source: bool):
        """The code generator of one function body (the Gibson engine has its own)."""
        from .codegen import Codegen  # imported only to generate: a warm start loads code from the cache
        gen = Codegen(name, params, body, link.resolve, self.m.memory.int_bits,
                      self._source if source else None, toplevel, self.m.memory.size, self.m.max_depth,
                      self.options, self.caches.scans)
        gen.room = link.room
        return gen

    def generate(self, name, params, body, link: Linkage, toplevel=False):
        """(factory code, line map, nodes) for one function body; raises Unsupported, also when the
        Python would exceed CPython's limits (nesting, recursion in the compiler, memory).  The code
        has no comments of program text: it depends on the AST and the link's shapes alone (the keys
        of both code caches), never on the bytes the program's text holds when it is first called."""
        filename = f"<{self.label} {name} {next(_serial)}>"
        try:
            with _python_depth():
                gen = self.codegen(name, params, body, link, toplevel, False)
                src, linemap = gen.generate()
                module = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError, OverflowError, ValueError) as e:
            # IndentationError is a SyntaxError; "too many statically nested blocks", "too many levels
            # of indentation", "too many nested parentheses", expressions too deep for the compiler:
            # the reference evaluator runs it
            raise Unsupported(f"beyond the Python compiler's limits ({type(e).__name__})") from None
        code = next(c for c in module.co_consts if isinstance(c, types.CodeType))
        self.caches.linemaps[filename] = linemap
        return code, linemap, gen.nodes

    def function(self, sym, link: Linkage):
        """The Python function for the tiny-c function ``sym`` in ``link`` (compiled once per shape)."""
        fn = sym.function
        if fn.error is not None:  # its call is an error: the reference evaluator raises it
            return self._fallback(sym)
        free = facts(fn, self.caches).free
        if free is None:
            return self._fallback(sym)
        m = self.m
        key = (id(fn), m.memory.int_bits, m.memory.size, m.max_depth, analysis.EXACT_DEAD_FRAMES, self.options.key(),
               link.room,
               tuple((n, link.resolve(n)) for n in free))
        entry = self.caches.code.get(key)
        if entry is None or entry[0] is not fn:
            try:
                if self.disk_cache is None:
                    code, _, nodes = self.generate(fn.name, parameters(fn), fn.body.body, link)
                else:
                    code, nodes = self._from_disk(fn, key[1:], link)
            except Unsupported:  # found while generating (a statement that did not parse, with a prefix)
                return self._fallback(sym)
            entry = (fn, code, nodes)
            self.caches.code[key] = entry
        return types.FunctionType(entry[1], link.G)(entry[2])  # type: ignore[arg-type]

    def _entry(self, stmts: list[ast.Stmt], link: Linkage):
        """(factory code, nodes) of the entry statements, through the disk cache as a function's (a
        warm ``tinyc run`` then generates nothing, and does not import the generator)."""
        if self.disk_cache is not None:
            try:
                free = sorted(Analysis([], stmts, 32, self.caches.scans).free)
            except Unsupported:
                free = None
            if free is not None:
                m = self.m
                shapes = (m.memory.int_bits, m.memory.size, m.max_depth, analysis.EXACT_DEAD_FRAMES, self.options.key(),
                          link.room,
                          tuple((n, link.resolve(n)) for n in free))
                return self._from_disk(stmts, shapes, link, lambda: self.generate(
                    "_run", [], stmts, link, toplevel=True))
        code, _, nodes = self.generate("_run", [], stmts, link, toplevel=True)
        return code, nodes

    def _from_disk(self, tree, shapes: tuple, link: Linkage, generate=None):
        """(factory code, nodes) of ``tree`` (a function, or the entry statements with their ``generate``)
        through the disk cache.  Its key is all that the generated code depends on, as for the in-process
        cache: the AST (its text, at its address), the machine's settings and the shapes of its free
        names (``shapes``); the cache adds the generator's sources and the Python version.  The MC nodes
        the code reports at (``_N``) are kept as their places in a walk of ``tree``."""
        import marshal
        try:  # the C pickler alone: the pickle module's Python half costs a start 1 ms
            from _pickle import dumps
        except ImportError:
            from pickle import dumps

        def make() -> bytes:
            if generate is None:
                code, linemap, nodes = self.generate(tree.name, parameters(tree), tree.body.body, link)
            else:
                code, linemap, nodes = generate()
            place = {id(n): k for k, n in enumerate(walk(tree))}
            return marshal.dumps((code, linemap, [place[id(n)] for n in nodes]))
        try:
            with _python_depth():
                key = dumps((tree, shapes), 5)  # protocol 5: pickle.HIGHEST_PROTOCOL since Python 3.8
        except RecursionError:  # (not expected below the parser's limit) generated, not kept
            key = None
        code, linemap, places = marshal.loads(make() if key is None else self.disk_cache(key, make))
        name = "_run" if generate is not None else tree.name
        filename = f"<tinyc {name} {next(_serial)}>"  # each copy its own line map, as generate() gives
        self.caches.linemaps[filename] = linemap
        if not places:  # most functions make no machine call that reports at its node: no walk
            return _renamed(code, filename), []
        nodes = list(walk(tree))
        return _renamed(code, filename), [nodes[k] for k in places]

    def _fallback(self, sym):
        """A function with dynamic locals: the reference evaluator runs it (made at the first such call:
        every function a program names gets its fallback, few are ever called)."""
        m = self.m

        def call(*a):
            ref = self.ref
            m.top = a[-2]
            ref.depth = a[-1] - 1
            return ref.call(sym, list(a[:-2]), sym.function)
        return call

    def _source(self, node) -> str | None:
        """The first line of a statement's tiny-c text, made safe (:func:`.genbase.safe_comment`), for the
        comments of ``tinyc compile``'s view; the code the engine runs has none."""
        from .genbase import safe_comment  # (the generator's module: a run that loads cached code skips it)
        return safe_comment(bytes(self.m.memory.data[node.pos:min(node.end, node.pos + 200)]))
