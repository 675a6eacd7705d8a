"""Golden outputs of the stage views (tinyc tokens/parse/ast/link/trace) and their error handling.

The goldens use a tiny system file, so that they change only when a view or the interpreter changes,
not when the real library grows.  Regenerate one by printing the call and reviewing it by eye.
"""

import pytest

from tinyc.cli import main as cli
from tinyc.debug import tracer as trace
from tinyc.views import stages as views

LIB = (b"/* a two-function library for tests\nint last\npn int n [ MC 32,1; MC n,14 ]\n"
       b"ps char s(0) [ MC s,s+2,13 ]\nendlibrary\n")
PROG = "int a(2)\nsq int n [ return n*n ]\nmain [\n  a(1)=sq 3\n  pn a(1)\n]\n"
BAD = "main [\n  pn 2+\n]\n"
BAD_REPORT = " 2 --- err  9\n  pn 2+\n       <\n"

TOKENS = """\
   1:1    INT        int
   1:5    NAME       a
   1:6    LPAR       (
   1:7    NUMBER     2
   1:8    RPAR       )
   2:1    FNAME      sq           was NAME: defines a function
   2:4    INT        int
   2:8    NAME       n
   2:10   LSQB       [
   2:12   RETURN     return
   2:19   NAME       n
   2:20   MULOP      *
   2:21   NAME       n
   2:23   RSQB       ]
   3:1    FNAME      main         was NAME: defines a function
   3:6    LSQB       [
   4:3    NAME       a
   4:4    LPAR       (
   4:5    NUMBER     1
   4:6    RPAR       )
   4:7    EQUAL      =
   4:8    FNAME      sq           was NAME: a function of this program
   4:11   NUMBER     3
   5:3    FNAME      pn           was NAME: a library function
   5:6    NAME       a
   5:7    LPAR       (
   5:8    NUMBER     1
   5:9    RPAR       )
   6:1    RSQB       ]
"""

PARSE = """\
statements
  expr_stmt
    call
      FNAME 'pn'
      args
        binop
          number
            NUMBER '2'
          ADDOP '+'
          binop
            number
              NUMBER '3'
            MULOP '*'
            number
              NUMBER '4'
"""

AST = """\
Program                                      1:1-6:2  @255
  Decl int                                   1:1-1:9  @255
    Declarator a                             1:5-1:9  @259
      size: Number 2                         1:7-1:8  @261
  Function sq                                2:1-2:24  @264
    Decl int                                 2:4-2:9  @267
      Declarator n                           2:8-2:9  @271
    Block                                    2:10-2:24  @273
      Return                                 2:12-2:22  @275
        value: BinOp *                       2:19-2:22  @282
          left: Var n                        2:19-2:20  @282
          right: Var n                       2:21-2:22  @284
  Function main                              3:1-6:2  @288
    Block                                    3:6-6:2  @293
      ExprStmt                               4:3-4:12  @297
        expr: Assign                         4:3-4:12  @297
          target: Index a                    4:3-4:7  @297
            index: Number 1                  4:5-4:6  @299
          value: Call sq                     4:8-4:12  @302
            Number 3                         4:11-4:12  @305
      ExprStmt                               5:3-5:10  @309
        expr: Call pn                        5:3-5:10  @309
          Index a                            5:6-5:10  @312
            index: Number 1                  5:8-5:9  @314
"""

LINK = """\
level 1, library: 3 symbols, linked from the system file
  last      int               4 bytes  @116
  pn        function         29 bytes  @45       text, line 3, params n
  ps        function         28 bytes  @75       text, line 4, params s
level 2, program: 3 symbols
  a         int array        12 bytes  @319      3 elements, (2) declared
  sq        function         23 bytes  @264      text, line 2, params n
  main      function         30 bytes  @288      text, line 3
level 3, locals: made when a function runs (its parameters and declarations)
memory map (1048576 bytes, 4-byte ints):
  0..115                116 bytes  system text: the system file (its library part is linked), NUL-ended
  116..119                4 bytes  library globals
  120..253              134 bytes  ln(133): the shell's line buffer, where a typed statement goes
  254..254                1 bytes  pr(0): the newline sentinel before the program
  255..318               64 bytes  program text, pr(1..pe), pe = 64
  319..330               12 bytes  program globals, allocated when the program is linked
  331..90254          89924 bytes  free: the rest of pr; call frames (parameters, locals) grow up from here
  90255..1048575     958321 bytes  free: after pr, for frames that outgrow it
"""

TRACE = """\
entry | main
entry | call main()
    4 |   a(1)=sq 3
    4 |   call sq(3)
    2 |     return n*n
    4 |   sq(3) returns 9
    4 |   ... a(1)=9
    5 |   pn a(1)
 9
entry | main() returns 0
entry | ... a(1)=9
"""

CALLS = """\
entry | call main()
    4 |   call sq(3)                         returns 9
 9
entry | main() returns 0
"""


def test_tokens_golden():
    assert views.tokens(PROG, system=LIB) == TOKENS


def test_parse_golden_statement():
    assert views.parse_tree("", statement="pn 2+3*4", system=LIB) == PARSE


def test_ast_golden():
    assert views.ast_dump(PROG, system=LIB) == AST


def test_link_golden():
    assert views.link_map(PROG, system=LIB) == LINK


def test_trace_golden():
    assert trace.trace(PROG, system=LIB) == TRACE


