"""The lexer hack: which names the lexer marks as calls, table-driven (reference sections 4, 14 items 8, 15)."""

import pytest

from tinyc.syntax.lexer import Level, canonical, classify, tokenize
from tinyc.syntax.pipeline import prepare

LIBRARY = Level({"pn": True, "gn": True, "ps": True, "chrdy": True, "last": False})

CASES = [
    # source, the classified token types of interest (name or paren -> type), why
    ("main [ pn x ]", {"pn": "FNAME", "x": "NAME"}, "a library function takes bare arguments"),
    ("main [ x=gn\n]", {"gn": "FNAME0"}, "a call at the end of the line takes no arguments"),
    ("main [ x=gn /* read\n]", {"gn": "FNAME0"}, "a comment ends the line too"),
    ("main [ int pn; pn=1 ]", {"pn": "NAME"}, "a local shadows a function from its declaration on"),
    ("f int gn [ return gn ]", {"gn": "NAME"}, "a parameter shadows a function"),
    ("main [ if(chrdy) x=1 ]", {"(": "CPAREN", "chrdy": "FNAME"}, "the ( after if belongs to the if"),
    ("main [ while(x<1) x=1 ]", {"(": "CPAREN"}, "the ( after while too"),
    ("main [ pn(3) ]", {"(": "CALLPAREN"}, "the ( after a function name opens its argument list"),
    ("main [ MC(65,1) ]", {"(": "CALLPAREN"}, "MC takes parentheses the same way"),
    ("f [ return\n]", {"return": "RETURN0"}, "return at the end of a line returns 0"),
    ("int interest\nmain [ interest=1 ]", {"interest": "NAME"}, "keywords are whole words (14.6)"),
    ("main [ helper 1 ]\nhelper int a [ ]", {"helper": "FNAME"}, "program functions are known before use"),
]


@pytest.mark.parametrize("src,expected,why", CASES, ids=[c[2] for c in CASES])
def test_classification(src, expected, why):
    tokens, _ = prepare(src, [LIBRARY])
    types = {}
    for t in tokens:
        types.setdefault(t.value, t.type)  # the first occurrence after the definition site
    body = [t for t in tokens if t.start_pos > src.index("[")]
    seen = {t.value: t.type for t in reversed(body)}
    for name, kind in expected.items():
        assert seen.get(name, types.get(name)) == kind, why


def test_canonical_names_keep_first_seven_and_last():
    assert canonical("abcdefgXz") == canonical("abcdefgYz") == "abcdefgz"
    assert canonical("short") == "short"


def test_layout_tokens_are_dropped_after_classification():
    tokens = classify(tokenize("a=1 /* c\nb=2\n"), [Level()], statements=True)
    assert [t.type for t in tokens] == ["NAME", "EQUAL", "NUMBER", "NAME", "EQUAL", "NUMBER"]


def test_a_top_level_name_in_a_program_is_a_function_definition():
    # the linker reads any top-level symbol as a function (section 4), so a stray x=5 is one
    tokens = classify(tokenize("x=5\n"), [Level()])
    assert tokens[0].type == "FNAME"


def test_positions_after_stray_characters_are_those_of_the_whole_text():
    """Tolerant lexing resumes after a stray character or an open quote; the tokens after it keep their
    line and column in the whole text (the error report and the views use them)."""
    text = "[ it's prose ]\n@ x=1 /* c\n  'open\npn 3 . y\n"
    for t in tokenize(text, tolerant=True):
        for pos, line, col in ((t.start_pos, t.line, t.column), (t.end_pos, t.end_line, t.end_column)):
            assert (line, col) == (text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)), t
