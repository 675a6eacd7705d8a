"""The fast engine against the reference evaluator: same output bytes, error number and error cursor."""

from pathlib import Path

import pytest

from engine_harness import both, run_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.tc"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples(path):
    ref, fast = both(path.read_bytes())
    assert ref[1] == 0, ref
    assert fast == ref


@pytest.mark.parametrize("games", [1, 7])
def test_bca(games):
    src = (ROOT / "programs/bca.tc").read_bytes()
    ref, fast = both(src, entry="bca", stdin=b"3141\n%d\n" % games)
    assert b"Average number of tries" in ref[0]
    assert fast == ref


def test_bc_plays_a_game():
    src = (ROOT / "programs/bc.tc").read_bytes()
    # the scores of some game: whatever the program guesses, answer "0B0C" then run out of input
    ref, fast = both(src, entry="bullcow", stdin=b"77\n9\n9\n")
    assert ref[1] == 99
    assert fast == ref


# Each program: (source, what it exercises).  Every run-time error number appears at least once.
PROGRAMS = [
    ("main [ int a(3); a(4)=1 ]", "6: subscript past the end"),
    ("main [ int a(3),i; i=-1; pn a(i) ]", "6: negative subscript read"),
    ("main [ char p(0); p=-5; pn p(1) ]", "6: unchecked pointer below memory"),
    ("main [ char p(0); p=1048575; pn p(0); pn p(1) ]", "6: unchecked pointer past memory"),
    ("main [ int p(0); p=1048573; p(0)=7 ]", "6: int store straddling the end"),
    ("main [ int x; x(1)=2 ]", "7: subscript on a scalar"),
    ("main [ pn(1)=2 ]", "14: assignment to a call"),
    ("main [ (1+2)=3 ]", "14: not an lvalue"),
    ("f int n [ return f(n+1) ]\nmain [ f 0 ]", "17: runaway recursion"),
    ("f int n [ int a(50); if(n) f(n-1) ]\nmain [ f 100 ]", "17 with frames holding arrays"),
    ("main [ int k; while(k<5000) [ int x; ++k ] ]", "18: too many declarations in one call"),
    ("main [ int a(300000) ]", "19: out of value space"),
    ("f int a,b [ return a+b ]\nmain [ pn f(1) ]", "21: too few arguments"),
    ("main [ MC 1,2,3,99 ]", "24: bad MC number"),
    ("main [ pn nosuch ]", "26: undefined symbol"),
    ("int v\nmain [ v(1,2) ]", "26: call of a variable"),
    ("main [ int z; pn 7/z ]", "30: division by zero"),
    ("main [ int z; pn 7%z ]", "30: remainder by zero"),
    ("main [ pn gn() ]", "99: input ends while reading"),
    ("main [ int x; x=2147483647; ++x; pn x; x=x*x*x; pn x; pn -2147483647-1/-1 ]", "wrap-around"),
    ("main [ int x; x=-2147483647-1; pn x/-1; pn x%-1; pn -7/2; pn -7%2; pn 7%-2 ]", "C division"),
    ("main [ char c; c=300; pn c; c=c+200; pn c; pn (c=129) ]", "char stores truncate"),
    ("char s(5)\nmain [ s(0)=200; pn s(0); ++s(0); pn s(0); pn ++s(1) ]", "char array elements"),
    ("int a(2),b\nmain [ a=b; pn a; a(0)=5; pn b; ++a; pn a ]", "assignable array names"),
    ("int q(3)\nf int a(3) [ a(1)=9; return a(1) ]\nmain [ pn f(0); pn f(q); pn q(1) ]",
     "array parameters: fresh space for 0"),
    ("main [ int i; for(i=0;i<5;++i) [ if(i==3) break; pn i ] ; pn i ]", "for and break"),
    ("main [ int i; while(1) [ ++i; if(i>3) break ]; pn i; f ]\nf [ break; pn 1 ]", "break ends a function"),
    ("main [ pn !0; pn !5; pn (3<4)+(4<3); pn -(1<2); pn +(1==1) ]", "relational values are ints"),
    ("main [ int x; x=5; pn x; int x; pn x ]", "a redeclaration keeps the first binding"),
    ("f [ x=3; int x; x=4; pn x ]\nint x\nmain [ f; pn x ]", "a name used before its declaration is global"),
    ("main [ if(1) [ int y; y=2; pn y ] ]", "declaration in a nested block"),
    ("int g\nmain [ pn (g=5); pn g; pn ++g; pn (x=2); ]\nint x", "assignments as values"),
    ("main [ ps \"ab\"; pn \"xy\"-\"ab\" ]", "string literal addresses"),
    ("main [ int a(2); int b(2); pn b-a; pn f(); int c(0); pn c-b ]\nf [ int z(9); return z ]",
     "frame addresses in value space"),
    ("main [ int x,y; x=y=7; pn x+y; pn (x=x+1)*(y=y*2) ]", "chained assignments"),
    ("main [ pn MC 5,7,2,14; pn MC 65,1 ]", "extra MC arguments are ignored"),
    ("main [ char b(20); strcpy b,\"hello\"; strcat b,\" you\"; ps b; pn strlen(b) ]", "library strings"),
    ("main [ int k; k=3; while(k) --k; pn k; pn (k=-1)*(-1) ]", "conditions on raw values"),
    ("int a(4)\nmain [ a(a(0)+1)=a(0)=2; pn a(0); pn a(1); pn a(3) ]", "subscript evaluated before the value"),
    ("main [ pn f(2147483647,1) ]\nf int a,b [ return a+b ]", "argument wrap"),
    ("f char c [ return c ]\nmain [ pn f(511) ]", "char parameters truncate"),
    ("main [ int i; i=2147483647; pn (i+1<0); pn ((i+i)&0) ]", "comparison after wrap"),
    # bounds the fast engine derives along the code must not outlive what proves them
    ("char gs(5)\nmain [ int la(2),i; for(i=0;i<3;++i) pn 1; gs(i)=la(i) ]", "6: a loop counter past the end"),
    ("main [ int a(8),j,i; i=3; j=i+i; while(j<12) [ a(j)=1; j=j+i ] ]", "6: a stride past the end"),
    ("main [ int a(9),j; j=5; while(j<12) [ pn a(j); j=j+1 ]; pn j ]", "6: a while counter past the end"),
    ("int m\nf [ m=m+1 ]\nmain [ int a(5),i; m=3; while(i<m) [ pn a(i); f; ++i ] ]", "6: a bound a call raises"),
    ("main [ int a(3),k; k=3; if(k<4) pn a(k); ++k; pn a(k) ]", "6: a narrowed index used again"),
    ("main [ int i; i=2147483646; while(i>0) [ ++i; pn i ] ]", "counter wraps in a while"),
    ("f int n [ if(n<2) return n; return f(n-1)+n ]\nmain [ pn f(30); pn f(-2147483647-1) ]",
     "narrowed parameter"),
    ("int h(99)\nmain [ int y; h(0)=7; y=-99; pn h(y/100); y=-50; pn h(y%100) ]", "6: C remainder subscript"),
    ("int h(99)\nmain [ int y; h(0)=7; y=-99; pn h(y/100); y=9999; pn h(y/100); pn h(y%100); y=10000; "
     "pn h(y/100) ]", "6: C division subscript at both edges"),
    ("f int n [ if(n<1) return 0; return f(n-1)+1 ]\nmain [ pn f(198); pn f(199) ]", "17 exactly at the limit"),
    ("f int n [ int a(99000); if(n) f(n-1) ]\nmain [ f 20 ]", "19 in a deep frame"),
    ("f int n [ pn n/(n-3) ]\nmain [ f 2; f 3 ]", "30 in a callee"),
    ("int m,n\nmain [ int i,j,s; m=3; n=4; while(i<m) [ j=0; while(j<m) [ s=s+j*n; ++j ]; s=s+m; ++i ]; pn s ]",
     "globals read once by nested loops"),
    ("int m\nf [ ++m ]\nmain [ int i,j; m=2; while(i<m) [ j=0; while(j<m) [ if(m<6) f; ++j ]; ++i ]; pn i+j ]",
     "a global an inner loop's call changes"),
    ("int g\nmain [ int x; pn (g/++x); pn x; pn 7%++x; pn x ]",
     "a divisor with a known value still runs its side effect (++x)"),
]


