"""The linker's scan of a program's top level, on tokens (reference section 4 "Linking", 14 item 18).

The original linker never parsed function bodies: it walked the top level item by item and, after
skipping layout, looked at one token:

* ``[``: a top-level block, skipped by counting brackets (the first one of a system file is its
  start-up statement); real programs use such blocks for prose comments;
* ``int``/``char``: a declaration of globals;
* ``endlibrary``: a new symbol level;
* any other word: a function definition.  Its entry point is just after the name; the scan goes on at
  the first ``[`` after it, anywhere, and skips the bracket-balanced body.  A name with no ``[`` after
  it (stray text after the last function) is a function whose call is error 22;
* anything else: error 20, reported at the start of its line.

An unbalanced ``[`` runs the cursor off the program: error 2 at the end of the text.
:func:`scan` returns the items as token spans; the parser parses each span on its own.  The symbol
levels the lexer hack reads (:class:`Level`, :func:`levels_of`) come from the same items: this is the
pipeline's level scan (:mod:`tinyc.syntax.pipeline`), below the lexer's classification, which imports it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from ..errors import ErrorCode, TinyCError

if TYPE_CHECKING:
    from lark import Token


def canonical(name: str) -> str:
    """The significant form of a name: 8 or more characters keep the first 7 plus the last (section 2)."""
    return name if len(name) < 8 else name[:7] + name[-1]


LAYOUT = frozenset({"WS", "COMMENT", "NEWLINE"})
# keywords are words too: the linker took any word that does not start a declaration for a function name
WORDS = frozenset({"NAME", "IF", "ELSE", "WHILE", "FOR", "RETURN", "BREAK", "MC"})


class Item:
    """One top-level item: ``kind`` is "decl", "block", "func" or "endlibrary"; ``start``/``end`` index
    the raw token list (``end`` exclusive).  ``body`` is False for a function with no ``[`` after it."""

    __slots__ = ("kind", "start", "end", "body")

    def __init__(self, kind: str, start: int, end: int, body: bool = True) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.body = body

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Item):
            return NotImplemented
        return (self.kind, self.start, self.end, self.body) == (other.kind, other.start, other.end, other.body)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Item({self.kind!r}, {self.start}, {self.end}, {self.body})"


def scan(tokens: list[Token], text: str, base: int = 0, strict: bool = True) -> list[Item]:
    """The top-level items of a tokenized text (raw tokens, layout included).

    Raises TinyCError 2 (an unbalanced ``[``) or 20 (a top-level token that starts no item) when
    ``strict``; otherwise such text is passed over (for views that show as much as they can).
    """
    items: list[Item] = []
    n = len(tokens)
    i = _skip_layout(tokens, 0)
    while i < n:
        t = tokens[i]
        kind = t.type
        if kind == "LSQB":
            end = _match(tokens, i, text, base, strict)
            items.append(Item("block", i, end))
        elif kind in ("INT", "CHAR"):
            end = _declaration_end(tokens, i)
            items.append(Item("decl", i, end))
        elif kind == "ENDLIBRARY":
            end = i + 1
            items.append(Item("endlibrary", i, end))
        elif kind in WORDS:
            k = i + 1
            while k < n and tokens[k].type != "LSQB":
                k += 1
            if k == n:
                items.append(Item("func", i, n, body=False))
                break
            end = _match(tokens, k, text, base, strict)
            items.append(Item("func", i, end))
        elif strict:
            raise TinyCError(ErrorCode.LINKERR, base + text.rfind("\n", 0, t.start_pos) + 1)
        else:
            end = i + 1
        i = _skip_layout(tokens, end)
    return items


def _skip_layout(tokens: list[Token], i: int) -> int:
    while i < len(tokens) and tokens[i].type in LAYOUT:
        i += 1
    return i


def _match(tokens: list[Token], i: int, text: str, base: int, strict: bool) -> int:
    """The index just after the ``]`` that closes the ``[`` at ``tokens[i]``; error 2 if none does."""
    depth = 0
    for k in range(i, len(tokens)):
        kind = tokens[k].type
        if kind == "LSQB":
            depth += 1
        elif kind == "RSQB":
            depth -= 1
            if depth == 0:
                return k + 1
    if strict:
        raise TinyCError(ErrorCode.CURSERR, base + len(text.rstrip("\n")))
    return len(tokens)


def _declaration_end(tokens: list[Token], i: int) -> int:
    """The index just after a declaration ``int a, b(n), c`` and its optional ``;``."""
    n = len(tokens)
    k = _skip_layout(tokens, i + 1)
    while k < n and tokens[k].type == "NAME":
        k = _skip_layout(tokens, k + 1)
        if k < n and tokens[k].type == "LPAR":
            depth = 0
            while k < n:
                depth += {"LPAR": 1, "RPAR": -1}.get(tokens[k].type, 0)
                k += 1
                if depth == 0:
                    break
            k = _skip_layout(tokens, k)
        if k < n and tokens[k].type == "COMMA":
            k = _skip_layout(tokens, k + 1)
        else:
            break
    if k < n and tokens[k].type == "SEMICOLON":
        k += 1
    return k


def declared_names(tokens: list[Token], i: int) -> list[Token]:
    """The NAME tokens declared by the int/char keyword at ``tokens[i]`` (layout-free tokens)."""
    names = []
    i += 1
    while i < len(tokens) and tokens[i].type == "NAME":
        names.append(tokens[i])
        i += 1
        if i < len(tokens) and tokens[i].type == "LPAR":
            depth = 0
            while i < len(tokens):
                depth += {"LPAR": 1, "RPAR": -1}.get(tokens[i].type, 0)
                i += 1
                if depth == 0:
                    break
        if i < len(tokens) and tokens[i].type == "COMMA":
            i += 1
        else:
            break
    return names


class Level:
    """One symbol level as the lexer needs it: canonical name -> True for a function, False for a variable.

    The first declaration of a name in a level wins (section 3, "Within one level the first matching
    entry wins")."""

    __slots__ = ("names",)

    def __init__(self, names: dict[str, bool] | None = None) -> None:
        self.names: dict[str, bool] = {} if names is None else names

    def __eq__(self, other: object) -> bool:
        return self.names == other.names if isinstance(other, Level) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Level({self.names!r})"

    def add(self, name: str, is_function: bool) -> None:
        """Declare ``name`` (canonicalised) at this level as a function or a variable; the first wins."""
        self.names.setdefault(canonical(name), is_function)


def scan_levels(tokens: list[Token], text: str = "") -> tuple[Level, Level | None]:
    """The top-level symbols of a text, as the linker's scan sees them (section 4, "Linking").

    Returns ``(first, after)``: the symbols before ``endlibrary`` and, if the text holds an
    ``endlibrary``, the symbols after it (else None).  A top-level declaration declares variables;
    any other top-level word is a function; top-level ``[...]`` blocks are skipped
    (:func:`scan`, not strict: text it cannot place is passed over).
    """
    return levels_of(tokens, scan(tokens, text, strict=False))


def levels_of(tokens: list[Token], items: list[Item]) -> tuple[Level, Level | None]:
    """:func:`scan_levels` of the ``items`` :func:`scan` found in ``tokens``: ``(first, after)``."""
    levels = [Level()]
    for item in items:
        if item.kind == "endlibrary":
            levels.append(Level())
        elif item.kind == "decl":
            sig = [t for t in tokens[item.start:item.end] if t.type not in LAYOUT]
            for name in declared_names(sig, 0):
                levels[-1].add(name.value, False)
        elif item.kind == "func":
            levels[-1].add(tokens[item.start].value, True)
    return levels[0], (levels[1] if len(levels) > 1 else None)
