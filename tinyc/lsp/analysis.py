"""What the language server knows of one tiny-c document (``tinyc lsp``, :mod:`tinyc.lsp.server`).

An :class:`Analysis` is made from the document's text by tinyc's own front end, never by a parser of its
own: for tiny-c/PC the library is booted once, the text is read into the program buffer and linked as
``tinyc check`` links it (:func:`tinyc.views.check.linked_problems`: the problems and the AST in one
pass); for Gibson's dialect the file is laid out as ``tinyc run --dialect gibson`` lays it out and checked
by the dialect's own ``check`` (:mod:`tinyc.dialects.gibson.stages`, found through the dialect's hooks).

Positions: the parsers work on bytes (a text is read one byte to one character) and the AST's ``pos`` and
``end`` are addresses in the machine's memory; an Analysis turns them into byte offsets in the document's
UTF-8 text (``offset``), and :class:`Lines` turns those into LSP positions (line, UTF-16 code units)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import bisect
import inspect
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .. import ast
from ..engines.analysis import walk
if TYPE_CHECKING:
    from ..driver.dialect import Dialect
    from ..driver.options import MachineOptions

NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = ("if", "else", "while", "for", "return", "break", "int", "char", "MC")
LIMIT = 200_000  # bytes: a longer text is not analysed (the PC program buffer holds 90000)
TOKEN_TYPES = ["comment", "string", "keyword", "type", "macro", "function", "variable", "number", "operator"]


class Lines:
    """Byte offsets of a UTF-8 text <-> LSP positions ``(line, character)``, both from 0; a character
    counts UTF-16 code units (the protocol's default encoding)."""

    def __init__(self, data: bytes):
        self.data = data
        self.starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]

    def position(self, offset: int) -> tuple[int, int]:
        """The position of byte ``offset`` (clamped into the text)."""
        offset = max(0, min(offset, len(self.data)))
        line = bisect.bisect_right(self.starts, offset) - 1
        before = self.data[self.starts[line]:offset].decode("utf-8", "replace")
        return line, len(before.encode("utf-16-le")) // 2

    def offset(self, line: int, character: int) -> int:
        """The byte offset of a position; past the end of a line is its end, past the last line the end."""
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.data)
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.data)
        text = self.data[start:end].decode("utf-8", "replace")
        units = text.encode("utf-16-le")[:2 * max(0, character)]
        return start + len(units.decode("utf-16-le", "ignore").encode("utf-8"))

    def line_text(self, line: int) -> bytes:
        if not 0 <= line < len(self.starts):
            return b""
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.data)
        return self.data[self.starts[line]:end]


@dataclass
class Symbol:
    """A name the program declares: ``kind`` is "function", "global", "parameter", "local" or "library";
    ``offset``/``end``: the name's bytes at its declaration (-1: in the library); ``type``: int or char
    (functions: their parameters as written, ``int n, char c``); ``size``: an array's bound as written
    (``(10)``) or ""; ``owner``: the function a parameter or local belongs to; ``doc``: the comment
    lines right above a function."""

    name: str
    kind: str
    offset: int
    end: int
    type: str = "int"
    size: str = ""
    owner: str = ""
    doc: str = ""
    span: tuple[int, int] = (0, 0)  # a function's whole text, header to ]

    @property
    def key(self) -> tuple[str, str]:
        return (self.owner if self.kind in ("parameter", "local") else "", self.name)

    def signature(self) -> str:
        if self.kind in ("function", "library"):
            return f"{self.name} {self.type}".rstrip()
        return f"{self.type} {self.name}{self.size}"


@dataclass
class Occurrence:
    """One use or declaration of a name: its bytes ``offset..end`` and the symbol's key."""

    offset: int
    end: int
    key: tuple[str, str]
    declaration: bool = False


@dataclass
class Problem:
    """One finding of the checker: ``code`` (the tiny-c error number, None for a name defined twice),
    the bytes ``offset..end`` it is about, and the checker's message (``error N: meaning``)."""

    code: int | None
    offset: int
    end: int
    message: str


