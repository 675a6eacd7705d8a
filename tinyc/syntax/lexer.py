"""Lexer: tiny-c source text to a token stream ready for the LALR parser.

Tokens come from Lark's basic lexer over the terminals of ``grammar.lark`` (reference section 2).
Whether a bare name is a call is decided here, not in the grammar (reference section 4, section 14
item 8): like C's typedef-name "lexer hack", :func:`classify` retypes each NAME that denotes a function
in its scope (the running function's locals first, then the program level, then the library level) as
FNAME, or FNAME0 when the line ends right after it.  It also marks the "(" after if/while (CPAREN),
the "(" after a function name or MC (CALLPAREN), and a "return" that ends its line (RETURN0).
"""

from __future__ import annotations

import os
from functools import lru_cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from ..errors import ErrorCode, TinyCError
from .positions import column_of, end_of, line_of, start_of
# the names and levels come from the level scan; re-exported here, where callers have long found them
from .toplevel import Level as Level, canonical as canonical, declared_names, scan_levels as scan_levels

if TYPE_CHECKING:  # Lark is imported only when something is tokenized: cached runs never need it
    from collections.abc import Iterator
    from typing import Any

    from lark import Lark, Token
    from lark.lexer import BasicLexer

with open(os.path.join(os.path.dirname(__file__), "grammar.lark"), encoding="utf-8") as _f:  # os.path: no pathlib
    GRAMMAR = _f.read()
_LAYOUT = {"WS", "COMMENT", "NEWLINE"}


