"""The Pygments lexers for tiny-c and for tc> lines (tinyc.shell.highlight)."""

from __future__ import annotations

import re

from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String

from tinyc.shell.highlight import ShellLineLexer, TinyCLexer, colour_listing


def tokens(lexer, text: str) -> list[tuple[object, str]]:
    return [(t, v) for t, v in lexer.get_tokens(text) if v.strip()]


def test_tiny_c_tokens():
    got = tokens(TinyCLexer(), "fact int n [  /* a [comment\n  if(n<2) return 'a'+\"s\"\n]\n")
    assert got == [(Name.Function, "fact"), (Keyword.Type, "int"), (Name, "n"), (Punctuation, "["),
                   (Comment.Single, "/* a [comment"), (Keyword, "if"), (Punctuation, "("), (Name, "n"),
                   (Operator, "<"), (Number.Integer, "2"), (Punctuation, ")"), (Keyword, "return"),
                   (String.Char, "'a'"), (Operator, "+"), (String.Double, '"s"'), (Punctuation, "]")]


def test_backslash_char_literal_and_whole_word_keywords():
    got = tokens(TinyCLexer(), "  x='\\'-'A'+interest\n")
    assert (String.Char, "'\\'") in got and (Name, "interest") in got


def test_indented_name_with_bracket_is_not_a_definition():
    assert (Name, "foo") in tokens(TinyCLexer(), "  foo [\n")


def test_shell_line_kinds():
    assert tokens(ShellLineLexer(), ".r bc.tc")[:2] == [(Punctuation, "."), (Keyword.Reserved, "r")]
    assert tokens(ShellLineLexer(), ".12") == [(Punctuation, "."), (Number.Integer, "12")]
    assert tokens(ShellLineLexer(), ".pn 3") == [(Punctuation, "."), (Name, "pn"), (Number.Integer, "3")]
    assert tokens(ShellLineLexer(), "-3") == [(Operator, "-3")]
    assert tokens(ShellLineLexer(), "  while(1) ;")[0] == (Keyword, "while")


def test_colour_listing_keeps_the_text_and_line_ends():
    data = b'\nmain [\n  ps "hi"\n]\n'
    coloured = colour_listing(data)
    assert b"\x1b[" in coloured
    assert re.sub(rb"\x1b\[[0-9;]*m", b"", coloured) == data
