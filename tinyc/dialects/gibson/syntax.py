"""Front end of the Gibson dialect: its tokens, the linker's top-level scan, and one parse per function.

The dialect's own grammar is ``grammar.lark`` beside this module; names are classified (the lexer hack) with
:func:`tinyc.syntax.lexer.classify`, then the dialect's retypings are applied
(:func:`tinyc.dialects.gibson.retype.retype`).  As that interpreter's linker did (gibson-dialect.md section
1.6), the top level is scanned, not parsed: ``[...]`` blocks other than the seed are skipped unread, ``#``
lines are layout, a declaration allocates globals, any other name starts a function whose body is the next
bracket-balanced ``[...]``.  Each function is parsed on its own with the statement-level recovery of
:mod:`tinyc.syntax.recovery`: a statement that does not parse raises its error when it runs, and a function
whose header does not parse raises it when called, so code that never runs never fails.

These are the dialect's pieces of the syntax pipeline (:mod:`tinyc.syntax.pipeline`): :data:`FRONT_END`
gives its lexer (:func:`lex`), level scan (:func:`scan_top`), classification, grammar, error mapping and
AST builder to the same driver and the same parse and recovery passes as tiny-c/PC's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, v_args
from lark.exceptions import VisitError

from ... import ast
from ...driver.dialect import find
from ...errors import ErrorCode, TinyCError
from ...syntax import pipeline
from ...syntax.lexer import Level, cached_lark, classify, lex_all
from ...syntax.parser import TokenList, nesting_limit
from ...syntax.to_ast import ToAST, header_paren
from ...syntax.positions import end_of, start_of
from .parse_errors import gibson_syntax_error
from .retype import retype
from ...syntax.toplevel import declared_names as _declared_names

GRAMMAR = Path(__file__).with_name("grammar.lark").read_text()
LAYOUT = {"WS", "COMMENT", "NEWLINE", "HASHLINE"}
canonical = find("gibson").canonical  # this package's DIALECT, not imported: it imports this module


@lru_cache(maxsize=1)
def _lexer() -> Lark:
    return cached_lark("gibson-lexer", GRAMMAR, parser="lalr", lexer="basic", start="program")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return cached_lark("gibson-parser", GRAMMAR, parser="lalr", lexer=TokenList,
                       start=["program", "statements", "funcdef"], propagate_positions=True,
                       maybe_placeholders=False)


def tokenize(text: str) -> list[Token]:
    """Every token of ``text``, layout included; a byte no token starts with is a BADCHAR token."""
    return list(lex_all(_lexer(), text))


Broken = ast.ErrorStmt  # a statement (or function header) that did not parse: raised when it runs

VARIADIC = "..."  # the type of the pseudo-declaration that marks a "..." parameter list


def is_variadic(fn: ast.Function) -> bool:
    """Whether ``fn``'s parameters end with ``...`` (gibson-dialect.md 3.7): no argument count check."""
    return bool(fn.params) and fn.params[-1].type == VARIADIC


