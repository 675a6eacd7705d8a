"""tinyc tokens|parse|ast|link|check|trace|compile on Gibson-dialect programs (issue 25 item 2, issue 30
part 4), through ``python -m tinyc`` in a subprocess."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "gibson").glob("*.tc"))
BAD = b'#include pps/library.tc\nmain [\n  int i\n  i = j + 1\n  foo(i)\n]\nfoo int a [ return a + ) ]\n'
UNBALANCED = b'#include pps/library.tc\nmain [\n  int i\n'


def tinyc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], cwd=cwd, capture_output=True, timeout=120)


@pytest.mark.parametrize("view", ["tokens", "parse", "ast", "link", "check"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_views_work_on_the_gibson_examples(view, path):
    r = tinyc(view, str(path))
    assert r.returncode == 0, r.stderr
    assert b"reading it in the Gibson dialect" in r.stderr
    assert b"error 9" not in r.stderr and b"error 20" not in r.stderr
    if view != "check":
        assert r.stdout


def test_tokens_show_the_lexer_hack_in_file_positions():
    out = tinyc("tokens", "examples/gibson/hello.tc").stdout.decode()
    assert out.splitlines()[0].split() == ["4:1", "FNAME0", "main", "was", "NAME"]
    assert "WHILE" in out and "HASHLINE" not in out
    assert "HASHLINE" in tinyc("tokens", "--layout", "examples/gibson/hello.tc").stdout.decode()


def test_ast_and_link_use_program_memory_addresses():
    ast_out = tinyc("ast", "examples/gibson/hello.tc").stdout.decode()
    assert ast_out.startswith("seed: Block") and "Function main" in ast_out
    link_out = tinyc("link", "examples/gibson/hello.tc").stdout.decode()
    for part in ("seed: the statement", "library pps/library.tc", "endlibrary", "application"):
        assert part in link_out
    main_at = int(ast_out.split("Function main")[1].split("@")[1].split()[0])
    assert f"@{main_at}" in link_out  # the function's text where the AST says it starts


def test_the_dialect_is_chosen_with_the_option(tmp_path):
    plain = tmp_path / "plain.tc"
    plain.write_bytes(b"main [\n  pl \"hi\"\n]\n")  # no header line: pc by default, so gibson must be asked
    r = tinyc("check", "--dialect", "gibson", str(plain))
    assert r.returncode == 0 and b"no problems" in r.stderr


def test_check_reports_each_problem_in_the_gibson_form(tmp_path):
    (tmp_path / "bad.tc").write_bytes(BAD)
    r = tinyc("check", "bad.tc", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stdout.decode().splitlines() == ["bad.tc:4:8: error 3: SYMERR, decl needed",
                                              "bad.tc:7:24: error 9: SYNXERR"]
    report = tinyc("check", "--format", "report", "bad.tc", cwd=tmp_path).stdout.decode()
    run = tinyc("run", "-q", "bad.tc", cwd=tmp_path).stdout.decode()
    assert run.strip() in report  # the first problem is reported as a run reports it
    assert "app line 7 (cursor pr[" in report


def test_a_view_of_a_program_that_does_not_scan_gives_the_dialect_report(tmp_path):
    (tmp_path / "unbal.tc").write_bytes(UNBALANCED)
    for view in ("tokens", "parse", "ast", "link"):
        r = tinyc(view, "unbal.tc", cwd=tmp_path)
        assert r.returncode == 1 and b"RBRCERR, ] required in app code" in r.stderr
        assert b"Traceback" not in r.stderr
    r = tinyc("check", "unbal.tc", cwd=tmp_path)
    assert r.returncode == 1 and b"error 3023: RBRCERR" in r.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_compile_shows_the_gibson_fast_engine_python(path):
    r = tinyc("compile", str(path))
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "(Gibson dialect)" in out and "# the seed statement" in out and "f_main" in out
    compile(out, str(path), "exec")  # the factories are Python


def test_compile_says_which_functions_fall_back_and_stops_on_a_link_error(tmp_path):
    out = tinyc("compile", "examples/gibson/fib.tc").stdout.decode()
    assert "# fib: runs on the reference evaluator (the dialect's fall-back rule)" in out
    (tmp_path / "unbal.tc").write_bytes(UNBALANCED)
    r = tinyc("compile", "unbal.tc", cwd=tmp_path)
    assert r.returncode == 1 and b"RBRCERR" in r.stderr


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name != "house.tc"], ids=lambda p: p.name)
def test_trace_keeps_the_output_of_a_run(path):
    run = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "-q", str(path)], cwd=ROOT, input=b"50\n25\n",
                         capture_output=True, timeout=120)
    traced = subprocess.run([sys.executable, "-P", "-m", "tinyc", "trace", "--limit", "50", str(path)], cwd=ROOT,
                            input=b"50\n25\n", capture_output=True, timeout=120)
    ran = run.stdout.split(b"\nlib line 45 (cursor pr[871])SYMERR")[0]  # gs at the end of the input (G 4.3)
    assert traced.stdout.rstrip(b"\n ") == ran.replace(b"KILL, stopped by user", b"").rstrip(b"\n ")
    assert b"entry | main();" in traced.stderr


def test_trace_shows_statements_conditions_and_calls():
    err = tinyc("trace", "examples/gibson/hello.tc").stderr.decode().splitlines()
    assert "    5 |   int i                              i=0" in err
    assert "    7 |   while i < 5                        (true)" in err
    assert "    7 |   while i < 5                        (false)" in err
    assert "    8 |   i = i + 1                          i=5" in err
    assert not any("MC 101" in line for line in err)  # the library is not traced without --library
    calls = tinyc("trace", "--calls", "examples/gibson/fib.tc").stderr.decode()
    assert "call fib(1)" in calls and "returns 1" in calls
    lib = tinyc("trace", "--library", "examples/gibson/hello.tc").stderr.decode()
    assert "lib " in lib and "MC 101" in lib


def test_trace_stops_with_the_dialect_report(tmp_path):
    (tmp_path / "bad.tc").write_bytes(BAD)
    r = tinyc("trace", "bad.tc", cwd=tmp_path)
    assert r.returncode == 0  # as tinyc run (and tc) end after an error in this dialect: the door matrix's rule
    assert r.stderr.decode().endswith("app line 4 (cursor pr[5545])SYMERR, decl needed\n  i = j + 1\n      ^\n")


def test_a_missing_include_is_a_clear_message(tmp_path):
    (tmp_path / "x.tc").write_bytes(b"#include nowhere.tc\nmain [ ]\n")
    r = tinyc("ast", "x.tc", cwd=tmp_path)
    assert r.returncode == 2 and b"No such file: nowhere.tc" in r.stderr


def test_the_highlighter_knows_the_gibson_comments_and_header_lines():
    from pygments.token import Comment, Operator
    from tinyc.shell.highlight import TinyCLexer
    text = "#include pps/library.tc\n#loadMC pifib\nmain [ x = 1 // one\n  y = 4 / 2 /* two\n]\n"
    tokens = [(t, v) for t, v in TinyCLexer().get_tokens(text) if v.strip()]
    assert (Comment.Preproc, "#include pps/library.tc") in tokens
    assert (Comment.Preproc, "#loadMC pifib") in tokens
    assert (Comment.Single, "// one") in tokens and (Comment.Single, "/* two") in tokens
    assert (Operator, "/") in tokens


SQUARES = b'#include pps/library.tc\nint g\nsq int n [\n  return n*n\n]\nmain [\n  int k, s, x\n  g = 3\n  x = 2\n' \
          b'  k = 0\n  while k < 10 [ s = s + sq(k) + g + x*x; k = k + 1 ]\n  printf("%d", s)\n]\n'


def test_compile_takes_the_optimisation_switches(tmp_path):
    # issue 37: tinyc compile -O0 / --no-NAME show the code with that optimisation off, as `tinyc run` runs it
    (tmp_path / "sq.tc").write_bytes(SQUARES)

    def code(*switches: str) -> str:
        r = tinyc("compile", *switches, "sq.tc", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        return r.stdout.decode()
    every, plain = code(), code("-O0")
    framed, evaluated = code("--no-dead-frames"), code("--no-invariants")
    assert "def f_sq(v_n, _t, _d):" in every and "_Pki(_D, _t, v_n)" not in every  # sq writes no cell
    assert "_Pki(_D, _t, v_n)" in framed and "(optimisations: bounds, const-globals, room, depth-guard" in framed
    assert "_Pki(_D, _t, v_n)" in plain and "(optimisations: none)" in plain
    assert "+ 4)" in every and "(v_x * v_x)" not in every  # x*x does not change in the loop: once, before it
    assert "(v_x * v_x)" in evaluated and "(v_x * v_x)" in plain