@dataclass
class Analysis:
    """One document, analysed: see the module docstring."""

    data: bytes
    dialect: str
    lines: Lines
    problems: list[Problem] = field(default_factory=list)
    symbols: dict[tuple[str, str], Symbol] = field(default_factory=dict)
    occurrences: list[Occurrence] = field(default_factory=list)
    functions: list[Symbol] = field(default_factory=list)
    calls: list[tuple[int, int, str, list[int]]] = field(default_factory=list)  # (offset, end, name, arg ends)
    machine_calls: list[tuple[int, int, int | None]] = field(default_factory=list)  # (MC offset, end, number)
    library: dict[str, Symbol] = field(default_factory=dict)
    library_path: str | None = None

    # ---- queries

    def occurrence_at(self, offset: int) -> Occurrence | None:
        for occ in self.occurrences:
            if occ.offset <= offset <= occ.end:
                return occ
        return None

    def symbol_at(self, offset: int) -> Symbol | None:
        occ = self.occurrence_at(offset)
        if occ is None:
            word = self.word_at(offset)
            return self.library.get(word) if word else None
        return self.symbols.get(occ.key) or self.library.get(occ.key[1])

    def word_at(self, offset: int) -> str:
        for m in NAME.finditer(self.data, max(0, offset - 64), min(len(self.data), offset + 64)):
            if m.start() <= offset <= m.end():
                return m.group().decode("ascii")
        return ""

    def references(self, key: tuple[str, str]) -> list[Occurrence]:
        return [o for o in self.occurrences if o.key == key]

    def function_at(self, offset: int) -> Symbol | None:
        for f in self.functions:
            if f.span[0] <= offset <= f.span[1]:
                return f
        return None

    def in_scope(self, offset: int) -> list[Symbol]:
        """The names one may write at ``offset``: the enclosing function's parameters and locals, the
        program's globals and functions, then the library's."""
        f = self.function_at(offset)
        mine = [s for s in self.symbols.values() if s.kind in ("parameter", "local") and f is not None
                and s.owner == f.name]
        glob = [s for s in self.symbols.values() if s.kind in ("global", "function")]
        seen = {s.name for s in mine + glob}
        return mine + glob + [s for s in self.library.values() if s.name not in seen]

    def call_at(self, offset: int) -> tuple[str, int] | None:
        """The innermost call around ``offset`` and the index of the argument there."""
        best = None
        for start, end, name, arg_ends in self.calls:
            if start < offset <= end + 1 and (best is None or start >= best[0]):
                best = (start, name, sum(1 for e in arg_ends if e < offset))
        return None if best is None else (best[1], best[2])

    def machine_call_at(self, offset: int) -> int | None | bool:
        for start, end, number in self.machine_calls:
            if start <= offset <= start + 2:
                return number
        return False


# ---- building

def _comment_above(data: bytes, offset: int) -> str:
    """The comment lines (``/*`` or ``//``) right above the line at ``offset``, their markers dropped."""
    start = data.rfind(b"\n", 0, offset) + 1
    out: list[str] = []
    while start > 0:
        prev = data.rfind(b"\n", 0, start - 1) + 1
        line = data[prev:start - 1].strip()
        if not line.startswith((b"/*", b"//")):
            break
        out.append(line[2:].strip().rstrip(b"*/").strip().decode("utf-8", "replace"))
        start = prev
    return "\n".join(reversed(out))


def _name_span(data: bytes, offset: int) -> tuple[int, int]:
    m = NAME.match(data, offset) if 0 <= offset < len(data) else None
    return (offset, m.end()) if m else (offset, offset)


def _size_text(data: bytes, d: ast.Declarator, to_offset) -> str:
    if d.size is None:
        return ""
    start, end = to_offset(d.pos), to_offset(d.end)
    name_end = _name_span(data, start)[1]
    return data[name_end:end].decode("utf-8", "replace").strip()


def _params_text(data: bytes, fn: ast.Function, to_offset) -> str:
    if not fn.params:
        return ""
    start, end = to_offset(fn.params[0].pos), to_offset(fn.params[-1].end)
    return " ".join(data[start:end].decode("utf-8", "replace").split())


