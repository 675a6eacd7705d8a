"""The IPython extension (``%load_ext tinyc``): %%tinyc runs a cell, the stage-view magics show a cell's
program or a statement against it, bad arguments are one line (issue 14)."""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("IPython")


def test_a_cell_runs_as_a_program(ip, capsys):
    ip.run_cell_magic("tinyc", "", 'main [ pl "h\u00e9llo"; pn 6*7 ]\n')
    assert capsys.readouterr().out == "h\u00e9llo 42\n"


def test_entry_and_input(ip, capsys):
    ip.run_cell_magic("tinyc", "--entry ask --input '21\\n'", 'ask [ int n; ps "n? "; n = gn; pn n*2 ]\n')
    assert capsys.readouterr().out == "n?  42\n"


def test_an_error_prints_the_tiny_c_report(ip, capsys):
    ip.run_cell_magic("tinyc", "", 'main [ ps "\u00e9t\u00e9"; pn 2+ ]\n')
    out, err = capsys.readouterr()
    assert err.splitlines()[:2] == [" 1 --- err  9", 'main [ ps "\u00e9t\u00e9"; pn 2+ ]']


def test_bad_options_are_one_line(ip, capsys):
    ip.run_cell_magic("tinyc", "--int-bits 8", "main [ ]\n")
    assert capsys.readouterr().err == "%%tinyc: argument --int-bits: invalid choice: 8 (choose from 16, 32)\n"


def test_16_bit_cells_have_64_kb(ip, capsys):
    ip.run_cell_magic("tinyc", "--int-bits 16 --memory 70000", "main [ ]\n")
    assert capsys.readouterr().err == ("%%tinyc: --memory 70000 is more than 16-bit ints can address: "
                                       "with --int-bits 16 the machine has at most 65536 bytes\n")
    ip.run_cell_magic("tinyc", "--int-bits 16", "peek int p,k [ char q(0); q=p; pn q(k) ]\n"
                                                "main [ peek(40000, 25535); peek(40000, 25536) ]\n")
    out, err = capsys.readouterr()
    assert out == " 0\n" and err.startswith(" 1 --- err  6")  # 65535 is the last byte (section 14 item 21)


def test_views_of_the_cell_and_of_a_statement(ip, capsys):
    ip.run_cell_magic("tinyc_ast", "", "twice int n [ return n*2 ]\n")
    assert "Function twice" in capsys.readouterr().out
    ip.run_line_magic("tinyc_tokens", "pn twice 3")
    out = capsys.readouterr().out
    assert "FNAME      twice" in out and "a function of this program" in out
    ip.run_line_magic("tinyc_parse", "pn 2+3")
    assert "NUMBER '3'" in capsys.readouterr().out
    ip.run_line_magic("tinyc_link", "")
    assert "twice     function" in capsys.readouterr().out


def test_trace_of_the_current_program(ip, capsys):
    ip.run_cell_magic("tinyc", "", "main [ pn 1 ]\n")
    capsys.readouterr()
    ip.run_line_magic("tinyc_trace", "main")
    out = capsys.readouterr().out
    assert "entry | call main()" in out and "pn 1" in out
    ip.run_cell_magic("tinyc_trace", "--calls", "f int a [ return a+1 ]\nmain [ pn f 1 ]\n")
    assert "call f(1)" in capsys.readouterr().out


def test_the_recursion_limit_is_left_as_it_was(ip, capsys):
    before = sys.getrecursionlimit()
    ip.run_cell_magic("tinyc", "--max-depth 5000", "main [ ]\n")
    assert sys.getrecursionlimit() == before


def test_the_line_magic_runs_a_name_of_the_current_program(ip, capsys):
    """Issue 26 item 18: ``%tinyc NAME`` runs NAME against the last cell's program, as ``%tinyc_trace NAME``."""
    ip.run_cell_magic("tinyc", "", "main [ pn 1 ]\nhi [ pn 2 ]\n")
    capsys.readouterr()
    ip.run_line_magic("tinyc", "hi")
    out = capsys.readouterr()
    assert out.out == " 2\n" and "unrecognized" not in out.err


def test_the_trace_cell_takes_a_limit(ip, capsys):
    ip.run_cell_magic("tinyc_trace", "--limit 2", "main [ pn 1; pn 2; pn 3 ]\n")
    out = capsys.readouterr().out
    assert "2 lines shown (--limit)" in out and " 1 2 3" in out


def test_a_bad_escape_in_the_input_is_one_clear_line(ip, capsys):
    ip.run_cell_magic("tinyc", "--input '\\x'", "main [ pn gn ]\n")
    err = capsys.readouterr().err
    assert err.startswith("--input: ") and "codec" not in err and "Traceback" not in err


def test_views_of_a_gibson_cell(ip, capsys):
    cell = '#include pps/library.tc\n// a comment\nmain [\n  int i\n  while i < 3 [ i = i + 1 ]\n  pl "hi"\n]\n'
    ip.run_cell_magic("tinyc_tokens", "", cell)
    assert capsys.readouterr().out.splitlines()[0].split() == ["3:1", "FNAME0", "main", "was", "NAME"]
    ip.run_cell_magic("tinyc_ast", "", cell)
    assert "Function main" in capsys.readouterr().out
    ip.run_cell_magic("tinyc_link", "", cell)
    assert "library pps/library.tc" in capsys.readouterr().out
    ip.run_cell_magic("tinyc_parse", "", "#include pps/library.tc\nmain [\n")
    assert "RBRCERR" in capsys.readouterr().out


def test_step_shows_the_stepper_inline(ip, capsys):
    from unittest import mock
    shown = []
    with mock.patch("IPython.display.display", side_effect=shown.append):
        ip.run_cell_magic("tinyc_step", "--input '21\\n'",
                          'main [\n  int n\n  ps "number? "\n  n = gn\n  pn n * 2\n]\n')
    assert len(shown) == 1
    trace = traced(shown[0].data)
    assert trace["status"] == "done" and trace["output"] == "number?  42" and trace["steps"]
    with mock.patch("IPython.display.display", side_effect=shown.append):
        ip.run_line_magic("tinyc_step", "--limit 2")  # the current program again
    assert "step limit" in capsys.readouterr().err and len(shown) == 2


def traced(shown: str) -> dict:
    """The trace inside the stepper page a ``%%tinyc_step`` showed (an iframe's srcdoc)."""
    import html
    import json
    import re
    assert shown.startswith('<div class="tinyc-step"><iframe') and "TinycStepper" in shown
    page = html.unescape(re.search(r'srcdoc="([^"]*)"', shown).group(1))
    return json.loads(re.search(r'<script type="application/json" id="trace">(.*?)</script>', page, re.S).group(1))