@pytest.mark.parametrize("src,why", PROGRAMS, ids=[p[1] for p in PROGRAMS])
def test_programs(src, why):
    ref, fast = both(src, stdin=b"")
    assert fast == ref


def test_every_error_number_is_covered():
    seen = {run_program(src, "reference")[1] for src, _ in PROGRAMS}
    assert {6, 7, 14, 17, 18, 19, 21, 24, 26, 30, 99} <= seen


def test_int_bits_16():
    src = "main [ int x; x=32767; ++x; pn x; pn x*x; pn 300*300; char c; c=x; pn c ]"
    ref, fast = both(src, int_bits=16)
    assert ref[1] == 0
    assert fast == ref


def test_mc11_nested_program_sees_its_own_globals():
    # the system file's shell runs a program through MC 11; the fast engine links each run anew
    from tinyc.driver.interpreter import system_file
    import io
    from tinyc.machine.console import Console
    from tinyc import Session
    outs = []
    for engine in ("reference", "fast"):
        out = io.BytesIO()
        m = Session(engine=engine, max_depth=200,
                    console=Console(io.BytesIO(b"int x\nmain [ x=x+1; pn x ]\n.main\n.main\n.x\n"), out)).machine()
        m.boot_ipl(system_file())
        m.console.flush()
        outs.append(out.getvalue())
    assert b" 1" in outs[0]
    assert outs[1] == outs[0]


