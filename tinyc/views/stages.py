"""Stage views: what each stage of the interpreter makes of a program, as readable text.

One function per stage, for notebooks and tests: :func:`tokens` (lexer and lexer hack), :func:`parse_tree`
(the Lark LALR parse tree), :func:`ast_dump` (our AST with source positions) and :func:`link_map` (symbol
levels and the memory map).  The ``tinyc tokens|parse|ast|link`` subcommands print the same text.

A program is placed the way ``tinyc run`` places it: the system library is booted, the shell's buffers
``ln`` and ``pr`` are allocated after it, and the file is loaded into ``pr`` (reference section 9.2), so
every address shown is the address the program really runs at.  A statement given with ``-e`` is
placed in ``ln``, as a statement typed at the shell is.  Positions print as ``line:column`` (1-based,
line 1 = the first line of the file) and as absolute byte addresses ``@address``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from lark import Token

from .. import ast
from ..errors import TinyCError, error_report
from ..driver.interpreter import Machine
from ..driver.session import Session
from ..machine.memory import DEFAULT_MEMORY
from ..machine.port import EngineFactory
from ..syntax.lexer import Level, canonical, classify, tokenize
from ..syntax.positions import end_of, start_of
from ..link.linker import LinkedText, link
from ..syntax.pipeline import parse_program, parse_statements, prepare
from ..syntax.parser import parse_tree as _lark_tree
from ..driver.workspace import LINE, Workspace

LAYOUT = ("WS", "COMMENT", "NEWLINE")


# ---- loading a program as `tinyc run` does

@dataclass
class Loaded:
    """A booted machine with a program in the shell's ``pr`` buffer and an optional statement for ``ln``.

    ``text`` is ``pr(0..pe)`` decoded (``text[0]`` is the newline sentinel, so ``text.count("\\n", 0, i)``
    is the 1-based file line of offset ``i``); ``base`` is the address of ``pr(0)``.
    """

    machine: Machine
    workspace: Workspace
    statement: str | None = None

    @property
    def base(self) -> int:
        return self.workspace.pr

    @property
    def text(self) -> str:
        return self.workspace.text.decode("latin-1")

    def program_levels(self) -> list[Level]:
        """The name levels the program is classified with: the library's (section 3)."""
        return [self.machine.library_lex]

    def statement_levels(self) -> list[Level]:
        """The name levels of a typed statement: the program's own top level, then the library."""
        _, levels = prepare(self.text, self.program_levels(), self.base)
        return levels

    def report(self, e: TinyCError) -> str:
        """The tiny-c error report for ``e``: in the statement if it lies in ``ln``, else in the program."""
        ws = self.workspace
        if self.statement is not None and ws.ln <= e.address < ws.pr:
            return error_report(e.code, b"\n" + self.statement.encode("latin-1"), e.address - ws.ln + 1)
        return ws.report(e.code, e.address - ws.pr)