@v_args(meta=True)
class _GibsonToAST(ToAST):
    """The PC transformer with the dialect's names (15 significant characters) and its new forms."""

    canonical = staticmethod(canonical)

    def funcdef(self, meta, ch):
        paren = header_paren(ch)
        if paren is not None:
            return self._paren_function(meta, ch[0], paren)
        ellipsis = [c for c in ch if isinstance(c, Token) and c.type == "ELLIPSIS"]
        ch = [c for c in ch if not (isinstance(c, Token) and c.type in ("CALLPAREN", "CPAREN", "ELLIPSIS"))]
        params = ch[1:-1]
        if ellipsis:
            params.append(ast.Decl(self.base + start_of(ellipsis[0]), self.base + end_of(ellipsis[0]),
                                   type=VARIADIC, names=[]))
        return ast.Function(*self._pos(meta), name=ch[0], params=params, body=ch[-1])

    def _after(self, meta) -> int:
        """Past the blanks, line ends (LF or CR) and comments (``/*`` or ``//``) after a call."""
        text, at = self.text, (meta.end_pos if not meta.empty else 0)
        while at < len(text):
            if text[at] in " \t\r\n":
                at += 1
            elif text.startswith("/*", at) or text.startswith("//", at):
                while at < len(text) and text[at] not in "\r\n":
                    at += 1
            else:
                break
        return at

    def _same_line(self, before, after) -> bool:
        gap = self.text[before.end - self.base:after.pos - self.base]
        ends = self.text[before.end - self.base - 1:before.end - self.base]
        return "\n" not in gap and "\r" not in gap and ends != ";"

    def error_stmt(self, meta, ch):
        code, address, k = ch[0].value.split(":")
        if k == "-":  # made by the front end (retype), not by the recovery: nothing parsed before it
            return ast.ErrorStmt(*self._pos(meta), code=int(code), address=int(address), prefix=[])
        return super().error_stmt(meta, ch)

    def signnum(self, meta, ch):
        return ast.Number(*self._pos(meta), value=int(ch[0].value))

    def charlit(self, meta, ch):
        v = ord(ch[0].value[1])
        return ast.CharLit(*self._pos(meta), value=v - 256 if v > 127 else v)

    def badchar(self, meta, ch):
        code = ErrorCode.CURSERR if ch[0].value in "'\"" else ErrorCode.SYNXERR
        raise TinyCError(code, ch[0].start_pos)


KEYWORDS = (("return", "RETURN"), ("while", "WHILE"), ("break", "BREAK"), ("else", "ELSE"),
            ("char", "CHAR"), ("int", "INT"), ("if", "IF"))
_ENDS_OPERAND = {"NUMBER", "STRING", "CHARLIT", "RPAR", "RSQB", "LSQB", "SEMICOLON", "ELSE"}


def split_keywords(tokens: list[Token], text: str, functions: set[str]) -> list[Token]:
    """Keywords matched as plain prefixes (gibson-dialect.md 2.5): a name that begins with a keyword,
    where a statement begins, is that keyword followed by the rest (``returned = 1`` returns,
    ``interest = 5`` declares ``erest``).  A statement begins after ``[ ] ;``, ``else``, and after an
    operand that is not a function name waiting for its arguments (``pn interest`` passes it).
    ``functions`` holds the names that are functions (their arguments may follow them)."""
    out: list[Token] = []
    prev: Token | None = None
    newline = False
    for t in tokens:
        if t.type in LAYOUT:
            newline = newline or t.type == "NEWLINE"
            out.append(t)
            continue
        if t.type == "NAME" and prev is not None and _statement_start(prev, newline, functions):
            for word, kind in KEYWORDS:
                if t.value.startswith(word) and len(t.value) > len(word):
                    out += _split(t, word, kind, text)
                    break
            else:
                out.append(t)
        else:
            out.append(t)
        prev, newline = out[-1], False
    return out


def _split(t: Token, word: str, kind: str, text: str) -> list[Token]:
    """A name read as a keyword prefix (section 2.5): the keyword token, then the rest of the name's text
    tokenized again (``interest`` is ``int`` and ``erest``)."""
    k = Token.new_borrow_pos(kind, word, t)
    split = start_of(t) + len(word)
    k.end_pos = split
    rest = tokenize(text[split:end_of(t)])
    for r in rest:
        r.start_pos = start_of(r) + split
        r.end_pos = end_of(r) + split
    return [k, *rest]


def split_top_keywords(tokens: list[Token], text: str) -> list[Token]:
    """``int``/``char`` matched as prefixes at the top level and in parameter lists (section 1.6):
    a function ``integrate [...]`` is the declaration ``int egrate`` and a skipped block."""
    out: list[Token] = []
    depth = paren = 0
    prev = None
    for t in tokens:
        if t.type in LAYOUT:
            out.append(t)
            continue
        depth += {"LSQB": 1, "RSQB": -1}.get(t.type, 0)
        paren += {"LPAR": 1, "RPAR": -1}.get(t.type, 0) if depth == 0 else 0
        if (t.type == "NAME" and depth == 0 and paren == 0 and prev not in ("INT", "CHAR", "COMMA")
                and t.value.startswith(("int", "char")) and t.value not in ("int", "char")):
            word, kind = ("int", "INT") if t.value.startswith("int") else ("char", "CHAR")
            out += _split(t, word, kind, text)
        else:
            out.append(t)
        prev = out[-1].type
    return out