def test_compile_prints_annotated_python(capsys):
    from tinyc.cli import main as cli
    assert cli.main(["compile", str(ROOT / "examples/fact.tc")]) == 0
    out = capsys.readouterr().out
    assert "def f_fact(v_n, _t, _d):" in out
    assert "# return n*fact(n-1)" in out
    compile(out, "generated", "exec")  # it is valid Python


def test_compile_shows_the_code_that_run_runs(tmp_path, capsys, monkeypatch):
    """`tinyc compile --entry E` links as `tinyc run --entry E` does: here the entry statement lets the
    globals n and mode (which only ever hold constants) have bounds, so n+1 and mode*2 need no wrap."""
    from tinyc.cli import main as cli
    from tinyc.engines import codegen, compiler
    program = tmp_path / "consts.tc"
    program.write_bytes(b'int n, mode\nshow [ pn n+1; pn mode*2 ]\nmain [ n=5; mode=3; show(); pl "" ]\n')
    ran = []
    original = codegen.Codegen.generate
    monkeypatch.setattr(codegen.Codegen, "generate", lambda self: ran.append(original(self)[0]) or ran[-1:] + [{}])
    monkeypatch.setenv("TINYC_NO_CACHE", "1")
    assert cli.main(["run", str(program)]) == 0
    assert capsys.readouterr().out == " 6 6\r\n"
    assert cli.main(["compile", str(program)]) == 0
    shown = capsys.readouterr().out
    show = next(code for code in ran if "def f_show(" in code)

    def code(text: str) -> str:  # compile's view adds comments of the tiny-c text; the code run has none
        return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert code(show) in code(shown) and "2147483647" not in show


# Programs that reach their own (or their callers') scalar locals through memory (issue 13 item 6): the
# fast engine keeps scalars in Python variables and must write them to their cells before memory can be
# read there and read them back after memory may have been written there.
FRAME_PROGRAMS = [
    ("char a(0)\nmain [ int i; i=5; a(1)=9; a(2)=9; pn i ]", "a store past a global into a local"),
    ("main [ char b(1); int x,y; x=1; y=2; strcpy b,\"abcdefghij\"; pn x; pn y; ps b ]",
     "strcpy of a long literal over the locals"),
    ("main [ char a(0); int x; x=1234; pn a(1); pn a(2); pn a(1)+a(2)*256 ]", "reading a local's bytes"),
    ("f char p(0) [ return p(1) ]\nmain [ char a(0); int x; x=65; pn f(a); x=66; pn f(a) ]",
     "a callee reads the caller's local"),
    ("f char p(0) [ p(1)=9 ]\nmain [ char a(0); int x; x=5; f(a); pn x; f a; pn x ]",
     "a callee writes the caller's local"),
    ("main [ char a(0); int x,y; x=1; y=2; memset a+1,8,1; pn x; pn y ]", "MC 16 fill over the frame"),
    ("main [ char a(0); int x,y; x=300; y=7; movebl a+1,a+4,4; pn x; pn y ]", "MC 7 block move over the frame"),
    ("main [ char a(0); int x,y; x=7; y=263; pn countch(a,a+8,7); y=7; pn countch(a,a+8,7) ]",
     "MC 8 counts bytes of the locals"),
    ("main [ char a(0); int i; pn (i=3)+a(1); pn (a(1)=7)+i; pn i ]", "order inside one expression"),
    ("main [ int a(0),x; x=9; a(1)=a(1)+1; pn x; ++a(1); pn x; pn a(1)++x ]", "int pointer into the frame"),
    ("main [ char a(0); int i; for(i=0;i<10;++i) [ a(1)=a(1)+1; pn i ] ]", "a for counter changed in memory"),
    ("main [ char a(0); int i; i=1; while(i<50) [ a(1)=a(1)*2; pn i ] ]", "a while bound changed in memory"),
    ("g [ int z; char q(0); z=1000; q(0)=1 ]\nh [ char p(0); pn p(1) ]\nmain [ g; h ]",
     "a dead frame's bytes are the reference's"),
    ("f int n [ char a(0); int x; x=n*3; if(n) f(n-1); a(1)=a(1)+1; pn x; return x ]\nmain [ pn f(3) ]",
     "recursion with stores into each frame"),
    ("main [ char a(0), c; int k; c=65; k=1; pn a(1); a(1)=66; pn c; pn k ]", "char locals in memory"),
    ("f int n, m [ char a(0); a(0-8)=1; pn n; pn m; return n ]\nmain [ pn f(2,3) ]",
     "parameters below the array"),
    ("f char p(0) [ int k; k=p(0); p(0)=k+1; return k ]\nmain [ char a(0); int x; x=10; pn f(a+1)+x; pn x ]",
     "a call changes an operand read after it"),
    ("main [ char a(0); int x; x=5; a(1)=1; pn x ]", "no store reaches an unused variable's stale value"),
    ("int gb(5)\nmain [ int v; v=1; gb(v)=(v=3); pn gb(1); pn gb(3); v=1; gb(v)=++v; pn gb(1); pn gb(2) ]",
     "the index of a store is taken before its value changes it (fuzz)"),
    ("int gb(5)\nf char p(0) [ p(1)=3 ]\nmain [ char a(0); int v; v=1; gb(v)=f(a); pn gb(1); pn gb(3) ]",
     "the index of a store is taken before a call changes it through memory (fuzz)"),
    ("int ga(0)\nchar gb(0)\nf [ gb=gb+1 ]\nmain [ char p(0); pn ga((ga=100))+0; ga((ga=200))=7; pn ga(0); "
     "pn p((p=300)); gb=400; gb(f())=9; pn gb(0); gb=400; pn gb(1); --ga((ga=48)); pn ga(48) ]",
     "a subscript's index runs before its pointer is read (fuzz)"),
    ("main [ char a(0); int i,s; for(i=0;i<5;++i) s=s+a(i); pn s; pn i ]", "reads of the counters' cells"),
    ("int h(3)\nmain [ int x; char a(0); x=3; h(1)=a(0-4); pn h(1) ]", "a read below the array"),
]