def load(program: bytes = b"", statement: str | None = None, int_bits: int = 32,
         memory: int = DEFAULT_MEMORY, system: bytes | None = None, session: Session | None = None,
         engine: EngineFactory | None = None) -> Loaded:
    """Boot a library in ``session`` (by default a new reference-engine Session of ``int_bits`` and ``memory``)
    on a machine of the engine ``engine`` makes (default: the session's), and load ``program``.

    ``system`` is a system file's text (default: tinyc/lib/system.ipl); its part before ``endlibrary``
    becomes the library level.
    CR bytes are dropped from the program, as ``.r`` drops them.  Raises DoesNotFit (a ValueError) if the program does
    not fit the ``pr`` buffer (90000 bytes; 12000 with 16-bit ints, section 14 item 21).
    """
    if session is None:
        session = Session(engine="reference", memory=memory, int_bits=int_bits)
    m, ws = session.boot(system, engine)
    if not ws.append(program.replace(b"\r", b"")):
        from ..machine.shipped import DoesNotFit
        raise DoesNotFit("the program does not fit the program buffer")
    return Loaded(m, ws, statement)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line (of the file: text[0] is the sentinel line 0) and column of ``offset`` in ``text``."""
    start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset), offset - start + 1


def shown_token(value: str) -> str:
    """Program text for a view: its bytes as they are (the terminal decodes them), line ends escaped."""
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


# ---- stage 1: tokens

_WHY = {
    "FNAME0": "a call with no arguments: the line ends right after the name",
    "CPAREN": "the statement's own parenthesis: its ) is optional",
    "CALLPAREN": "opens an argument list",
    "RETURN0": "return at the end of a line: returns 0",
}


def _token_rows(loaded: Loaded, layout: bool) -> list[tuple[Token, str, str]]:
    """(raw token, parser type, note) for the program, or for the ``-e`` statement if there is one."""
    if loaded.statement is not None:
        text, base = loaded.statement, loaded.workspace.ln
        levels = loaded.statement_levels()
        classified = classify(tokenize(text, base), levels, statements=True)
    else:
        text, base = loaded.text, loaded.base
        classified, levels = prepare(text, loaded.program_levels(), base)
    raw = tokenize(text, base)
    by_pos = {t.start_pos: t for t in classified}
    rows, depth = [], 0
    for t in raw:
        c = by_pos.get(t.start_pos)
        if c is None:
            if layout and not _sentinel(loaded, t):
                rows.append((t, t.type, ""))
            continue
        depth += {"LSQB": 1, "RSQB": -1}.get(c.type, 0)
        note = ""
        if c.type != t.type:
            note = f"was {t.type}: "
            if c.type in ("FNAME", "FNAME0"):
                name = canonical(t.value)
                if loaded.statement is None and depth == 0:
                    where = "defines a function"
                elif name in levels[0].names:
                    where = "a function of this program"
                else:
                    where = "a library function"
                note += where + ("; " + _WHY["FNAME0"] if c.type == "FNAME0" else "")
            else:
                note += _WHY[c.type]
        rows.append((t, c.type, note))
    return rows


def tokens(text: str | bytes | Loaded, statement: str | None = None, layout: bool = False, **machine) -> str:
    """The token stream of a program (or of ``statement`` typed against it), one token a line.

    Each line: ``line:col``, the type the parser sees, the token text, and for a retyped token the
    lexer type it had and why.  That retyping is the lexer hack: whether ``pn x`` is a call depends on
    whether ``pn`` is a function in scope, which a context-free grammar cannot know, so the lexer looks
    the name up and hands the parser FNAME instead of NAME.  ``layout`` includes blanks, comments and
    newlines (which the parser never sees).  Raises TinyCError on a bad character or literal.
    """
    loaded = text if isinstance(text, Loaded) else load(_bytes(text), statement, **machine)
    listing, error = token_listing(loaded, layout)
    if error is not None:
        raise error
    return listing


def token_listing(loaded: Loaded, layout: bool = False) -> tuple[str, TinyCError | None]:
    """The token listing of :func:`tokens`, and the TinyCError of a bad character or literal (None if
    the text lexes): then the listing holds the tokens before it, as the lexer made them (not retyped)."""
    src = loaded.statement if loaded.statement is not None else loaded.text
    try:
        rows, error = _token_rows(loaded, layout), None
    except TinyCError as e:
        rows, error = _rows_before(loaded, layout, e.address), e
    out = []
    for t, kind, note in rows:
        line, col = _line_col("\n" + src if loaded.statement is not None else src,
                              start_of(t) + (loaded.statement is not None))
        value = shown_token(t.value)
        out.append(f"{line:>4}:{col:<4} {kind:<10} {value:<12} {note}".rstrip())
    return "".join(line + "\n" for line in out), error


def _rows_before(loaded: Loaded, layout: bool, address: int) -> list[tuple[Token, str, str]]:
    """The raw tokens that end before ``address`` (a lexing error's), each with its lexer type."""
    text, base = (loaded.statement, loaded.workspace.ln) if loaded.statement is not None else (loaded.text, loaded.base)
    rows = []
    for t in tokenize(text, base, tolerant=True):
        if base + end_of(t) > address:
            break
        if (layout or t.type not in _LAYOUT) and not _sentinel(loaded, t):
            rows.append((t, t.type, ""))
    return rows


_LAYOUT = frozenset({"WS", "COMMENT", "NEWLINE"})


def _sentinel(loaded: Loaded, t: Token) -> bool:
    """Whether ``t`` is the newline ``pr(0)`` before the program (not a line of the file)."""
    return loaded.statement is None and start_of(t) == 0


# ---- stage 2: the Lark parse tree

def tree_lines(node, indent: int, out: list[str]) -> None:
    """Append to ``out`` the lines of the Lark parse tree ``node`` (a Tree or a Token), ``indent`` levels in."""
    pad = "  " * indent
    if isinstance(node, Token):
        shown = shown_token(node.value)  # quoted as repr quotes, but not repr: it would escape UTF-8's bytes
        quote = '"' if "'" in shown and '"' not in shown else "'"
        out.append(f"{pad}{node.type} {quote}{shown}{quote}")
        return
    out.append(pad + node.data)
    for child in node.children:
        tree_lines(child, indent + 1, out)


def parse_tree(text: str | bytes | Loaded, statement: str | None = None, **machine) -> str:
    """The Lark LALR parse tree, one node a line, indented; tokens show as ``TYPE 'text'``.

    Rules the grammar inlines (names starting with ``?`` or ``_``) do not appear; punctuation the
    grammar names only to match (``[``, ``]``, ``;``...) is dropped by Lark.  Raises TinyCError.
    """
    loaded = text if isinstance(text, Loaded) else load(_bytes(text), statement, **machine)
    if loaded.statement is not None:
        base = loaded.workspace.ln
        toks = classify(tokenize(loaded.statement, base), loaded.statement_levels(), statements=True)
        tree = _lark_tree(toks, "statements", base, loaded.statement)
    else:
        toks, _ = prepare(loaded.text, loaded.program_levels(), loaded.base)
        tree = _lark_tree(toks, "program", loaded.base, loaded.text)
    out: list[str] = []
    tree_lines(tree, 0, out)
    return "\n".join(out) + "\n"


# ---- stage 3: the AST

def node_lines(node: ast.Node, label: str, indent: int, place, out: list[str]) -> None:
    """Append to ``out`` the AST dump of ``node`` (``label``: its field in the parent), ``indent`` levels in;
    ``place(offset) -> str`` says where an offset is (``LINE:COL``)."""
    attrs, children = [], []
    for name in ast.fields(node):
        if name in ("pos", "end", "name_end", "after", "paren"):  # cursors of errors 26, 21, 7: not shown
            continue
        v = getattr(node, name)
        if isinstance(v, (int, str)):
            attrs.append(f"{v} {chr(v & 255)!r}" if isinstance(node, ast.CharLit) and isinstance(v, int) else f"{name}={v}"
                         if name == "length" else str(v))
        elif isinstance(v, list):
            children += [(name, c) for c in v]
        elif isinstance(v, (tuple, frozenset)):  # a Reparse's names and what its parse assumed
            attrs.append(f"{name}=" + ",".join(map(str, sorted(v) if isinstance(v, frozenset) else v)))
        elif v is not None:
            children.append((name, v))
    head = "  " * indent + (f"{label}: " if label else "") + type(node).__name__
    head += (" " + " ".join(attrs)) if attrs else ""
    out.append(f"{head:<44} {place(node.pos)}-{place(node.end)}  @{node.pos}")
    plain = {"items", "body", "names", "args", "params"}
    for name, child in children:
        node_lines(child, "" if name in plain else name, indent + 1, place, out)


def ast_dump(text: str | bytes | Loaded, statement: str | None = None, **machine) -> str:
    """Our AST (tinyc/ast.py), one node a line: the node type and its plain fields, indented children
    (labelled by field when the role is not obvious: cond, then, else, left, right...), then the source
    span ``line:col-line:col`` (end exclusive) and ``@address`` of its first byte.  Raises TinyCError.
    """
    loaded = text if isinstance(text, Loaded) else load(_bytes(text), statement, **machine)
    out: list[str] = []
    if loaded.statement is not None:
        ln, src = loaded.workspace.ln, "\n" + loaded.statement
        stmts = parse_statements(loaded.statement, loaded.statement_levels(), ln)

        def place(addr: int) -> str:
            return "%d:%d" % _line_col(src, addr - ln + 1)
        for s in stmts:
            node_lines(s, "", 0, place, out)
    else:
        src, base = loaded.text, loaded.base

        def place(addr: int) -> str:
            return "%d:%d" % _line_col(src, addr - base)
        node_lines(parse_program(src, loaded.program_levels(), base), "", 0, place, out)
    return "\n".join(out).replace("orelse:", "else:") + "\n"


# ---- stage 4: linking and the memory map

def link_program(loaded: Loaded) -> LinkedText:
    """Link the program as MC 11 does: its globals are allocated just after its text (section 14 item 14).

    Leaves the allocation in place (``machine.top`` moves past the globals); raises TinyCError."""
    m, ws = loaded.machine, loaded.workspace
    text = ws.text
    m.top = ws.pr + ws.pe + 1
    program = parse_program(text.decode("latin-1"), loaded.program_levels(), ws.pr)
    return link(program, ws.pr, text, m.allocate, m.engine.evaluate_constant)


def _symbol_rows(table, source: bytes, base: int, sizeof) -> list[str]:
    rows = []
    for s in table:
        if s.kind == "func":
            fn = s.function
            line = source.count(b"\n", 0, fn.pos - base) + (0 if source[:1] == b"\n" else 1)
            params = ",".join(d.name for d in fn.param_names)
            what, size = "function", fn.end - fn.pos
            where = f"text, line {line}" + (f", params {params}" if params else "")
        elif s.array:
            what, size = f"{s.type} array", s.length * sizeof(s.type)
            where = f"{s.length} elements, ({s.length - 1}) declared"
        else:
            what, size, where = s.type, sizeof(s.type), ""
        rows.append(f"  {s.name:<9} {what:<11} {size:>7} bytes  @{s.address:<8} {where}".rstrip())
    return rows


def link_map(text: str | bytes | Loaded, show_library: bool = True, **machine) -> str:
    """The linked program: the library and program symbol levels, then the memory map.

    Each symbol line: its canonical name, class (function, int, char, int array, char array), size in
    bytes (a function's: its source text), its address (a function's: where its text starts; an
    array's: its data) and, for a function, its line.  The memory map lists the regions of the flat
    memory from address 0 up.  With ``show_library`` False the library's functions are only counted.  Raises TinyCError when the program has a syntax or link error.
    """
    loaded = text if isinstance(text, Loaded) else load(_bytes(text), **machine)
    m, ws = loaded.machine, loaded.workspace
    lib = m.library_text
    assert lib is not None  # load() booted the library
    lib_globals = (lib.base + len(lib.text) + 1, ws.ln)
    globals_ = (ws.pr + ws.pe + 1, 0)
    linked = link_program(loaded)
    globals_ = (globals_[0], m.top)
    sizeof = m.memory.sizeof
    out = [f"level 1, library: {len(list(m.library))} symbols, linked from the system file"]
    shown = [s for s in m.library if show_library or s.kind != "func"]
    out += _symbol_rows(shown, lib.text, lib.base, sizeof)
    if not show_library:
        out.append(f"  ... and {len(list(m.library)) - len(shown)} functions (tinyc link --library lists them)")
    for table in linked.tables:
        count = len(list(table))
        out.append(f"level 2, program: {count} symbols" + ("" if count else " (none)"))
        out += _symbol_rows(table, ws.text, ws.pr, sizeof)
    out.append("level 3, locals: made when a function runs (its parameters and declarations)")
    pr_end = ws.pr + ws.capacity + 1
    regions = [
        (lib.base, lib.base + len(lib.text) + 1, "system text: the system file (its library part is linked), NUL-ended"),
        (*lib_globals, "library globals"),
        (ws.ln, ws.pr, f"ln({LINE}): the shell's line buffer, where a typed statement goes"),
        (ws.pr, ws.pr + 1, "pr(0): the newline sentinel before the program"),
        (ws.pr + 1, ws.pr + ws.pe + 1, "program text, pr(1..pe), pe = %d" % ws.pe),
        (*globals_, "program globals, allocated when the program is linked"),
        (globals_[1], pr_end, "free: the rest of pr; call frames (parameters, locals) grow up from here"),
        (pr_end, m.memory.size, "free: after pr, for frames that outgrow it"),
    ]
    regions = [(lo, hi, what) for lo, hi, what in regions if hi > lo or what.startswith("program")]
    out.append(f"memory map ({m.memory.size} bytes, {m.memory.sizeof('int')}-byte ints):")
    for first, end, what in regions:
        span = f"{first}..{end - 1}" if end > first else f"{first}"
        out.append(f"  {span:<17} {end - first:>7} bytes  {what}")
    return "\n".join(out) + "\n"


def _bytes(text: str | bytes) -> bytes:
    return text.encode("latin-1") if isinstance(text, str) else text


# ---- the command line

VIEWS: dict[str, Callable[..., str]] = {"tokens": tokens, "parse": parse_tree, "ast": ast_dump, "link": link_map}


def file_view(session: Session, name: str, path: str) -> str:
    """The stage view ``name`` (tokens, parse, ast, link) of the program file ``path`` loaded in ``session``
    (the tiny-c/PC dialect's ``view`` hook); the tiny-c report instead when a stage rejects it."""
    from ..machine.console import align_report
    with open(path, "rb") as f:
        loaded = load(f.read(), session=session)
    try:
        return link_map(loaded, show_library=False) if name == "link" else VIEWS[name](loaded)
    except TinyCError as e:
        return align_report(loaded.report(e))
