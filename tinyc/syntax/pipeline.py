"""The syntax stage as one pipeline: text to AST in six passes, each run once, in order.

:func:`run` is the one driver.  Each pass is a function from the previous pass's data to the next::

    text --lex--> tokens --scan--> TopLevel --classify--> pieces --parse--> trees
         --recover--> recovered trees (or errors) --build--> AST

* **lex** (:mod:`tinyc.syntax.lexer`): all tokens of the text, layout included;
* **scan** (:mod:`tinyc.syntax.toplevel`): the linker's walk of the top level, as the original's did
  (reference section 4, "Linking"): the items (functions, declarations, blocks, ``endlibrary``) as token
  spans, and the symbol levels their names make;
* **classify**: each item's tokens as its parser reads them, names retyped by the lexer hack
  (:func:`tinyc.syntax.lexer.classify`) against those levels;
* **parse** (:mod:`tinyc.syntax.parser`): Lark's LALR parse of each piece;
* **recover** (:mod:`tinyc.syntax.recovery`): a piece whose parse failed, parsed again with each statement
  that fails turned into an error statement (section 14 item 16: it is an error only when it runs);
* **build** (:mod:`tinyc.syntax.to_ast`): the parse trees to the nodes of :mod:`tinyc.ast`.

A front end is a :class:`FrontEnd`: the functions it provides for the passes that differ between
languages (its lexer, level scan, classification, grammar, error mapping and AST builder); the driver
and the parse and recovery passes are shared.  tiny-c/PC has two: :data:`PROGRAM` (a program text) and
:data:`STATEMENTS` (statements typed at the shell, run by MC 11, or parsed again while a function runs).
Tom Gibson's dialect plugs its own pieces into the same driver (:mod:`tinyc.dialects.gibson.syntax`).

A pass records an item's error on its :class:`Piece` instead of raising it, so that the build pass raises
(or, for a function, keeps) the errors in the order of the text, as the original's linker met them.  Module
dependencies go one way: this module imports the passes, no pass imports this module or a pass above it
(the layer contract in ``pyproject.toml``).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from .. import ast
from ..errors import ErrorCode, TinyCError
from .lexer import Level, canonical, classify, run_time_names, tokenize
from .parser import check_nesting, lark_parser, nesting_limit, syntax_error
from .positions import end_of, start_of
from .recovery import PrefixValue, SyntaxErrorMap, recover as recover_piece
from .runtime_names import wrap
from .to_ast import build as build_ast
from .toplevel import Item, levels_of, scan as scan_top

C = TypeVar("C")  # what a front end needs beside the text (name levels, a memory layout)
R = TypeVar("R")  # what its build pass gives (a Program, a statement list)


@dataclass(frozen=True)
class Source(Generic[C]):
    """The pipeline's input: ``text`` lies at address ``base`` (node positions are ``base`` plus the
    offset in ``text``); ``context`` is what the front end needs beside it."""

    text: str
    base: int
    context: C


@dataclass
class TopLevel:
    """The scan pass's output: the raw ``tokens`` (layout included), the front end's ``items`` (token
    spans, in the order of the text) and the name ``levels`` the lexer hack searches, innermost first."""

    tokens: list[Token]
    items: list[Any]  # each front end's own item record (tinyc.syntax.toplevel.Item for tiny-c/PC)
    levels: list[Level]


class Piece:
    """One item on its way through the passes.

    ``item`` is the scan's record and ``raw`` its tokens (layout included); the classify pass sets
    ``tokens`` (what the parser reads from the rule ``start``; None: nothing to parse) and ``recover``
    (whether a failed parse goes to the recovery pass, or is the item's error at once).  The parse pass
    sets ``tree`` or ``failure``; the recovery pass sets ``tree`` and ``prefixes``, or ``header`` (a
    failure outside any statement).  ``error`` is the first error a pass met, raised (or kept) by the
    build pass."""

    __slots__ = ("item", "raw", "tokens", "start", "recover", "tree", "failure", "header", "prefixes", "error")

    def __init__(self, item: Any, raw: list[Token], tokens: list[Token] | None, start: str = "",
                 recover: bool = True) -> None:
        self.item = item
        self.raw = raw
        self.tokens = tokens
        self.start = start
        self.recover = recover
        self.tree: Tree[Token] | None = None
        self.failure: UnexpectedInput | None = None
        self.header: ast.ErrorStmt | None = None
        self.prefixes: list[list[PrefixValue]] = []
        self.error: TinyCError | None = None


@dataclass(frozen=True)
class FrontEnd(Generic[C, R]):
    """What a front end provides to :func:`run`: a function for each pass that is its own.

    ``lex``: the source to its raw tokens.  ``scan``: the raw tokens to the :class:`TopLevel` (its items
    and name levels).  ``classify``: the top level to the pieces to parse, their tokens retyped as the
    parser reads them.  ``parser``: its Lark LALR parser (built once; the grammar's start rules are the
    pieces' ``start``).  ``syntax_error``: given a piece's tokens, the map from a Lark error to the tiny-c
    error.  ``build``: the parsed pieces to the front end's result (an AST), raising their errors."""

    name: str
    lex: Callable[[Source[C]], list[Token]]
    scan: Callable[[Source[C], list[Token]], TopLevel]
    classify: Callable[[Source[C], TopLevel], list[Piece]]
    parser: Callable[[], Lark]
    syntax_error: Callable[[list[Token]], SyntaxErrorMap]
    build: Callable[[Source[C], TopLevel, list[Piece]], R]


def run(front: FrontEnd[C, R], source: Source[C]) -> R:
    """Text to AST: the passes of ``front`` (see the module's docstring), each once, in order.

    Raises TinyCError for what the front end's linker finds at load time (tiny-c/PC: error 2 or 20 from
    the scan, an error in a global declaration; sections 4 and 14 item 18); a statement that does not
    parse is an :class:`ast.ErrorStmt` in the AST, raised when it runs.  Python's cyclic collector is
    paused meanwhile (a parse builds many small objects; the collector made large parses slower as
    they grew)."""
    with _gc_paused():
        tokens = front.lex(source)
        top = front.scan(source, tokens)
        pieces = front.classify(source, top)
        parse(front, source, pieces)
        recover(front, source, pieces)
        return front.build(source, top, pieces)


@contextmanager
def _gc_paused() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def parse(front: FrontEnd[Any, Any], source: Source[Any], pieces: list[Piece]) -> list[Piece]:
    """The parse pass: each piece's tokens parsed by ``front``'s Lark parser, from its ``start`` rule.

    Sets ``tree``; or ``failure`` (a Lark error, for the recovery pass); or ``error``: error 16 for an
    expression nested too deeply (:func:`tinyc.syntax.parser.check_nesting`), or a failed parse of a
    piece that does not recover, mapped by ``front.syntax_error``.  Returns ``pieces``."""
    parser, base, text = front.parser(), source.base, source.text
    with nesting_limit():  # once for the pass: its cost per piece made a parse slower
        for p in pieces:
            if p.tokens is None or p.error is not None:
                continue
            try:
                check_nesting(p.tokens, base)
                p.tree = parser.parse(p.tokens, start=p.start)
            except TinyCError as e:
                p.error = e
            except UnexpectedInput as e:
                if p.recover:
                    p.failure = e
                else:
                    p.error = front.syntax_error(p.tokens)(e, p.tokens, base, text)
            except RecursionError:
                p.error = _too_deep(p, base)
    return pieces


def recover(front: FrontEnd[Any, Any], source: Source[Any], pieces: list[Piece]) -> list[Piece]:
    """The recovery pass: each piece whose parse failed, parsed again with each statement that fails
    turned into an error statement (:func:`tinyc.syntax.recovery.recover`).  Sets ``tree`` and
    ``prefixes``, or ``header`` when the failure is outside any statement.  Returns ``pieces``."""
    failed = [p for p in pieces if p.failure is not None and p.tokens is not None]
    if not failed:
        return pieces
    parser, base, text = front.parser(), source.base, source.text
    with nesting_limit():
        for p in failed:
            assert p.tokens is not None
            try:
                p.tree, p.header, p.prefixes = recover_piece(parser, p.tokens, p.start, text, base,
                                                             front.syntax_error(p.tokens))
            except RecursionError:
                p.error = _too_deep(p, base)
            p.failure = None
    return pieces


def _too_deep(p: Piece, base: int) -> TinyCError:
    """Error 16 for a piece that Python's recursion could not parse (at its first token)."""
    return TinyCError(ErrorCode.PUSHERR, base + start_of(p.tokens[0]) if p.tokens else base)


# ---- tiny-c/PC: a program text

class ProgramContext:
    """What a tiny-c/PC program text needs beside it: the ``outer`` levels (the library's), the
    ``program`` level to use when the text holds ``endlibrary`` (a library linked with another program),
    and ``startup``: whether its first top-level block is a system file's start-up statement."""

    __slots__ = ("outer", "program", "startup")

    def __init__(self, outer: list[Level] | None = None, program: Level | None = None,
                 startup: bool = False) -> None:
        self.outer = list(outer or [])
        self.program = program
        self.startup = startup


def _lex_program(source: Source[Any]) -> list[Token]:
    """tiny-c's lexer, tolerant: a bad character or quote is a token, an error only if it runs."""
    return tokenize(source.text, source.base, tolerant=True)


def _scan_program(source: Source[ProgramContext], tokens: list[Token]) -> TopLevel:
    """The linker's scan (:func:`tinyc.syntax.toplevel.scan`, error 2 or 20) and the levels its items
    declare: the program's own first, then the outer ones (:func:`levels`)."""
    items = scan_top(tokens, source.text, source.base)
    return TopLevel(tokens, items, levels(levels_of(tokens, items), source.context.outer, source.context.program))


def levels(scanned: tuple[Level, Level | None], outer: list[Level], program: Level | None) -> list[Level]:
    """The name levels of a text whose own are ``scanned`` (:func:`tinyc.syntax.toplevel.levels_of`):
    its own names first, then ``outer`` (the library).  A text that holds ``endlibrary`` (an IPL, a
    system file) supplies two levels: the names after it (or ``program``, when a library is linked with
    another program), then the names before it."""
    first, after = scanned
    if after is not None:
        return [program if program is not None else after, first] + list(outer)
    return [first] + list(outer)


def _classify_program(source: Source[ProgramContext], top: TopLevel) -> list[Piece]:
    """A piece per item the program's AST holds: ``endlibrary`` marks, global declarations (a failed
    parse is an error at load time), the start-up block (with ``startup``) and the functions; other
    top-level blocks are skipped unread, as the original's linker did."""
    pieces: list[Piece] = []
    startup, levels_ = source.context.startup, top.levels
    for item in top.items:
        raw = top.tokens[item.start:item.end]
        if item.kind == "endlibrary":
            pieces.append(Piece(item, raw, None))
        elif item.kind == "decl":
            pieces.append(Piece(item, raw, classify(raw, levels_), "decl", recover=False))
        elif item.kind == "block" and startup:
            startup = False
            inner = classify(raw, levels_)[1:-1]
            pieces.append(Piece(item, raw, inner or None, "statements"))
        elif item.kind == "func":
            pieces.append(_function_piece(item, raw, levels_))
    return pieces


def _function_piece(item: Item, raw: list[Token], levels_: list[Level]) -> Piece:
    return Piece(item, raw, classify(raw, levels_) if item.body else None, "funcdef")


def _build_program(source: Source[ProgramContext], top: TopLevel, pieces: list[Piece]) -> ast.Program:
    """The :class:`ast.Program`; raises the first error of a piece that has one, in the text's order."""
    base, text = source.base, source.text
    items: list[ast.Decl | ast.Block | ast.Function | ast.EndLibrary] = []
    for p in pieces:
        kind = p.item.kind
        if kind == "func":
            items.append(_function(p, top.levels, base, text))
            continue
        if p.error is not None:
            raise p.error
        if kind == "endlibrary":
            items.append(ast.EndLibrary(base + start_of(p.raw[0]), base + end_of(p.raw[0])))
        elif kind == "decl":
            assert p.tree is not None  # a declaration's failed parse is its error
            items.append(build_ast(p.tree, ast.Decl, base, text))
        else:
            stmts = _statements(p, base, text) if p.tokens is not None else []
            items.append(ast.Block(base + start_of(p.raw[0]), base + end_of(p.raw[-1]), body=stmts))
    sig = [t for t in top.tokens if t.type not in ("WS", "COMMENT", "NEWLINE")]
    span = (base + start_of(sig[0]), base + end_of(sig[-1])) if sig else (base, base)
    return ast.Program(*span, items=items)


def _function(p: Piece, levels_: list[Level], base: int, text: str) -> ast.Function:
    """One function definition from its parsed piece (reference section 4).  A header that does not
    parse, or a name with no body, gives a Function whose ``error`` is raised when it is called; an
    expression nested too deeply raises error 16 now."""
    if p.error is not None:
        raise p.error
    name, raw = p.raw[0], p.raw
    fname = canonical(name.value)
    start, end = base + start_of(name), base + end_of(raw[-1])
    if p.tokens is None:  # no [ after the name: a call is error 22
        at = base + len(text.rstrip("\n"))
        err = ast.ErrorStmt(at, at, int(ErrorCode.LBRCERR), at)
        return ast.Function(start, end, name=fname, params=[], body=ast.Block(end, end, body=[]), error=err)
    if p.header is not None:
        return ast.Function(start, end, name=fname, params=[], body=ast.Block(end, end, body=[]), error=p.header)
    assert p.tree is not None  # parsed, or recovered with no header error
    fn = build_ast(p.tree, ast.Function, base, text, p.prefixes)
    dynamic, marks = run_time_names(p.tokens, levels_, 1)
    if marks:  # uses of a name a nested declaration may make a local: decided when they run
        fn.body.body = wrap(fn.body.body, {base + k: v for k, v in marks.items()}, dynamic, fn.body.end - 1)
    return fn


def _statements(p: Piece, base: int, text: str) -> list[ast.Stmt]:
    """A statement list from its parsed piece (start rule ``statements``)."""
    if p.header is not None:  # cannot happen: every token can start a statement
        return [p.header]
    assert p.tree is not None  # parsed, or recovered with no header error
    return build_ast(p.tree, ast.Block, base, text, p.prefixes).body


def _pc_syntax_error(tokens: list[Token]) -> SyntaxErrorMap:
    return syntax_error


PROGRAM: FrontEnd[ProgramContext, ast.Program] = FrontEnd(
    "tiny-c/PC program", _lex_program, _scan_program, _classify_program, lark_parser, _pc_syntax_error,
    _build_program)


def parse_program(text: str, outer: list[Level] | None = None, base: int = 0,
                  program: Level | None = None, startup: bool = False) -> ast.Program:
    """Parse a whole program text to an :class:`ast.Program` (reference sections 4, 14 items 16, 18).

    Node positions are absolute: ``base`` (the text's address in memory) plus the offset in ``text``.
    Names resolve in the text's own levels, then ``outer`` (``program`` replaces the level after an
    ``endlibrary``; :func:`levels`).  Top-level blocks are skipped unparsed, except with ``startup`` the
    first one: the statement a system file (IPL) starts with.  Raises TinyCError for what the linker
    finds: error 2, 20, or an error in a global declaration.
    """
    return run(PROGRAM, Source(text, base, ProgramContext(outer, program, startup)))


def parse_function(raw: list[Token], levels_: list[Level], base: int, text: str,
                   body: bool = True) -> ast.Function:
    """One function definition (its raw tokens: name, parameters, body; names resolved in ``levels_``)
    through the classify, parse, recovery and build passes of :data:`PROGRAM` (a library's function
    read again against another program's names).  ``body`` False: a name with no ``[`` after it."""
    source = Source(text, base, ProgramContext())
    piece = _function_piece(Item("func", 0, len(raw), body), raw, levels_)
    with _gc_paused():
        recover(PROGRAM, source, parse(PROGRAM, source, [piece]))
    return _function(piece, levels_, base, text)


def prepare(text: str, outer: list[Level] | None = None, base: int = 0,
            program: Level | None = None) -> tuple[list[Token], list[Level]]:
    """The lex, scan and classify passes over a whole text as one token list, for the views: the
    classified tokens (layout dropped) and the name levels (:func:`levels`).  Raises TinyCError 2 or 9
    for a bad quote or character (the strict lexer); a top level that does not scan is passed over."""
    from .toplevel import scan_levels
    tokens = tokenize(text, base)
    levels_ = levels(scan_levels(tokens, text), list(outer or []), program)
    return classify(tokens, levels_), levels_


# ---- tiny-c/PC: statements

class StatementsContext:
    """What statements need beside their text: the ``outer`` levels their names resolve in, the
    ``local_names`` that are locals when they start, and ``dynamic`` (a function's names a nested
    declaration may make locals, when the text is the tail of a function parsed again while it runs;
    :mod:`tinyc.syntax.runtime_names`)."""

    __slots__ = ("outer", "local_names", "dynamic")

    def __init__(self, outer: list[Level], local_names: set[str] | None = None,
                 dynamic: frozenset[str] | None = None) -> None:
        self.outer, self.local_names, self.dynamic = outer, local_names, dynamic


def _scan_statements(source: Source[StatementsContext], tokens: list[Token]) -> TopLevel:
    """Statements have no top level to scan: one item, every token, the names of ``outer``."""
    return TopLevel(tokens, [None], source.context.outer)


def _classify_statements(source: Source[StatementsContext], top: TopLevel) -> list[Piece]:
    """The statements' tokens, names retyped with the starting locals (a name at the top is a use)."""
    tokens = classify(top.tokens, top.levels, statements=True, local_names=source.context.local_names)
    return [Piece(None, top.tokens, tokens, "statements")]


def _build_statements(source: Source[StatementsContext], top: TopLevel, pieces: list[Piece]) -> list[ast.Stmt]:
    """The statement list, its uses of names a nested declaration may shadow put in :class:`ast.Reparse`."""
    p, ctx, base = pieces[0], source.context, source.base
    if p.error is not None:
        raise p.error
    assert p.tokens is not None
    stmts = _statements(p, base, source.text)
    dynamic, marks = run_time_names(p.tokens, ctx.outer, 0, ctx.local_names or frozenset(), ctx.dynamic)
    if marks:
        stmts = wrap(stmts, {base + k: v for k, v in marks.items()}, dynamic, base + len(source.text))
    return stmts


STATEMENTS: FrontEnd[StatementsContext, list[ast.Stmt]] = FrontEnd(
    "tiny-c/PC statements", _lex_program, _scan_statements, _classify_statements, lark_parser,
    _pc_syntax_error, _build_statements)


def parse_statements(text: str, outer: list[Level], base: int = 0) -> list[ast.Stmt]:
    """Parse statements typed at the shell or started by MC 11, with names resolved in ``outer``.

    A statement that does not parse becomes an :class:`ast.ErrorStmt` (the ones before it run); an
    expression nested too deeply raises TinyCError 16."""
    return reparse(text, outer, base)


def reparse(text: str, outer: list[Level], base: int = 0, local_names: set[str] | None = None,
            dynamic: frozenset[str] | None = None) -> list[ast.Stmt]:
    """Statements of ``text`` (at address ``base``), the names in ``local_names`` being locals when they
    start: typed statements (:func:`parse_statements`), or the tail of a statement list parsed again
    while its function runs (``dynamic``: the function's names that a nested declaration may make
    locals; :mod:`tinyc.syntax.runtime_names`).  A statement that does not parse becomes an
    :class:`ast.ErrorStmt`."""
    return run(STATEMENTS, Source(text, base, StatementsContext(outer, local_names, dynamic)))