def cached_lark(role: str, grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, **options)``, its analysis kept in the user cache directory as a sealed entry
    (:func:`tinyc.dirs.sealed_read`): named by a hash of the grammar, the options and Lark's version, and
    loaded (unpickled by Lark) only when its tag proves that this user's tinyc wrote it.  Lark's own
    ``cache=`` option unpickles whatever file it finds (in a shared temporary directory, for ``True``)."""
    import hashlib
    import io
    import lark
    from ..dirs import cache_dir, sealed_read, sealed_write
    shown = {k: getattr(v, "__qualname__", v) for k, v in sorted(options.items())}
    digest = hashlib.sha256(f"{lark.__version__}\0{shown!r}\0{grammar}".encode()).hexdigest()[:16]
    path = cache_dir() / f"lark-{role}-{digest}.sealed"
    data = sealed_read(path)
    if data is not None:
        try:
            return lark.Lark.load(io.BytesIO(data))
        except Exception:  # an entry of another Lark: analyse again
            pass
    made = lark.Lark(grammar, **options)
    out = io.BytesIO()
    made.save(out)
    sealed_write(path, out.getvalue())
    return made


@lru_cache(maxsize=1)
def _tokenizer() -> Lark:
    return cached_lark("lexer", GRAMMAR, parser="lalr", lexer="basic", start="program")


@lru_cache(maxsize=None)
def _keeping_lexer(lark: Lark) -> BasicLexer:
    """A lexer of ``lark``'s grammar that keeps the ignored tokens, built once: ``Lark.lex(text,
    dont_ignore=True)`` builds a new one at every call (a millisecond: one per chunk of text between
    two characters no token starts with, which made lexing quadratic)."""
    return lark._build_lexer(dont_ignore=True)


def lex_all(lark: Lark, text: str) -> Iterator[Token]:
    """The tokens of ``text`` by ``lark``'s lexer, the ignored ones (layout) included, as
    ``lark.lex(text, dont_ignore=True)`` gives them (UnexpectedCharacters where none matches)."""
    try:
        from lark.lexer import LexerThread
        thread = LexerThread.from_text(_keeping_lexer(lark), text)
    except (ImportError, AttributeError):  # an older Lark: its own way, a lexer per call
        return lark.lex(text, dont_ignore=True)
    # Lark leaves LexerThread.lex unannotated
    tokens: Iterator[Token] = thread.lex(None)  # type: ignore[no-untyped-call]
    return tokens


def tokenize(text: str, base: int = 0, tolerant: bool = False) -> list[Token]:
    """All tokens of ``text`` including layout (WS, COMMENT, NEWLINE), each with ``start_pos``/``end_pos``.

    Raises TinyCError 2 (CURSERR) for an unterminated string or character literal and 9 (SYNXERR) for a
    character no token can start with; the error offset is ``base`` plus the position in ``text``.
    With ``tolerant`` such text becomes a BADQUOTE token (the rest of its line) or a BADCHAR token
    instead, so that the error is raised only if the statement holding it runs (section 14 item 16).
    """
    from lark import Token
    from lark.exceptions import UnexpectedCharacters
    out: list[Token] = []
    offset, line0, col0 = 0, 1, 1  # where the chunk being lexed starts: offset, line, column
    while True:
        chunk = text[offset:]
        try:
            for t in lex_all(_tokenizer(), chunk):
                out.append(t if not offset else _moved(t, offset, line0, col0))
            return out
        except UnexpectedCharacters as e:
            assert e.pos_in_stream is not None  # UnexpectedCharacters always records where lexing stopped
            at = offset + e.pos_in_stream
            quote = text[at] in "'\""
            if not tolerant:
                raise TinyCError(ErrorCode.CURSERR if quote else ErrorCode.SYNXERR, base + at) from None
            end = at + 1
            if quote:
                nl = text.find("\n", at)
                end = len(text) if nl < 0 else nl
            line0 += text.count("\n", offset, at)
            col0 = at - text.rfind("\n", 0, at)
            out.append(_moved(Token("BADQUOTE" if quote else "BADCHAR", text[at:end], start_pos=0, line=1,
                                    column=1, end_pos=end - at), at, line0, col0))
            line0 += text.count("\n", at, end)
            col0 = end - text.rfind("\n", 0, end)
            offset = end


def _moved(t: Token, offset: int, line0: int, col0: int) -> Token:
    """``t``, a token just lexed from a chunk that starts at ``offset`` (line ``line0``, column ``col0`` of
    the text), moved in place to its position in the whole text; each chunk's start is counted once, so
    lexing stays linear."""
    line = line0 + line_of(t) - 1
    column = column_of(t) + col0 - 1 if t.line == 1 else column_of(t)
    end_line = line + t.value.count("\n")
    t.end_column = (column if end_line == line else 1) + len(t.value.rsplit("\n", 1)[-1])
    t.start_pos, t.end_pos = start_of(t) + offset, end_of(t) + offset
    t.line, t.column, t.end_line = line, column, end_line
    return t


def classify(tokens: list[Token], outer: list[Level], statements: bool = False,
             local_names: set[str] | None = None) -> list[Token]:
    """Drop layout tokens and retype names and parentheses for the parser (the lexer hack).

    ``outer`` lists the symbol levels searched after a function's locals, in order (program level, then
    library level).  Locals are the parameters and body declarations of the enclosing function that
    come before the token in the text, so a local shadows a function of the same name from there on.
    With ``statements`` the tokens are statements to run (MC 11), not a program, so a name at the top
    level is a use, not a function definition; ``local_names`` are then the locals the statements start
    with (a text parsed again while a function runs, :func:`~tinyc.syntax.pipeline.reparse`).  Returns a
    new list of tokens with the layout removed.
    """
    return _LexerHack(tokens, outer, statements, local_names).run()


# the "(" after these (already retyped) tokens: a condition's own parenthesis (section 14 item 15) or
# a call's (section 4, "Calling"; section 8)
_PAREN_AFTER = {"IF": "CPAREN", "WHILE": "CPAREN", "FNAME": "CALLPAREN", "MC": "CALLPAREN"}


class _LexerHack:
    """:func:`classify` walking one text: the scope it is in (block depth, the enclosing function's
    locals so far) decides what each name denotes."""

    def __init__(self, tokens: list[Token], outer: list[Level], statements: bool,
                 local_names: set[str] | None) -> None:
        self.tokens, self.outer, self.statements = tokens, outer, statements
        self.sig_index = [k for k, t in enumerate(tokens) if t.type not in _LAYOUT]  # where each kept token is
        self.depth = 0  # of [ ] blocks
        # the locals of the function being read; None at the top level of a program (no function yet)
        self.local: set[str] | None = set(local_names or ()) if statements else None
        self.declared: set[int] = set()  # ids of the NAME tokens that are being declared

    def run(self) -> list[Token]:
        """The kept tokens, each retyped where the rules say so (a new token; the input is unchanged)."""
        from lark import Token
        sig = [self.tokens[k] for k in self.sig_index]
        out: list[Token] = []
        for pos, t in enumerate(sig):
            self.follow_scope(sig, pos)
            kind = self.kind(t, pos, out[-1].type if out else None)
            out.append(t if kind == t.type else Token.new_borrow_pos(kind, t.value, t))
        return out

    def follow_scope(self, sig: list[Token], pos: int) -> None:
        """Declarations add locals (section 3); the ``]`` that closes a function's body ends them (section 4)."""
        kind = sig[pos].type
        if kind in ("INT", "CHAR"):
            self.declare(sig, pos)
        elif kind == "LSQB":
            self.depth += 1
        elif kind == "RSQB":
            self.depth = max(0, self.depth - 1)
            if self.depth == 0 and not self.statements:
                self.local = None

    def declare(self, sig: list[Token], pos: int) -> None:
        """The names declared by the ``int``/``char`` at ``sig[pos]``: not uses, and, inside a function,
        locals from here on that hide a function of the same name (section 14 item 8)."""
        for name in declared_names(sig, pos):
            self.declared.add(id(name))
            if self.local is not None:  # a top-level block has no locals to shadow
                self.local.add(canonical(name.value))

    def kind(self, t: Token, pos: int, prev: str | None) -> str:
        """The type the parser reads for ``t``, the ``pos``-th kept token; ``prev`` is the type given to the
        token before it."""
        if t.type == "NAME" and id(t) not in self.declared:
            return self.name_kind(t, pos)
        if t.type == "RETURN":  # "return" alone on its line returns 0 (section 4, "Return")
            return "RETURN0" if self.ends_line(pos) else "RETURN"
        if t.type == "MULOP" and pos > 0 and self.newline_before(pos):
            return "LINEMULOP"  # the original skipped newlines after a term only, so x NL *5 is two statements
        if t.type == "LPAR":
            return _PAREN_AFTER.get(prev or "", "LPAR")
        return t.type

    def name_kind(self, t: Token, pos: int) -> str:
        """A name in use: FNAME where it denotes a function in its scope, FNAME0 when its line ends right
        after it (a call without arguments, section 14 item 8), else NAME (a variable)."""
        if self.depth == 0 and self.local is None:  # the linker's rule: a top-level word defines a function
            self.local = set()  # (section 4, "Linking"); its parameters are declared next
        elif not _is_function(canonical(t.value), self.local or set(), self.outer):
            return "NAME"
        return "FNAME0" if self.ends_line(pos) else "FNAME"

    def ends_line(self, pos: int) -> bool:
        """Whether only blanks stand between the ``pos``-th kept token and a newline, a comment or the end."""
        j, n = self.sig_index[pos] + 1, len(self.tokens)
        while j < n and self.tokens[j].type == "WS":
            j += 1
        return j == n or self.tokens[j].type in ("NEWLINE", "COMMENT")

    def newline_before(self, pos: int) -> bool:
        """Whether a newline stands between the ``pos``-th kept token and the one before it."""
        a, b = self.sig_index[pos - 1], self.sig_index[pos]
        return any(self.tokens[k].type == "NEWLINE" for k in range(a + 1, b))