def build(data: bytes, dialect: str, program: ast.Program | None, to_offset, problems: list[Problem],
          library: dict[str, Symbol], library_path: str | None = None, canonical=lambda n: n) -> Analysis:
    """An Analysis of the text ``data`` from the AST ``program`` (its positions turned into offsets of
    ``data`` by ``to_offset(address)``, which gives -1 for an address outside the document)."""
    a = Analysis(data, dialect, Lines(data), problems, library=library, library_path=library_path)
    if program is None:
        return a
    items = [it for it in program.items if to_offset(it.pos) >= 0]
    for item in items:  # the program level first: a function may use a global declared below it
        if isinstance(item, ast.Decl):
            for d in item.names:
                start, end = _name_span(data, to_offset(d.pos))
                s = Symbol(d.name, "global", start, end, item.type, _size_text(data, d, to_offset))
                a.symbols.setdefault(s.key, s)
                a.occurrences.append(Occurrence(start, end, s.key, True))
        elif isinstance(item, ast.Function):
            start, end = _name_span(data, to_offset(item.pos))
            s = Symbol(item.name, "function", start, end, _params_text(data, item, to_offset),
                       doc=_comment_above(data, start), span=(start, max(end, to_offset(item.end))))
            a.symbols.setdefault(s.key, s)
            a.functions.append(s)
            a.occurrences.append(Occurrence(start, end, s.key, True))
    for item in items:
        if isinstance(item, ast.Function):
            _function(a, item, to_offset, canonical)
        elif isinstance(item, ast.Decl):
            _uses(a, item, to_offset, set(), "", canonical)
    a.occurrences.sort(key=lambda o: o.offset)
    return a


def _function(a: Analysis, fn: ast.Function, to_offset, canonical) -> None:
    local: set[str] = set()
    for kind, decls in (("parameter", fn.params), ("local", [n for n in walk(fn.body) if isinstance(n, ast.Decl)])):
        for decl in decls:
            for d in decl.names:
                start, end = _name_span(a.data, to_offset(d.pos))
                s = Symbol(d.name, kind, start, end, decl.type, _size_text(a.data, d, to_offset), owner=fn.name)
                a.symbols.setdefault(s.key, s)
                local.add(d.name)
                a.occurrences.append(Occurrence(start, end, s.key, True))
    _uses(a, [fn.params, fn.body], to_offset, local, fn.name, canonical)


def _uses(a: Analysis, root, to_offset, local: set[str], owner: str, canonical) -> None:
    def key(name: str) -> tuple[str, str]:
        return (owner, name) if name in local else ("", name)
    for n in walk(root):
        if isinstance(n, (ast.Var, ast.Index, ast.Call, ast.NameCheck)):
            start = to_offset(n.pos)
            if start < 0:
                continue
            s, e = _name_span(a.data, start)
            if e > s and canonical(a.data[s:e].decode("ascii")) == n.name:
                a.occurrences.append(Occurrence(s, e, key(n.name)))
            if isinstance(n, ast.Call):
                a.calls.append((s, max(e, to_offset(n.end)), n.name, [to_offset(x.end) for x in n.args]))
        elif isinstance(n, ast.MachineCall):
            start = to_offset(n.pos)
            last = n.args[-1] if n.args else None
            a.machine_calls.append((start, to_offset(n.end), last.value if isinstance(last, ast.Number) else None))


def library_symbols(functions, text: bytes, base: int) -> dict[str, Symbol]:
    """The library's functions (``ast.Function`` nodes at addresses from ``base`` in ``text``)."""
    out: dict[str, Symbol] = {}
    for fn in functions:
        at = fn.pos - base

        def off(address: int) -> int:
            return address - base
        out.setdefault(fn.name, Symbol(fn.name, "library", at, at + len(fn.name), _params_text(text, fn, off),
                                       doc=_comment_above(text, at)))
    return out


def machine_call_doc(dialect: str, number: int | None) -> str:
    """What ``MC number`` does in ``dialect``: its routine's name, arguments and docstring."""
    from ..driver.dialect import find
    d = find(dialect)
    routines = d.machine_calls().routines
    if number is None:
        return "MC a, ..., n: machine call number n (the last argument) with the arguments before it"
    routine = routines.get(number)
    if routine is None:
        return f"MC {number}: no such machine call in the {dialect} dialect (error 24)"
    try:
        params = list(inspect.signature(routine).parameters)[2:]
    except (TypeError, ValueError):
        params = []
    doc = inspect.getdoc(routine) or ""
    return f"MC {number}: {routine.__name__}({', '.join(params)})" + (f"\n\n{doc}" if doc else "")


# ---- the dialects' front ends