def _statement_start(prev: Token, newline: bool, functions: set[str]) -> bool:
    if prev.type in _ENDS_OPERAND:
        return True
    if prev.type == "NAME":
        return canonical(prev.value) not in functions or newline
    return False


def _tree_ast(piece: pipeline.Piece, text: str):
    """The AST of a parsed piece (a Function for ``funcdef``, a Block for ``statements``).  Raises the
    piece's error, a function header's that does not parse, or 16 for a tree too deep to build."""
    tokens = piece.tokens or []
    if piece.error is not None:
        raise piece.error
    if piece.header is not None:
        raise TinyCError(piece.header.code, piece.header.address)
    assert piece.tree is not None  # parsed, or recovered with no header error
    try:
        with nesting_limit():
            return _GibsonToAST(0, text, piece.prefixes).transform(piece.tree)
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, start_of(tokens[0]) if tokens else 0) from None
    except VisitError as e:
        if isinstance(e.orig_exc, RecursionError):  # as the PC dialect: expression stack overflow
            raise TinyCError(ErrorCode.PUSHERR, start_of(tokens[0]) if tokens else 0) from None
        if isinstance(e.orig_exc, TinyCError):
            raise e.orig_exc from None
        raise


# ---- the linker's scan of the top level (section 1.6)

@dataclass
class TopItem:
    kind: str              # "seed", "decl", "func", "endlibrary"
    first: int             # index of its first token in the full token list
    last: int              # index one past its last token
    name: str = ""


def scan(tokens: list[Token], seed_end: int) -> list[TopItem]:
    """Top-level items of the whole program memory; raises TinyCError 20 or 22 as that linker did."""
    items: list[TopItem] = []
    sig = [k for k, t in enumerate(tokens) if t.type not in LAYOUT]
    i, n = 0, len(sig)

    def matching(j: int) -> int:
        """Index (in sig) one past the ] that closes the [ at sig[j]."""
        depth = 0
        while j < n:
            ty = tokens[sig[j]].type
            if ty == "LSQB":
                depth += 1
            elif ty == "RSQB":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise TinyCError(ErrorCode.CURSERR, end_of(tokens[sig[-1]]) if sig else 0)

    while i < n:
        t = tokens[sig[i]]
        ty = t.type
        if ty == "LSQB":
            j = matching(i)
            if start_of(t) < seed_end and not items:
                items.append(TopItem("seed", sig[i], sig[j - 1] + 1))
            i = j
        elif ty == "ENDLIBRARY":
            items.append(TopItem("endlibrary", sig[i], sig[i] + 1))
            i += 1
        elif ty in ("INT", "CHAR"):
            j = i + 1
            depth = 0
            while j < n:  # NAME [ ( ... ) ] { , NAME [ ( ... ) ] } [ ; ]
                if tokens[sig[j]].type != "NAME":
                    break
                j += 1
                if j < n and tokens[sig[j]].type == "LPAR":
                    while j < n:
                        depth += {"LPAR": 1, "RPAR": -1}.get(tokens[sig[j]].type, 0)
                        j += 1
                        if depth == 0:
                            break
                if j < n and tokens[sig[j]].type == "COMMA":
                    j += 1
                    continue
                break
            if j == i + 1:
                raise TinyCError(ErrorCode.SYMERR, end_of(t))
            if j < n and tokens[sig[j]].type == "SEMICOLON":
                j += 1
            items.append(TopItem("decl", sig[i], sig[j - 1] + 1))
            i = j
        elif ty == "NAME":
            j = i + 1
            while j < n and tokens[sig[j]].type != "LSQB":
                j += 1
            if j >= n:
                raise TinyCError(ErrorCode.LBRCERR, end_of(t))
            k = matching(j)
            items.append(TopItem("func", sig[i], sig[k - 1] + 1, canonical(t.value)))
            i = k
        elif ty == "SEMICOLON":
            i += 1
        else:
            raise TinyCError(ErrorCode.LINKERR, start_of(t))
    return items


