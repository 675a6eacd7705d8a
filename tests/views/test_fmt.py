"""``tinyc fmt`` (issue 26, beyond the list): re-indenting by ``[ ]`` depth never changes what a program
does, formatting twice changes nothing, and the command's statuses are 0, 1 (--check) and 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc.views.format import FormatError, format_source

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SHIPPED = sorted([*ROOT.glob("programs/*.tc"), *ROOT.glob("examples/*.tc"), *ROOT.glob("examples/gibson/*.tc")])
INPUT = b"50\n25\n37\n1234\n1,2\n0\nq\n"
ENTRY = {"bc.tc": "bullcow", "bca.tc": "bca", "bck.tc": "bck", "bce.tc": "bcet", "bchex.tc": "bchex"}  # the programs with no main


def tinyc(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "tinyc"), *args], cwd=cwd, input=stdin, capture_output=True, timeout=120)


def mangle(text: bytes) -> bytes:
    """Every line's indent dropped and trailing blanks added (not to a Gibson #include line: they would be
    part of its file name): the same program, badly laid out."""
    return re.sub(rb"(?m)^[ \t]*(.*?)$", lambda m: m.group(1) + (b"" if m.group(1).startswith(b"#") else b"   "),
                  text)


# -- the formatter

def test_indents_by_bracket_depth_and_strips_trailing_blanks():
    assert format_source("main [\nint x   \n    if (x) [\npn x\n]\n]\n") == \
        "main [\n  int x\n  if (x) [\n    pn x\n  ]\n]\n"


def test_brackets_in_strings_characters_and_comments_do_not_count():
    text = 'main [\npl "[[" /* ] [\nc = \'[\'\n]\n'
    assert format_source(text) == 'main [\n  pl "[[" /* ] [\n  c = \'[\'\n]\n'
    assert format_source("main [\n// ]\n]\n", "gibson") == "main [\n  // ]\n]\n"


def test_a_line_starting_with_brackets_closes_them_first():
    assert format_source("a [\nb [\n] ] else [\nx\n]\n") == "a [\n  b [\n] ] else [\n  x\n]\n"


def test_gibson_strings_over_lines_and_header_lines_are_kept_exactly():
    text = '#include pps/library.tc\nmain [\n ps "one  \n   [two"\n    ]\n'
    assert format_source(text, "gibson") == '#include pps/library.tc\nmain [\n  ps "one  \n   [two"\n]\n'


def test_a_gibson_header_line_keeps_its_trailing_blanks():
    text = "#include pps/library.tc  \nmain [\n]\n"
    assert format_source(text, "gibson") == text


def test_crlf_line_ends_are_kept():
    assert format_source("main [\r\npl 1  \r\n]\r\n") == "main [\r\n  pl 1\r\n]\r\n"


@pytest.mark.parametrize("text, line", [("main [\n]\n]\n", 3), ("main [\n[\n", 3)])
def test_unbalanced_brackets_are_refused(text, line):
    with pytest.raises(FormatError) as e:
        format_source(text)
    assert e.value.line == line


def test_an_unclosed_gibson_string_is_refused():
    with pytest.raises(FormatError):
        format_source('main [\nps "open\n]\n', "gibson")


# -- every shipped program: the same output before and after, and a fixed point

QUICK = {"programs/bc.tc", "examples/fact.tc", "examples/gibson/hello.tc", "examples/gibson/calendar.tc"}


def shipped_params() -> list:
    """Every shipped program; those outside QUICK (one of each kind) are marked slow: a run each, twice."""
    out = []
    for path in SHIPPED:
        name = path.relative_to(ROOT).as_posix()
        out.append(pytest.param(path, id=name, marks=() if name in QUICK else pytest.mark.slow))
    return out


@pytest.mark.parametrize("path", shipped_params())
def test_formatting_keeps_a_shipped_program_meaning(path, tmp_path):
    before = tmp_path / "before" / path.name
    after = tmp_path / "after" / path.name
    for p in (before, after):
        p.parent.mkdir()
        p.write_bytes(mangle(path.read_bytes()))
    done = tinyc("fmt", str(after), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert after.read_bytes() != before.read_bytes()
    assert after.read_bytes() == path.read_bytes()  # the shipped layout is the formatter's
    entry = ENTRY.get(path.name, "main")
    ran = [tinyc("run", p.name, "--entry", entry, cwd=p.parent, stdin=INPUT) for p in (before, after)]
    assert ran[0].stdout  # the program ran and printed
    assert ran[0].stdout == ran[1].stdout and ran[0].returncode == ran[1].returncode
    assert tinyc("fmt", "--check", str(after), cwd=tmp_path).returncode == 0  # twice changes nothing


# -- the command

def test_check_lists_the_files_that_would_change(tmp_path):
    (tmp_path / "good.tc").write_text("main [\n  pl 1\n]\n")
    (tmp_path / "bad.tc").write_text("main [\npl 1\n]\n")
    done = tinyc("fmt", "--check", "good.tc", "bad.tc", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, b"bad.tc\n")
    assert (tmp_path / "bad.tc").read_text() == "main [\npl 1\n]\n"
    assert tinyc("fmt", "--check", "good.tc", cwd=tmp_path).returncode == 0


def test_dash_formats_stdin_to_stdout(tmp_path):
    done = tinyc("fmt", "-", cwd=tmp_path, stdin=b"main [\npl 1  \n]\n")
    assert (done.returncode, done.stdout) == (0, b"main [\n  pl 1\n]\n")


def test_a_missing_file_is_one_line_and_status_2(tmp_path):
    done = tinyc("fmt", "missing.tc", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode().count("\n") == 1 and "missing.tc" in done.stderr.decode()


def test_unbalanced_file_is_left_alone_with_status_2(tmp_path):
    (tmp_path / "u.tc").write_text("main [\npl 1\n")
    done = tinyc("fmt", "u.tc", cwd=tmp_path)
    assert done.returncode == 2 and b"never closed" in done.stderr and b"Traceback" not in done.stderr
    assert (tmp_path / "u.tc").read_text() == "main [\npl 1\n"


def test_a_dialects_own_lexical_rules_come_from_its_lexis_hook():
    # the formatter knows no dialect by name: a dialect's lexis hook gives what hides a bracket
    import re
    from tinyc.driver.dialect import UnknownDialect, find
    from tinyc.views.format import Lexis
    for name in ("pc", "gibson"):
        d = find(name)
        assert isinstance(d.lexis(), Lexis)
    hash_comments = Lexis(re.compile(r"#[^\n]*"), starts="#")
    assert format_source("main [\n# ]\npl 1\n]\n", hash_comments) == "main [\n  # ]\n  pl 1\n]\n"
    with pytest.raises(FormatError):
        format_source("main [\n# ]\npl 1\n]\n")           # in tiny-c/PC that # hides nothing
    with pytest.raises(UnknownDialect):
        format_source("main [ ]\n", "nosuch")