def test_trace_calls_golden():
    assert trace.trace(PROG, calls=True, system=LIB) == CALLS


def test_link_addresses_are_the_running_ones():
    """The address link shows for a global is the one the program sees when it runs."""
    prog = "int g(0)\nmain [ pn g ]\n"
    link = views.link_map(prog, system=LIB)
    address = int(next(line for line in link.splitlines() if line.startswith("  g ")).split("@")[1].split()[0])
    out = trace.trace(prog, calls=True, system=LIB)
    assert f" {address}" in out


def test_statement_names_resolve_against_the_program():
    assert "a function of this program" in views.tokens(PROG, statement="x=sq 2", system=LIB)
    assert "Var sq" not in views.ast_dump(PROG, statement="x=sq 2", system=LIB)


def test_tokens_layout_shows_comments_and_newlines():
    out = views.tokens("/* hi\nmain [ ]\n", layout=True, system=LIB)
    assert "COMMENT    /* hi" in out and "NEWLINE    \\n" in out


def test_lexer_hack_notes():
    out = views.tokens("f [ return\n ]\nmain [ if(f) x=1\n f\n]\n", system=LIB)
    assert "RETURN0" in out and "CPAREN" in out and "FNAME0" in out


def test_trace_limit_stops_tracing_not_the_program():
    out = trace.trace(PROG, limit=2, system=LIB)
    assert "trace: 2 lines shown" in out and out.rstrip().endswith("9")
    assert out.count(" | ") == 2


def test_trace_conditions_and_loops():
    prog = "main [ int i, s\n  for(i=1;i<=2;++i) s=s+i\n  if(s==3) pn s\n]\n"
    out = trace.trace(prog, system=LIB)
    assert "for(i=1;i<=2;++i)" in out and "i=1  (true)" in out and "i=3  (false)" in out
    assert "s=3" in out and "if(s==3)" in out and "(true)" in out


def test_trace_a_condition_that_fails_has_no_outcome():
    out = trace.trace("main [ int i\n  if(i/0) pn 1\n]\n", system=LIB)
    line = next(ln for ln in out.splitlines() if "if(i/0)" in ln and "|" in ln)
    assert "(false)" not in line and "(true)" not in line
    assert "err  30" in out


def test_trace_reads_piped_input():
    lib = LIB.replace(b"endlibrary", b"gn [ char b(9); MC b,15; return b(0)-48 ]\nendlibrary")
    out = trace.trace("main [ int x\n x=gn\n pn x*2 ]\n", stdin=b"7\n", system=lib)
    assert "x=7" in out and " 14" in out


def test_trace_end_of_input_stops_the_program():
    lib = LIB.replace(b"endlibrary", b"gn [ char b(9); MC b,15; return b(0)-48 ]\nendlibrary")
    out = trace.trace("main [ pn gn ]\n", stdin=b"", system=lib)
    assert out.endswith("stopped\n")


def test_trace_shows_string_arguments():
    out = trace.trace("say char m(0) [ ps m ]\nmain [ say \"hey\" ]\n", calls=True, system=LIB)
    assert '"hey")' in out


def test_trace_runtime_error_report():
    out = trace.trace("int a(1)\nmain [\n  a(5)=1\n]\n", system=LIB)
    assert out.endswith(" 3 --- err  6\n  a(5)=1\n      <\n")


@pytest.mark.parametrize("command", ["tokens", "parse", "trace"])
def test_syntax_error_gives_report_not_traceback(command, tmp_path, capsys):
    bad = tmp_path / "bad.tc"
    bad.write_text(BAD)
    assert cli.main([command, str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.endswith(BAD_REPORT) and "Traceback" not in err


@pytest.mark.parametrize("command", ["tokens", "parse"])
def test_statement_syntax_error(command, capsys):
    assert cli.main([command, "-e", "pn (2+"]) == 1
    assert capsys.readouterr().err == " 1 --- err  9\npn (2+\n     <\n"


@pytest.mark.parametrize("command", ["ast", "link"])
def test_syntax_error_is_an_error_statement_in_the_ast(command, tmp_path, capsys):
    """The AST holds what the engines run: a statement that does not parse is an ErrorStmt carrying
    its error number, raised only if it runs (reference 14 item 16)."""
    bad = tmp_path / "bad.tc"
    bad.write_text(BAD)
    assert cli.main([command, str(bad)]) == 0
    out = capsys.readouterr().out
    assert "ErrorStmt 9" in out if command == "ast" else "main" in out


def test_statement_syntax_error_in_the_ast(capsys):
    assert cli.main(["ast", "-e", "pn 1; pn (2+"]) == 0
    out = capsys.readouterr().out
    assert "ErrorStmt 9" in out and "Call" in out


def test_missing_file_and_no_input(capsys):
    assert cli.main(["ast", "/nonexistent/x.tc"]) == 2
    assert cli.main(["parse"]) == 2
    assert "give a FILE" in capsys.readouterr().err


def test_cli_prints_the_view(tmp_path, capsys):
    prog = tmp_path / "p.tc"
    prog.write_text(PROG)
    assert cli.main(["ast", str(prog)]) == 0
    assert capsys.readouterr().out == views.ast_dump(PROG)
    assert cli.main(["link", str(prog)]) == 0
    out = capsys.readouterr().out
    assert "level 2, program: 3 symbols" in out and "functions (tinyc link --library lists them)" in out
