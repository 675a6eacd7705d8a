"""The state and output of the fast engine's code generator, shared by its parts.

:class:`GenBase` holds what one generation run knows (the function, its link shapes, the lines written so
far, the bounds known here); the generator's other parts are classes built on it (see
:mod:`tinyc.engines.codegen`).  :class:`E` is a generated expression with its value bounds.
"""

from __future__ import annotations

from ..ast import visitors
from .analysis import Analysis
from .shapes import Walking
from .options import ALL, Optimisations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Any, ClassVar


# a comment of program text keeps printable ASCII as it is and writes every other byte \xNN: no byte of
# the program can end the comment (Python ends a line at LF and CR; str.splitlines at VT, FF, FS, GS, RS
# and NEL too)
_ESCAPED = tuple(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}" for b in range(256))


def safe_comment(text: bytes, limit: int = 200) -> str | None:
    """The text of a comment of generated Python made from program bytes (``tinyc compile``'s view only):
    the first line of ``text`` (it ends at LF or CR, in both dialects), at most ``limit`` bytes of it,
    with a NUL shown as ``"`` (a string's closing quote after a run, section 2) and every other byte
    that is not printable ASCII written ``\\xNN``.  The result holds only characters 0x20..0x7E, so
    Python sees one comment, and so does any splitting of the generated text into lines.  None for a
    line that is empty or blank.  The one way program text enters generated source (docs/security.md,
    "Program bytes never become code")."""
    line = text[:limit].split(b"\n")[0].split(b"\r")[0].replace(b"\0", b'"')
    return "".join([_ESCAPED[b] for b in line]).rstrip() or None


class E:
    """A generated expression: Python ``code``; ``kind`` "int" or "bool"; value bounds lo..hi (raw ints);
    ``pure``: evaluating it has no side effect and cannot fail; ``name``: the code is a plain Python name
    (no temporary needed to reuse it)."""

    __slots__ = ("code", "kind", "lo", "hi", "pure", "name")

    def __init__(self, code: str, kind: str, lo: int, hi: int, pure: bool = False, name: bool = False) -> None:
        self.code = code
        self.kind = kind
        self.lo = lo
        self.hi = hi
        self.pure = pure
        self.name = name

    def __repr__(self) -> str:
        return f"E({self.code!r}, {self.kind!r}, {self.lo}, {self.hi}, {self.pure}, {self.name})"



class GenBase:
    """The generator's state for one function, and its output (lines, line map, temporaries)."""

    unchecked = False  # the version of a proven depth (recursion.py): no depth test, no ``_t``/``_d``
    VERSION_NODES = 400  # a body this size at most is generated twice (a fast and a checked version)
    walking: Walking | None = None  # the walk whose fast version is being generated (walks.py: ``walk_loop``)
    _visit: ClassVar[dict]  # node class -> visit_<Node> (tinyc.ast.visitors), set as each class is made

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._visit = visitors(cls)

    def __init__(self, fname: str, params, body: list, resolve, int_bits: int, source=None,
                 toplevel: bool = False, size: int | None = None, max_depth: int | None = None,
                 opts: Optimisations = ALL, scans=None):
        self.fname = fname
        self.opts = opts  # the optimisations applied (options.py): each one's switch is read where it acts
        self.params = params
        self.body = body
        self.an = Analysis(params, body, int_bits, scans)  # scans: the Session's cache (caches.py)
        self.resolve = resolve
        self.bits = int_bits
        self.isz = int_bits // 8
        self.shift = 2 if int_bits == 32 else 1
        self.amask = self.isz - 1
        self.imin, self.imax = -(1 << (int_bits - 1)), (1 << (int_bits - 1)) - 1
        self.source = source or (lambda node: None)
        self.toplevel = toplevel
        # the memory size and depth limit, as constants when the caller fixes them (the code cache keys them)
        self.size = "_SIZE" if size is None else str(size)
        self.maxd = "_MAXD" if max_depth is None else str(max_depth)
        self.views: dict[str, str] = {}  # global array -> the factory line binding its element view
        self.stepped = False
        self.deferred: list[str] = []  # entry steps of _t/_d not emitted yet (see settle)  # _d already counts the calls this function makes (``_d += 1`` on entry)
        self.lines: list[str] = []
        self.linemap: dict[int, int] = {}  # generated line (1-based) -> tiny-c statement address
        self.nodes: list = []              # nodes the MC routines need (``_N[k]``)
        self.ntemp = 0
        self.known: dict | None = {}  # bounds of scalar locals here (None: unreachable code)
        self.breaks: list[list] = []   # per enclosing loop: the bounds at its breaks
        self.dry_depth = 0             # > 0 while loop bodies are generated for their bounds only
        self.hoisted: dict[str, str] = {}  # global scalar -> the local that holds it in this loop
        self.refined: dict[str, tuple[int, int]] = {}  # hoisted global -> bounds a loop's version tested
        self.steady: dict[str, tuple[int, int]] = {}   # array -> bounds of its elements a version tested
        self.invariant: dict[int, E] = {}  # id of a loop-invariant expression -> its temporary (loopopt)
        self.prechecked: set[int] = set()  # leading declarations whose space the prologue tested
        # scalar locals live in the flat memory too (reference section 3): their cells are written on
        # allocation, and a Python variable assigned by name (``an.modified``) is written back ("flushed")
        # wherever memory may be read outside a checked array, and on every exit; after anything that may
        # store outside a checked array the variables are read back ("reloaded") from their cells.
        self.bound: list[str] = []     # scalar locals allocated so far, in order
        self.base = 0                  # extra indentation (the body's try: for the flush on an error)
        self.addrs = False             # a_NAME holds each scalar's address (set in generate)
        self.cells = False             # scalars have cells in memory (not in a pure function)
        self.frame = False             # _f0 (the frame's first byte) is bound: accesses test against it

    # ---- output

    def emit(self, ind: int, text: str, at: int | None = None) -> None:
        self.lines.append("    " * (ind + self.base) + text)
        if at is not None:
            self.linemap[len(self.lines) + 1] = at  # +1: the factory's def line comes first

    def comment(self, ind: int, node) -> None:
        """A comment line with the statement's text, in ``tinyc compile``'s view (``source``); none at run time."""
        text = self.source(node)
        if text:
            self.emit(ind, "# " + text)

    def tmp(self) -> str:
        self.ntemp += 1
        return f"_{self.ntemp}"