def levels(tokens: list[Token], items: list[TopItem]) -> tuple[Level, Level]:
    """(program level, library level) for the lexer hack: names before the last ``endlibrary`` are
    the library's."""
    last_marker = max((k for k, it in enumerate(items) if it.kind == "endlibrary"), default=-1)
    lib, prog = Level(), Level()
    for k, it in enumerate(items):
        level = lib if k < last_marker else prog
        if it.kind == "func":
            level.names.setdefault(it.name, True)
        elif it.kind == "decl":
            sig = [t for t in tokens[it.first:it.last] if t.type not in LAYOUT]
            for name in _declared_names(sig, 0):
                level.names.setdefault(canonical(name.value), False)
    return prog, lib


def _known(tokens: list[Token], outer: list[Level]) -> set[str]:
    known: set[str] = set()
    for level in outer:
        known.update(level.names)
    sig = [t for t in tokens if t.type not in LAYOUT]
    for k, t in enumerate(sig):
        if t.type in ("INT", "CHAR"):
            known.update(canonical(nm.value) for nm in _declared_names(sig, k))
    return known


def _canon_levels(outer: list[Level]) -> list[Level]:
    """The levels keyed as tinyc.syntax.lexer.classify looks names up (its 8-character canonical form)."""
    from ...syntax.lexer import canonical as pc_canonical
    out = []
    for level in outer:
        lv = Level()
        for name, is_fn in level.names.items():
            lv.names.setdefault(pc_canonical(name), is_fn)
        out.append(lv)
    return out


def item_tokens(tokens: list[Token], item: TopItem, text: str, outer: list[Level]) -> tuple[list[Token], list[Token]]:
    """(the item's tokens as the lexer made them, keywords split off; the tokens its parser reads: classified
    by the lexer hack and retyped by the dialect's rules).  Layout tokens are in the first list only."""
    part = tokens[item.first:item.last]
    lex_outer = _canon_levels(outer)
    if item.kind in ("func", "seed"):
        functions = {n for level in outer for n, f in level.names.items() if f}
        part = part[:1] + split_keywords(part[1:], text, functions)
    if item.kind == "func":
        return part, retype(classify(part, lex_outer), text, _known(part, outer))
    return part, retype(classify(part, lex_outer, statements=True), text, _known(part, outer))


def _piece(tokens: list[Token], item: TopItem, text: str, outer: list[Level]) -> pipeline.Piece:
    """The classify pass for one item: its tokens as its parser reads them (:func:`item_tokens`)."""
    part, toks = item_tokens(tokens, item, text, outer)
    return pipeline.Piece(item, part, toks, "funcdef" if item.kind == "func" else "statements")


def _item_ast(piece: pipeline.Piece, text: str):
    """The build pass for one item: a Function, a Decl or the seed Block.  A function whose header
    does not parse (or that holds an error the passes met) raises it when it is called; a declaration
    or the seed raises it now."""
    item, part = piece.item, piece.raw
    if item.kind == "func":
        try:
            return _tree_ast(piece, text)
        except TinyCError as e:
            first, last = part[0], part[-1]
            err = ast.ErrorStmt(e.address, e.address, int(e.code), e.address)
            return ast.Function(start_of(first), end_of(last), name=item.name, params=[],
                                body=ast.Block(end_of(last), end_of(last), body=[]), error=err)
    block = _tree_ast(piece, text)
    if item.kind == "seed":
        body = block.body[0] if block.body else ast.Block(start_of(part[0]), end_of(part[-1]), body=[])
        return body
    decl = block.body[0] if block.body else None
    if not isinstance(decl, ast.Decl):
        at = start_of(part[0])
        raise TinyCError(decl.code if isinstance(decl, ast.ErrorStmt) else ErrorCode.LINKERR,
                         decl.address if isinstance(decl, ast.ErrorStmt) else at)
    return decl