class PcFront:
    """tiny-c/PC: one booted machine (the library linked once), its program buffer refilled per text."""

    def __init__(self, options: MachineOptions, dialect: Dialect):
        from ..driver.session import Session
        from ..machine.console import Console
        self.m, self.ws = Session.from_options(options, dialect, Console()).boot()
        lib = self.m.library_text
        functions = [s.function for s in (self.m.library.symbols.values() if self.m.library else ())
                     if s.kind == "func" and s.function is not None]
        text = lib.text if lib is not None else b""
        if isinstance(text, str):
            text = text.encode("latin-1")
        self.library = library_symbols(functions, text, lib.base if lib is not None else 0)
        from ..driver.dialect import DEFAULT, find
        d = find(DEFAULT)
        self.name = d.name
        self.library_path = d.package_path(d.library)
        self.canonical = d.canonical
        self.lock = threading.Lock()

    def analyse(self, data: bytes, path: str | None = None) -> Analysis:
        """The analysis of the text ``data`` (``path``: where it is saved, not needed here)."""
        from ..views.check import linked_problems
        with self.lock:
            ws = self.ws
            ws.pe, ws.files = 0, []
            clean = data.replace(b"\r", b"")  # as a file is read into the buffer
            if not ws.append(clean, "document"):
                return Analysis(data, self.name, Lines(data), [Problem(20, 0, 0, f"the text does not fit the program "
                                                                  f"buffer ({ws.capacity} bytes)")])
            program, found = linked_problems(self.m, ws)
            base = ws.pr + 1
        kept = [i for i, b in enumerate(data) if b != 13] + [len(data)] if b"\r" in data else None

        def to_offset(address: int) -> int:
            k = address - base
            if not 0 <= k <= len(clean):
                return -1
            return kept[k] if kept is not None else k
        problems = [problem_at(data, code, to_offset(ws.pr + cursor), msg) for code, cursor, msg in found]
        return build(data, self.name, program, to_offset, problems, self.library, self.library_path, self.canonical)


def problem_at(data: bytes, code: int | None, after: int, message: str) -> Problem:
    """A problem the checker places just after ``after`` (where its report's ``<`` points): the range is
    the name or number that ends there, else the character before."""
    after = max(0, min(after, len(data)))
    start = after
    while start > 0 and (data[start - 1:start].isalnum() or data[start - 1:start] == b"_"):
        start -= 1
    if start == after:
        start = max(0, after - 1)
    if start == after and after < len(data):
        after += 1
    return Problem(code, start, after, message)


def dialect_of(data: bytes, setting: str | None) -> str:
    """The dialect of a document: the file's header (``#include``/``#loadMC``: gibson), else ``setting``
    (the client's ``dialect`` setting, section ``tinyc``), else the default dialect."""
    from ..driver.dialect import DEFAULT, Choices, detect
    found = detect(data.lstrip(b"\xef\xbb\xbf")[:16])
    if found is not None:
        return found.name
    return setting if setting is not None and setting in Choices() else DEFAULT


def path_of(uri: str) -> str | None:
    if not uri.startswith("file://"):
        return None
    from urllib.parse import unquote, urlparse
    return str(Path(unquote(urlparse(uri).path)))


def semantic_data(source: str) -> list[int]:
    """The LSP's relative-encoded semantic tokens of ``source``, classed by the shell's highlighter."""
    from pygments.token import Comment, Keyword, Name, Number, Operator, String
    from ..shell.highlight import TinyCLexer
    classes = [(Comment.Preproc, "macro"), (Comment, "comment"), (String, "string"), (Keyword.Type, "type"),
               (Keyword, "keyword"), (Name.Builtin, "macro"), (Name.Function, "function"), (Name, "variable"),
               (Number, "number"), (Operator, "operator")]
    out: list[int] = []
    line = col = 0
    prev_line = prev_col = 0
    for kind, value in TinyCLexer(stripnl=False, ensurenl=False).get_tokens(source):
        chosen = next((name for cls, name in classes if kind in cls), None)
        pieces = value.split("\n")
        if chosen is not None and value.strip():
            for k, piece in enumerate(pieces):
                width = len(piece.encode("utf-16-le")) // 2
                at_line, at_col = line + k, col if k == 0 else 0
                if width:
                    delta_line = at_line - prev_line
                    out += [delta_line, at_col - prev_col if delta_line == 0 else at_col, width,
                            TOKEN_TYPES.index(chosen), 0]
                    prev_line, prev_col = at_line, at_col
        if len(pieces) > 1:
            line += len(pieces) - 1
            col = len(pieces[-1].encode("utf-16-le")) // 2
        else:
            col += len(value.encode("utf-16-le")) // 2
    return out
