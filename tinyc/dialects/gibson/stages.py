"""Stage views of the Gibson dialect: :func:`tokens`, :func:`parse_tree`, :func:`ast_dump`, :func:`link_map`
and :func:`problems`, what ``tinyc tokens|parse|ast|link|check`` print for a Gibson program.

The program memory is laid out as ``tinyc run`` lays it out (:func:`tinyc.dialects.gibson.machine.load`: the seed
``[main();]``, the libraries, ``endlibrary``, the application) and scanned as that dialect's linker scans it
(:func:`tinyc.dialects.gibson.machine.scan_memory`), so every ``@address`` is the program-memory offset a run's error
report calls ``pr[N]``.  The views show the application file (positions ``line:col`` of the file, header
lines included); the libraries appear in the link map only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import ast
from ...errors import TinyCError
from ...link.linker import LinkedText, link
from . import machine as gibson
from ...machine.console import Console
from .report import gibson_code, report, text_of
from ...driver.interpreter import Machine
from ...driver.session import Session
from .syntax import LAYOUT, _parser, item_tokens
from ...syntax.parser import syntax_error
from ...syntax.recovery import parse_recovering
from ...syntax.positions import start_of
from ...views.check import problems as _problems
from ...views.stages import node_lines, shown_token, tree_lines


@dataclass
class GibsonLoaded:
    """An application ``path`` laid out in program memory (``loaded``) on a reference ``machine`` of ``session``."""

    path: str
    loaded: gibson.Loaded
    machine: Machine
    session: Session

    @property
    def layout(self) -> gibson.Layout:
        return self.loaded.layout

    def place(self, address: int) -> str:
        """``line:col`` of ``address`` in the application file; ``lib`` in a library, ``seed:col`` in the seed."""
        lay, memory = self.layout, self.loaded.memory
        if address < lay.lib:
            return f"seed:{address + 1}"
        if address < lay.app:
            return "lib"
        start = memory.rfind(b"\n", lay.app, address) + 1 or lay.app
        line = memory.count(b"\n", lay.app, address) + 1
        return f"{line}:{address - start + 1}"

    def report(self, e: TinyCError) -> str:
        """The dialect's error report for ``e`` (section 6.2 of gibson-dialect.md)."""
        code = gibson_code(int(e.code))
        at = self.layout.end if code in (1023, 2023, 3023) else e.address
        return report(code, self.loaded.memory + b"\0", at, self.layout)


def load(session: Session, path: str) -> GibsonLoaded:
    """Lay out ``path`` as ``tinyc run --dialect gibson`` does, in ``session`` (its memory size and file
    sandbox), on a reference machine; raises gibson.StartError when it cannot."""
    session.files.add_program(path)
    loaded = gibson.load(path, None, session.files, session.memory)
    m = gibson.make_machine(session, session.dialect.engine("reference"), console=Console())
    m.memory.store(0, loaded.memory)
    m.top = len(loaded.memory) + gibson.SLACK
    return GibsonLoaded(path, loaded, m, session)


def _app_items(g: GibsonLoaded):
    text, tokens, items, outer = gibson.scan_memory(g.loaded)
    return text, tokens, [it for it in items if start_of(tokens[it.first]) >= g.layout.app
                          and it.kind != "endlibrary"], outer


def tokens(g: GibsonLoaded, layout: bool = False) -> str:
    """The application's tokens, one a line: ``line:col``, the type its parser reads (after the lexer
    hack and the dialect's retypings), the text, and the lexer's type where that differs.  ``layout``
    adds blanks, comments, newlines and the ``#`` header lines.  Raises TinyCError when the top level does
    not scan."""
    text, toks, items, outer = _app_items(g)
    kinds = {}
    for it in items:
        for t in item_tokens(toks, it, text, outer)[1]:
            kinds[t.start_pos] = t.type
    out = []
    for t in gibson.tokenize(text[g.layout.app:]):
        at = start_of(t) + g.layout.app
        if t.type in LAYOUT and not layout:
            continue
        kind = kinds.get(at, t.type)
        note = f"was {t.type}" if kind != t.type else ""
        out.append(f"{g.place(at):<9} {kind:<10} {shown_token(t.value):<12} {note}".rstrip())
    return "".join(line + "\n" for line in out)


def parse_tree(g: GibsonLoaded) -> str:
    """The Lark parse tree of each top-level item of the application, as the dialect parses it: each
    function on its own (a statement that does not parse shows as its error, raised when it runs)."""
    text, toks, items, outer = _app_items(g)
    out: list[str] = []
    for it in items:
        start = "funcdef" if it.kind == "func" else "statements"
        classified = item_tokens(toks, it, text, outer)[1]
        tree, header, _ = parse_recovering(_parser(), classified, start, text, 0, syntax_error)
        out.append(f"# {it.kind} {it.name} at {g.place(start_of(toks[it.first]))}".rstrip())
        if header is not None:
            out.append(f"  error {header.code} at {g.place(header.address)}: {text_of(gibson_code(header.code))}")
        elif tree is not None:
            tree_lines(tree, 1, out)
    return "\n".join(out) + "\n"