def parse_item(tokens: list[Token], item: TopItem, text: str, outer: list[Level]):
    """The AST of one top-level item (a Function, a Decl or the seed Block): the classify, parse,
    recovery and build passes of :data:`FRONT_END` on that item alone.

    A statement that does not parse raises its error when it runs; a function whose header does not
    parse raises it when it is called."""
    source = pipeline.Source(text, 0, None)
    pieces = [_piece(tokens, item, text, outer)]
    pipeline.recover(FRONT_END, source, pipeline.parse(FRONT_END, source, pieces))
    return _item_ast(pieces[0], text)


def parse_typed(code: str, base: int, outer: list[Level]) -> list[ast.Stmt]:
    """Statements typed at the debugger (:mod:`tinyc.debug.debugger`), parsed as a ``-r`` seed is: ``code``
    lies at address ``base`` of the program memory, its names resolve in ``outer`` (levels keyed by
    canonical name: the selected frame's locals, the application's globals, the libraries).  A statement
    that does not parse becomes an ErrorStmt."""
    text = "[" + code + "]"
    full = " " * (base - 1) + text
    tokens = tokenize(text)
    for t in tokens:
        t.start_pos = start_of(t) + base - 1
        t.end_pos = end_of(t) + base - 1
    item = TopItem("seed", 0, len(tokens))
    block = parse_item(tokens, item, full, outer)
    return list(block.body) if isinstance(block, ast.Block) else [block]


# ---- the dialect's pieces of the syntax pipeline (tinyc.syntax.pipeline)

def lex(source: pipeline.Source) -> list[Token]:
    """The lex pass over the program memory (``source.context``: its Layout): the seed and libraries,
    then the application lexed on its own (the ``endlibrary`` marker is a keyword even when a name
    follows it), ``int``/``char`` prefixes split off top-level names (:func:`split_top_keywords`)."""
    text, app = source.text, source.context.app
    tokens = tokenize(text[:app])
    for t in tokenize(text[app:]):
        t.start_pos = start_of(t) + app
        t.end_pos = end_of(t) + app
        tokens.append(t)
    return split_top_keywords(tokens, text)


def scan_top(source: pipeline.Source, tokens: list[Token]) -> pipeline.TopLevel:
    """The level scan: the linker's items (:func:`scan`, errors 20, 22, 2 as that linker gave them) and
    the [program, library] levels (:func:`levels`)."""
    items = scan(tokens, source.context.lib)
    return pipeline.TopLevel(tokens, items, list(levels(tokens, items)))


def _classify(source: pipeline.Source, top: pipeline.TopLevel) -> list[pipeline.Piece]:
    """A piece per item but the ``endlibrary`` markers (only the last one is kept, unparsed)."""
    markers = [k for k, it in enumerate(top.items) if it.kind == "endlibrary"]
    last_marker = markers[-1] if markers else -1
    pieces = []
    for k, it in enumerate(top.items):
        if it.kind != "endlibrary":
            pieces.append(_piece(top.tokens, it, source.text, top.levels))
        elif k == last_marker:
            pieces.append(pipeline.Piece(it, top.tokens[it.first:it.first + 1], None))
    return pieces


def _build(source: pipeline.Source, top: pipeline.TopLevel, pieces: list[pipeline.Piece]):
    """``(program, seed)``: the Program of every library and application item (addresses are program-memory
    offsets) and the seed statement; raises a declaration's or the seed's error in the text's order."""
    program = ast.Program(0, len(source.text), items=[])
    seed = None
    for p in pieces:
        if p.item.kind == "endlibrary":
            program.items.append(ast.EndLibrary(start_of(p.raw[0]), end_of(p.raw[0])))
            continue
        node = _item_ast(p, source.text)
        if p.item.kind == "seed":
            seed = node
        else:
            program.items.append(node)
    return program, seed if seed is not None else ast.Block(0, 0, body=[])


FRONT_END = pipeline.FrontEnd("Gibson", lex, scan_top, _classify, _parser,
                              lambda tokens: gibson_syntax_error(tokens), _build)