@pytest.mark.parametrize("src,why", FRAME_PROGRAMS, ids=[p[1] for p in FRAME_PROGRAMS])
def test_locals_reached_through_memory(src, why):
    ref, fast = both(src, stdin=b"")
    assert fast == ref
    assert ref[1] == 0 or why.startswith("6")


def test_locals_reached_through_memory_16_bits():
    for src, _ in FRAME_PROGRAMS:
        ref, fast = both(src, stdin=b"", int_bits=16)
        assert fast == ref, src


# Code too deep for CPython's compiler (issue 13 item 1): the fast engine runs such a function on the
# reference evaluator instead of letting SyntaxError/IndentationError/RecursionError escape.
DEEP_PROGRAMS = [
    ("main [ int x; " + "while(0)[ " * 21 + "x=1" + " ]" * 21 + " pn 7 ]", "21 nested while"),
    ("main [ int x; " + "if(1) " * 98 + "x=1; pn x ]", "98 nested if"),
    ("int a(0)\nmain [ pn " + "a(" * 68 + "0" + ")" * 68 + " ]", "68 nested subscripts"),
    ("main [ pn " + "!" * 199 + "0 ]", "199 !"),
    ("main [ int x; " + "x=" * 202 + "1; pn x ]", "202 chained assignments"),
    ("main [ int x; x=1; pn " + "+".join(["x"] * 500) + " ]", "a sum of 500 terms"),
    ("main [ int i; " + "for(i=0;i<1;++i) " * 30 + "pn i ]", "30 nested for"),
    ("char a(0)\nmain [ int x; " + "if(1) " * 90 + "a(1)=1; pn x ]", "deep if around a store into the frame"),
]


@pytest.mark.parametrize("src,why", DEEP_PROGRAMS, ids=[p[1] for p in DEEP_PROGRAMS])
def test_beyond_the_python_compiler(src, why):
    ref, fast = both(src, stdin=b"")
    assert ref[1] == 0
    assert fast == ref


# Array sizes that wrap negative or do not fit (issue 13 item 7, docs/decisions.md 21): nothing moves the
# allocator backwards, and both engines agree.
SIZE_PROGRAMS = [
    ("int a(-100), b(2)\nmain [ int c(-5), d(1); pn b-a; pn d-c ]", b" 0 0", 0),
    ("int a(4294967295), b(2)\nmain [ pn b-a ]", b" 0", 0),
    ("f int p(-9) [ int q(0); pn q-p ]\nmain [ f 0; f 0 ]", b" 0 0", 0),
    ("char out(-99999999999999999999)\nint g\nmain [ int i; i=7; g=3; pn g; pn i ]", b" 3 7", 0),
    ("int a(2147483647)\nmain [ pn 1 ]", b"", 19),
    ("main [ int x; x=4; int a(2147483647) ]", b"", 19),
    ("main [ int a(-7), x; x=4; a(1)=9; pn x ]", b" 4", 0),
]


@pytest.mark.parametrize("src,out,err", SIZE_PROGRAMS, ids=[p[0][:30] for p in SIZE_PROGRAMS])
def test_array_sizes_never_move_the_allocator_back(src, out, err):
    ref, fast = both(src, stdin=b"")
    assert fast == ref
    assert ref[0].rstrip(b"\r\n") == out and ref[1] == err