def _program(g: GibsonLoaded) -> tuple[ast.Program, ast.Block]:
    return gibson.parse_memory(g.loaded)


def ast_dump(g: GibsonLoaded) -> str:
    """Our AST of the seed and of the application's items, one node a line with its span (``line:col``
    of the file) and ``@address`` in program memory.  Raises TinyCError when the top level does not scan."""
    program, seed = _program(g)
    out: list[str] = []
    node_lines(seed, "seed", 0, g.place, out)
    for item in program.items:
        if item.pos >= g.layout.app:
            node_lines(item, "", 0, g.place, out)
    return "\n".join(out).replace("orelse:", "else:") + "\n"


def link_program(g: GibsonLoaded) -> tuple[ast.Program, LinkedText]:
    """Link the program memory on the view's machine as a run does (globals after the slack)."""
    program, _ = _program(g)
    m = g.machine
    linked = link(program, 0, g.loaded.memory, m.allocate, m.engine.evaluate_constant, function_cells=True)
    m.library = linked.tables[0]
    m.program = linked.tables[1] if len(linked.tables) > 1 else None
    return program, linked


def _rows(g: GibsonLoaded, table) -> list[str]:
    rows = []
    for s in table:
        if s.kind == "func":
            what, size, where = "function", s.function.end - s.function.pos, g.place(s.function.pos)
        elif s.array:
            what, size = f"{s.type} array", s.length * g.machine.memory.sizeof(s.type)
            where = f"{s.length} elements"
        else:
            what, size, where = s.type, g.machine.memory.sizeof(s.type), ""
        rows.append(f"  {s.name:<15} {what:<11} {size:>7} bytes  @{s.address:<8} {where}".rstrip())
    return rows


def link_map(g: GibsonLoaded, show_library: bool = False) -> str:
    """The program memory's regions (seed, each library, ``endlibrary``, the application, slack, globals)
    and the symbol levels.  Raises TinyCError when the program does not link."""
    _, linked = link_program(g)
    lay, m = g.layout, g.machine
    out = [f"library level: {len(list(m.library))} symbols"]
    shown = [s for s in m.library if show_library or s.kind != "func"]
    out += _rows(g, shown)
    if not show_library:
        out.append(f"  ... and {len(list(m.library)) - len(shown)} functions (tinyc link --library lists them)")
    program = list(m.program) if m.program is not None else []
    out.append(f"application level: {len(list(program))} symbols")
    out += _rows(g, program)
    out.append(f"program memory ({m.memory.size} bytes, 4-byte ints):")
    regions = [(0, lay.lib, "seed: the statement a run starts with")]
    at = lay.lib
    for name, size in g.loaded.parts:
        regions.append((at, at + size, f"library {name}"))
        at += size
    regions += [(lay.marker, lay.app, "endlibrary"), (lay.app, lay.end, f"application {g.path}"),
                (lay.end, lay.end + gibson.SLACK, "a NUL and 10 bytes of slack"),
                (lay.end + gibson.SLACK, m.top, "globals, allocated when the program is linked"),
                (m.top, m.memory.size, "free: call frames grow up from here")]
    for first, end, what in regions:
        span = f"{first}..{end - 1}" if end > first else f"{first}"
        out.append(f"  {span:<17} {end - first:>7} bytes  {what}")
    return "\n".join(out) + "\n"


def problems(g: GibsonLoaded, names: bool = True) -> list[tuple[int, int]]:
    """``(Gibson error number, address)`` of every problem found up front: a link error alone, else each
    statement or function header that does not parse and (unless ``names`` is False: the syntax errors
    only) each undeclared name, in text order."""
    try:
        program, linked = link_program(g)
    except TinyCError as e:
        return [(gibson_code(int(e.code)), g.layout.end if int(e.code) in (1023, 2023, 3023) else e.address)]
    tables = [t for t in linked.tables]
    app = ast.Program(0, 0, items=[i for i in program.items if i.pos >= g.layout.app])
    found = _problems(app, lambda name: not names or any(t.get(name) is not None for t in tables))
    return [(gibson_code(code), at) for code, at in found]


def check_lines(g: GibsonLoaded, found: list[tuple[int, int]]) -> list[tuple[str, str]]:
    """(``FILE:LINE:COL: message`` line, the dialect's report) of each problem."""
    out = []
    for code, at in found:
        where = g.place(at)
        where = where if ":" in where else f"{where}:0"
        at = g.layout.end if code in (1023, 2023, 3023) else at
        report_text = report(code, g.loaded.memory + b"\0", at, g.layout)
        out.append((f"{g.path}:{where}: error {code}: {text_of(code)}", report_text))
    return out


def file_view(session: Session, name: str, path: str) -> str:
    """The stage view ``name`` (tokens, parse, ast, link) of the application file ``path`` laid out in
    ``session`` (the dialect's ``view`` hook); the dialect's report when a stage rejects it, the message when
    it cannot start."""
    try:
        g = load(session, path)
    except gibson.StartError as e:
        return e.message
    views = {"tokens": tokens, "parse": parse_tree, "ast": ast_dump, "link": link_map}
    try:
        return views[name](g)
    except TinyCError as e:
        return g.report(e).lstrip("\n")
