"""Differential test: random well-formed tiny-c programs give the same output, error and cursor on both engines.

The generator builds programs from globals (int and char scalars and arrays), helper functions with
scalar and array parameters, and a ``main`` with locals, bounded ``for`` loops, ``while``/``break``,
``if``/``else`` and ``pn`` output.  Expressions mix big constants (wrap-around), chars, subscripts that
may leave their range (error 6), ``/`` and ``%`` that may divide by zero (error 30), calls, assignments
and ``++``/``--`` used as values.  For the fast engine's bounds analysis it also generates ``while``
loops counting up to a computed bound (a local or a global that a called function may change),
subscripts at the edges of their range and of the form ``y/d``, ``y%d``, early returns that narrow a
parameter, and recursion around the depth limit (error 17).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_harness import both

INTS = ["g", "h"]
CHARS = ["gc"]
ARRAYS = {"ga": ("int", 4), "gs": ("char", 6), "la": ("int", 3), "lc": ("char", 2)}
LOCALS = ["x", "y"]
LOCAL_CHARS = ["c"]
LOOP = ["i", "j"]  # loop counters: never assigned by generated code except in their for
COUNTER = "w"      # the counter of the generated counting while loops (assigned only there)
NUMBERS = st.one_of(st.integers(-9, 9), st.sampled_from([127, 128, 255, 256, 65535, 2147483647, -2147483647,
                                                          1000000, 46341]))


@st.composite
def expr(draw, depth=0, in_main=True, params=()):
    scalars = INTS + CHARS + (LOCALS + LOCAL_CHARS + LOOP + [COUNTER, "lim"] if in_main else list(params))
    arrays = [a for a in ARRAYS if in_main or a.startswith("g")] + ([] if in_main else ["pa"])
    choices = ["num", "var", "char"]
    if depth < 3:
        choices += ["bin", "bin", "elem", "unary", "paren"]
        if in_main:
            choices += ["call", "assign", "incr"]
    kind = draw(st.sampled_from(choices))
    sub = lambda: draw(expr(depth + 1, in_main, params))  # noqa: E731
    # subscripts stay in range most of the time, so that runs get past their first statements
    index = lambda: (draw(st.sampled_from(["0", "1"] + (LOOP + [COUNTER] if in_main else [])))  # noqa: E731
                     if draw(st.integers(0, 9)) < 7 else
                     draw(st.sampled_from(["2", "3", "4", "5", "(-1)", f"({sub()}/10)", f"({sub()}%3)"]))
                     if draw(st.booleans()) else sub())
    if kind == "num":
        n = draw(NUMBERS)
        return str(n) if n >= 0 else f"({n})"
    if kind == "char":
        return "'" + draw(st.sampled_from("a0Z ~")) + "'"
    if kind == "var":
        return draw(st.sampled_from(scalars))
    if kind == "bin":
        op = draw(st.sampled_from(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="]))
        return f"({sub()}{op}{sub()})"
    if kind == "elem":
        return f"{draw(st.sampled_from(arrays))}({index()})"
    if kind == "unary":
        return draw(st.sampled_from(["-", "!"])) + f"({sub()})"
    if kind == "paren":
        return f"({sub()})"
    if kind == "call":
        f = draw(st.sampled_from(["f1", "f2", "f3", "f4", "rec"]))
        if f == "f4":
            return f"f4({sub()},{sub()})"
        if f == "rec":
            return f"rec({draw(st.sampled_from(['0', '3', '197', '198', '199', '300']))})"
        if f == "f1":
            return f"f1({sub()},{sub()})"
        if f == "f2":
            return f"f2({sub()})"
        return f"f3({draw(st.sampled_from(['ga', 'la', '0']))},{sub()})"
    if kind == "assign":
        return f"({draw(target(depth + 1))}={sub()})"
    return draw(st.sampled_from(["++", "--"])) + draw(target(depth + 1))


@st.composite
def target(draw, depth):
    if draw(st.booleans()):
        return draw(st.sampled_from(INTS + CHARS + LOCALS + LOCAL_CHARS))
    index = draw(st.sampled_from(["0", "1", "i", "j"])) if draw(st.integers(0, 9)) < 8 else draw(expr(depth + 1))
    return f"{draw(st.sampled_from(list(ARRAYS)))}({index})"


@st.composite
def statement(draw, depth=0, loops=0):
    kinds = ["print", "print", "assign", "incr"]
    if depth < 2:
        kinds += ["if", "for", "while", "count"]
    if loops:
        kinds.append("break")
    kind = draw(st.sampled_from(kinds))
    e = lambda: draw(expr())  # noqa: E731
    if kind == "print":
        return f"pn {e()}"
    if kind == "assign":
        return f"{draw(target(0))}={e()}"
    if kind == "incr":
        return draw(st.sampled_from(["++", "--"])) + draw(target(0))
    if kind == "break":
        return "break"
    body = lambda: draw(block(depth + 1, loops + (kind != "if")))  # noqa: E731
    if kind == "if":
        s = f"if({e()}) {body()}"
        if draw(st.booleans()):
            s += f"\n else {body()}"
        return s
    if kind == "count":  # w counts up to a bound: a constant, a loop counter or lim (changed by f1)
        if loops:
            return f"pn {e()}"
        bound = draw(st.sampled_from(["lim", "i", "7", "(-2)", "g%9"]))
        step = draw(st.sampled_from(["1", "2", "3"]))
        return (f"w={e()}%5\n while(w<{bound}) [\n{draw(block(depth + 1, loops + 1))}\n"
                f" w=w+{step}\n ]")
    if kind == "for":
        k = LOOP[min(loops, len(LOOP) - 1)] if loops < len(LOOP) else None
        if k is None:
            return f"pn {e()}"
        return f"for({k}=0;{k}<{draw(st.integers(0, 4))};++{k}) {body()}"
    return f"while({e()}) [\n{draw(block(depth + 1, loops + 1))}\n break\n ]"


@st.composite
def block(draw, depth, loops):
    stmts = draw(st.lists(statement(depth, loops), min_size=1, max_size=3))
    return "[\n" + "\n".join(stmts) + "\n]"


@st.composite
def program(draw):
    f1 = draw(expr(in_main=False, params=("a", "b")))
    f2 = draw(expr(in_main=False, params=("a", "d")))
    f3 = draw(expr(in_main=False, params=("n",)))
    f4 = draw(expr(in_main=False, params=("a", "b")))
    body = draw(st.lists(statement(), min_size=1, max_size=8))
    return "\n".join([
        "int g,h,ga(3),lim",
        "char gc,gs(5)",
        f"f1 int a,b [ lim=lim-1; return {f1} ]",
        f"f2 char a [ int d; d=a*3; return {f2} ]",
        f"f3 int pa(0); int n [ pa(1)=n; return {f3} ]",
        f"f4 int a,b [ int s; if(a<0) return b; if(a>30) return {f4}; if(b>40) b=40; while(a<b) [ s=s+a*a/(a-b); a=a+2 ] return s ]",
        "rec int n [ if(n<1) return 0; return rec(n-1)+1 ]",
        "main [",
        "int x,y,la(2),i,j,w; char c,lc(1)",
        f"lim={draw(st.integers(-2, 6))}",
        *body,
        "pn g+h+gc+x+y+c",
        "]",
    ]) + "\n"


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(program())
def test_engines_agree(src):
    ref, fast = both(src, stdin=b"")
    assert fast == ref, src


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(program())
def test_engines_agree_16_bit(src):
    ref, fast = both(src, stdin=b"", int_bits=16)
    assert fast == ref, src
