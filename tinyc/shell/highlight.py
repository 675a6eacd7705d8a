"""Pygments lexers for tiny-c source and for lines typed at the ``tc>`` prompt.

The token rules follow reference section 2: ``/*`` comments run to the end of the line, a character
literal is one byte between single quotes with no escapes (``'\\'`` is a backslash), strings have no
escapes either.  A name at the start of a line that ends in ``[`` is taken for a function definition,
which is how tiny-c programs are laid out (the language itself has no keyword for it).  The Gibson
dialect's ``//`` comments and its ``#include``/``#loadMC`` header lines are known too.
"""

from __future__ import annotations

import os

from pygments import highlight
from pygments.formatters import Terminal256Formatter
from pygments.lexer import RegexLexer, bygroups, using
from pygments.style import Style
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace)

KEYWORDS = ("if", "else", "while", "for", "return", "break", "endlibrary")
TYPES = ("int", "char")


class TinyCLexer(RegexLexer):
    """tiny-c source: comments, literals, keywords, MC, function definitions, names, operators."""

    name = "tiny-c"
    aliases = ["tinyc", "tiny-c"]
    filenames = ["*.tc", "*.ipl"]

    tokens = {
        "root": [
            (r"^#(include|loadMC)\b[^\n]*", Comment.Preproc),  # the Gibson dialect's header lines
            (r"//[^\n]*", Comment.Single),    # the Gibson dialect's comment (in tiny-c/PC no program has //)
            (r"/\*[^\n]*", Comment.Single),
            (r'"[^"\n]*"?', String.Double),    # the closing quote may be missing (NUL after a run)
            (r"'[^'\n]'", String.Char),
            (r"\b(%s)\b" % "|".join(TYPES), Keyword.Type),
            (r"\b(%s)\b" % "|".join(KEYWORDS), Keyword),
            (r"\bMC\b", Name.Builtin),
            (r"^[A-Za-z_]\w*(?=[^\n\[]*\[[ \t]*(/\*[^\n]*)?$)", Name.Function),
            (r"[A-Za-z_]\w*", Name),
            (r"\d+", Number.Integer),
            (r"\+\+|--|==|!=|<=|>=|[-+*/%<>=!&|^]", Operator),
            (r"[\[\](),;]", Punctuation),
            (r"\n", Whitespace),
            (r"[ \t\f\r]+", Whitespace),
            (r".", Text),
        ],
    }


class ShellLineLexer(RegexLexer):
    """One line typed at ``tc>``: a dot command, a ``.statement``, ``+n``/``-n``, or a program line."""

    name = "tiny-c shell line"
    aliases = ["tinyc-shell"]

    tokens = {
        "root": [
            (r"^(\.)(\d+)(.*)", bygroups(Punctuation, Number.Integer, Text)),
            # .X followed by the end of the line or a non-alphanumeric character: a shell command
            (r"^(\.)([A-Za-z/])(?![A-Za-z0-9_])(.*)", bygroups(Punctuation, Keyword.Reserved, String)),
            (r"^(\.)(.+)", bygroups(Punctuation, using(TinyCLexer))),
            (r"^[-+][^\n]*", Operator),
            (r"[^\n]+", using(TinyCLexer)),
            (r"\n", Whitespace),
        ],
    }


class TinyCStyle(Style):
    """The one style of tiny-c text: the line being typed at ``tc>`` and ``.p`` listings."""

    styles = {
        Comment: "ansibrightblack",
        Comment.Preproc: "ansimagenta",
        String: "ansigreen",
        Keyword: "bold ansiblue",
        Keyword.Type: "ansicyan",
        Keyword.Reserved: "bold ansimagenta",
        Name.Builtin: "ansimagenta",
        Name.Function: "bold ansiyellow",
        Number: "ansiyellow",
        Operator: "",
        Punctuation: "",
    }


def colour_wanted(env=None) -> bool:
    """False when ``NO_COLOR`` is set to anything (no-color.org) or ``TERM`` is ``dumb`` or ``unknown`` (the
    terminals prompt_toolkit also takes for dumb ones)."""
    env = os.environ if env is None else env
    return not env.get("NO_COLOR") and env.get("TERM", "") not in ("dumb", "unknown")


def colour_listing(data: bytes) -> bytes:
    """``data`` (program lines) with ANSI colours of :class:`TinyCStyle` for a terminal, or unchanged when
    colour is not wanted; line ends are kept as they are.  The bytes of the text are kept too: they are
    read one byte to one character and written back the same way."""
    if not colour_wanted():
        return data
    lexer = TinyCLexer(stripnl=False, ensurenl=False)
    text = data.decode("latin-1")
    return highlight(text, lexer, Terminal256Formatter(style=TinyCStyle)).encode("latin-1")