def run_time_names(tokens: list[Token], outer: list[Level], top: int, surely: set[str] | frozenset[str] = frozenset(),
                   dynamic: frozenset[str] | None = None) -> tuple[frozenset[str], dict[int, tuple[str, bool]]]:
    """The names whose kind :func:`classify` could only guess: ``(dynamic, marks)``.

    ``tokens`` are classified tokens of one function (``top`` 1: its body is at block depth 1) or of
    statements (``top`` 0).  A declaration at depth ``top`` or less runs before every later token at
    that depth and after every earlier one, so the textual order of :func:`classify` is the order of
    running.  A declaration in a nested block may not run (a branch not taken) or may run before a
    token that comes earlier in the text (a loop): ``dynamic`` holds such names that are also functions
    of an outer level (the original's lookup at run time decides between the two; section 3).  ``marks``
    maps the text offset of each use of a dynamic name not already a local for sure (``surely``, a
    parameter, a declaration before it in its block or an enclosing one) to (name, whether classify
    took it for a local).
    ``dynamic`` may be given (a fragment of a function parsed again)."""
    if dynamic is None:
        found: set[str] = set()
        depth = 0
        for i, t in enumerate(tokens):
            if t.type == "LSQB":
                depth += 1
            elif t.type == "RSQB":
                depth -= 1
            elif t.type in ("INT", "CHAR") and depth > top:
                found |= {canonical(n.value) for n in declared_names(tokens, i)}
        dynamic = frozenset(n for n in found if _is_function(n, set(), outer))
    marks: dict[int, tuple[str, bool]] = {}
    if not dynamic:
        return dynamic, marks
    # per open block, the names its statements declared so far: locals for sure in the rest of it
    sure: list[set[str]] = [set(surely)]
    declared: set[int] = set()
    for i, t in enumerate(tokens):
        if t.type in ("INT", "CHAR"):
            names = declared_names(tokens, i)
            declared |= {id(n) for n in names}
            sure[-1] |= {canonical(n.value) for n in names}
        elif t.type == "LSQB":
            sure.append(set())
        elif t.type == "RSQB":
            if len(sure) > 1:
                sure.pop()
        elif t.type in ("NAME", "FNAME", "FNAME0") and len(sure) > top and id(t) not in declared:
            name = canonical(t.value)
            if name in dynamic and not any(name in level for level in sure):
                marks[start_of(t)] = (name, t.type == "NAME")
    return dynamic, marks


def _is_function(name: str, local: set[str], outer: list[Level]) -> bool:
    if name in local:
        return False
    for level in outer:
        if name in level.names:
            return level.names[name]
    return False
