"""Random tiny-c programs over the grammar (valid ones) and mutations of them (mostly invalid ones).

Generators take ``r``, a :class:`random.Random` (or Hypothesis's ``st.randoms()``, see ``strategies.py``):
the long campaign draws from seeded Randoms (fast), the test suite from Hypothesis (derandomized, shrinks
through its Random).  Programs use every kind of declaration (globals, parameters, locals, nested
declarations, redeclarations), nested statements, calls with and without parentheses, pointers and
unchecked or out-of-range access (into the frames too), library calls and machine calls.  Loops have
counters, but a store through memory can change a counter: the runner limits CPU time.
"""

from __future__ import annotations

import random

LIBRARY = ["strcpy", "strlen", "strcat", "memset", "movebl", "countch", "toupper", "ceqn", "index", "move"]
BINOPS = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="]
NUMBERS = [0, 1, 2, 3, 5, 7, 9, 10, 100, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 2147483647,
           2147483648, 4294967295, 1000000]
STRINGS = ["", "a", "hi", "hello world", "BROWN", "quick-brown", "0123456789abcdef", "x\\ty"]


def bare(args: list[str]) -> list[str]:
    """Arguments of a call without parentheses (or of MC): a first one that starts with ( would be taken
    as the argument list."""
    if args and args[0].startswith("("):
        return ["0+" + args[0]] + args[1:]
    return args


class Scope:
    def __init__(self, ints, chars, arrays):
        self.ints, self.chars, self.arrays = list(ints), list(chars), dict(arrays)  # arrays: name -> (type, n)

    def scalars(self):
        return self.ints + self.chars


class ProgramGen:
    """One random program: ``ProgramGen(r).program()`` -> (text, entry name)."""

    def __init__(self, r: random.Random, size: int = 1):
        self.r = r
        self.size = size  # scales statement counts
        self.funcs: dict[str, list[tuple[str, bool]]] = {}  # name -> params (type, array)
        self.depth_left = 0

    # ---- small pieces
    def choice(self, xs):
        return xs[self.r.randrange(len(xs))]

    def chance(self, p):
        return self.r.random() < p

    def number(self):
        n = self.choice(NUMBERS) if self.chance(0.5) else self.r.randint(-20, 40)
        return f"({n})" if n < 0 else str(n)

    def charlit(self):
        return "'" + self.choice("abcAZ09 _-+") + "'"

    def string(self):
        return '"' + self.choice(STRINGS) + '"'

    # ---- expressions
    def expr(self, sc: Scope, depth=0):
        r = self.r
        kinds = ["num", "var", "var", "char"]
        if depth < 3:
            kinds += ["bin", "bin", "bin", "elem", "elem", "unary", "paren", "assign", "incr", "call", "call",
                      "arr", "str", "lib", "mc"]
        k = self.choice(kinds)
        sub = lambda: self.expr(sc, depth + 1)  # noqa: E731
        if k == "num":
            return self.number()
        if k == "char":
            return self.charlit()
        if k == "var":
            names = sc.scalars() or ["0"]
            return self.choice(names)
        if k == "bin":
            op = self.choice(BINOPS)
            if op[0] in "<>=!":  # relational operators do not chain
                return f"({sub()}{op}{sub()})"
            return f"{sub()} {op} {sub()}"  # blanks: a-(-1) must not become a--1
        if k == "elem":
            return self.element(sc, depth)
        if k == "unary":
            return self.choice(["-", "!", "-", "!", "+"]) + "(" + sub() + ")"
        if k == "paren":
            return f"({sub()})"
        if k == "assign":
            return f"({self.target(sc, depth)}={sub()})"
        if k == "incr":
            return f"{self.choice(['++', '--'])}{self.target(sc, depth)}"
        if k == "call":
            return self.call(sc, depth, parens=True)
        if k == "arr":
            return self.pointer(sc)
        if k == "str":
            return self.string()
        if k == "lib":
            return self.libcall(sc, depth, parens=True)
        return self.mc(sc, depth)

    def pointer(self, sc: Scope):
        arrs = list(sc.arrays)
        if not arrs:
            return self.string()
        a = self.choice(arrs)
        return self.choice([a, a, f"{a}+{self.r.randint(0, 12)}", f"{a}-{self.r.randint(1, 12)}"])

    def index(self, sc: Scope, n: int, depth: int):
        r = self.r
        x = r.random()
        if x < 0.45:
            return str(r.randint(0, max(n, 0)))
        if x < 0.6:  # at or past the edges, into whatever lies there (the frame)
            return self.choice([str(n + 1), str(n + 2), str(n + 5), "(-1)", "(-4)", str(r.randint(-12, 24))])
        if x < 0.8 and sc.ints:
            return self.choice(sc.ints)
        return self.expr(sc, depth + 1)

    def element(self, sc: Scope, depth):
        arrs = list(sc.arrays)
        if not arrs:
            return self.number()
        a = self.choice(arrs)
        return f"{a}({self.index(sc, sc.arrays[a][1], depth)})"

    def target(self, sc: Scope, depth):
        if sc.scalars() and self.chance(0.5):
            return self.choice(sc.scalars())
        if sc.arrays and self.chance(0.85):
            return self.element(sc, depth)
        if sc.arrays:
            return self.choice(list(sc.arrays))  # a pointer moves
        return self.choice(sc.scalars() or ["nosuch"])

    def args(self, sc, params, depth):
        out = []
        for typ, arr in params:
            if arr:
                out.append(self.choice(["0", self.pointer(sc)]))
            else:
                out.append(self.expr(sc, depth + 1))
        return out

    def call(self, sc: Scope, depth, parens):
        if not self.funcs:
            return self.number()
        f = self.choice(list(self.funcs))
        a = self.args(sc, self.funcs[f], depth)
        if self.chance(0.03) and a:
            a = a[:-1]  # error 21
        if parens or not a:
            return f"{f}({','.join(a)})" if (a or self.chance(0.5)) else f
        return f"{f} {','.join(bare(a))}"

    def libcall(self, sc: Scope, depth, parens):
        f = self.choice(LIBRARY)
        p = lambda: self.pointer(sc)  # noqa: E731
        e = lambda: self.expr(sc, depth + 1)  # noqa: E731
        small = lambda: str(self.r.randint(0, 9))  # noqa: E731
        args = {"strcpy": lambda: [p(), self.choice([self.string(), p()])],
                "strlen": lambda: [self.choice([self.string(), p()])],
                "strcat": lambda: [p(), self.string()],
                "memset": lambda: [p(), small(), e()],
                "movebl": lambda: [p(), p(), self.choice(["1", "-1", "2", "(-3)", "4"])],
                "countch": lambda: [p(), p(), e()],
                "toupper": lambda: [p()],
                "ceqn": lambda: [p(), self.string(), small()],
                "index": lambda: [p(), small(), self.string(), small()],
                "move": lambda: [self.string(), p()]}[f]()
        if parens:
            return f"{f}({','.join(args)})"
        return f"{f} {','.join(bare(args))}"

    def mc(self, sc: Scope, depth):
        e = lambda: self.expr(sc, depth + 1)  # noqa: E731
        p = lambda: self.pointer(sc)  # noqa: E731
        return "MC " + ",".join(bare(self.choice([
                            [f"65+{self.r.randint(0, 25)}", "1"], [e(), "14"], [p(), p(), str(self.r.randint(-3, 3)), "7"],
                            [p(), p(), e(), "8"], [p(), str(self.r.randint(0, 9)), e(), "16"],
                            ["1005"], [e(), e(), str(self.r.randint(18, 30))]])))

    # ---- statements
    def stmt(self, sc: Scope, depth, loops, counters):
        r = self.r
        kinds = ["pn", "pn", "assign", "assign", "incr", "call", "lib", "expr"]
        if depth < 4:
            kinds += ["if", "if", "while", "for", "block"]
        if loops:
            kinds += ["break"]
        if depth > 0 or self.chance(0.3):
            kinds += ["return"]
        if depth == 0 or self.chance(0.05):  # nested declarations make the function run on the reference
            kinds += ["decl"]
        k = self.choice(kinds)
        e = lambda: self.expr(sc, 0)  # noqa: E731
        if k == "pn":
            return f"pn {e()}" if self.chance(0.8) else f"ps {self.pointer(sc)}"
        if k == "assign":
            return f"{self.target(sc, 0)}={e()}"
        if k == "incr":
            return f"{self.choice(['++', '--'])}{self.target(sc, 0)}"
        if k == "call":
            return self.call(sc, 0, parens=self.chance(0.5))
        if k == "lib":
            return self.libcall(sc, 0, parens=self.chance(0.5))
        if k == "expr":
            return e()
        if k == "break":
            return "break"
        if k == "return":
            return "return" if self.chance(0.3) else f"return {e()}"
        if k == "decl":
            name = self.choice(["x", "y", "z", "t", "q"])
            if self.chance(0.5):
                sc.ints.append(name)
                return f"int {name}"
            n = r.randint(0, 4)
            sc.arrays[name] = ("char", n)
            return f"char {name}({n})"
        body = lambda: self.block(sc, depth + 1, loops + (k in ("while", "for")), counters)  # noqa: E731
        if k == "if":
            s = f"if({e()}) {body()}"
            if self.chance(0.4):
                s += f" else {body()}"
            return s
        if k == "block":
            return body()
        if not counters:
            return f"pn {e()}"
        c = counters[min(loops, len(counters) - 1)] if loops < len(counters) else None
        if c is None:
            return f"pn {e()}"
        lim, pre = str(r.randint(0, 5)), ""
        names = [v for v in sc.ints if v not in counters]
        if names and self.chance(0.3):  # an end held in a variable (the body may assign it)
            v = self.choice(names)
            pre, lim = f"{v}={lim}\n ", v
        if k == "for":
            return f"{pre}for({c}=0;{c}<{lim};++{c}) {body()}"
        if self.chance(0.5):  # the step last: a counted while
            return f"{pre}{c}=0\n while({c}<{lim}) [ {body()}; ++{c} ]"
        return f"{pre}{c}=0\n while({c}<{lim}) [ ++{c}; {body()} ]"

    def block(self, sc, depth, loops, counters):
        n = self.r.randint(1, 3)
        inner = Scope(sc.ints, sc.chars, sc.arrays)
        return "[ " + "; ".join(self.stmt(inner, depth, loops, counters) for _ in range(n)) + " ]"

    def function(self, name, params, gscope: Scope, entry=False):
        sc = Scope(gscope.ints, gscope.chars, gscope.arrays)
        plist = []
        for i, (typ, arr) in enumerate(params):
            pn = "abcdef"[i]
            if arr:
                n = self.choice([0, 0, 3, 5])
                plist.append(f"{typ} {pn}({n})")
                sc.arrays[pn] = (typ, n)
            else:
                plist.append(f"{typ} {pn}")
                (sc.ints if typ == "int" else sc.chars).append(pn)
        lines = []
        counters = ["i", "j"]
        decl = ["int i,j"]
        for v in ["u", "v"][:self.r.randint(0, 2)]:
            decl.append(f"int {v}")
            sc.ints.append(v)
        if self.chance(0.5):
            decl.append("char k")
            sc.chars.append("k")
        for a in ["la", "lb"][:self.r.randint(0, 2)]:
            typ = self.choice(["int", "char"])
            n = self.choice([0, 0, 1, 3, 7])
            decl.append(f"{typ} {a}({n})")
            sc.arrays[a] = (typ, n)
        self.r.shuffle(decl)
        lines += decl
        for _ in range(self.r.randint(1, 4 * self.size)):
            lines.append(self.stmt(sc, 0, 0, counters))
        sep = self.choice(["\n  ", "; ", "\n  "])
        params_text = "; ".join(plist)
        return f"{name} {params_text} [\n  " + sep.join(lines) + "\n]"

    def program(self) -> tuple[str, str]:
        r = self.r
        g = Scope([], [], {})
        out = []
        for name in ["g", "h"][:r.randint(0, 2)]:
            out.append(f"int {name}")
            g.ints.append(name)
        if self.chance(0.6):
            out.append("char gc")
            g.chars.append("gc")
        for name in ["ga", "gb", "gs"][:r.randint(0, 3)]:
            typ = self.choice(["int", "char"])
            n = self.choice([0, 0, 2, 5, 9, 40])
            out.append(f"{typ} {name}({n})")
            g.arrays[name] = (typ, n)
        names = (["f", "fn", "rec"] if self.chance(0.1) else ["fa", "fb", "rec"])[:r.randint(0, 3)]  # f: a name the library uses as a variable (it is parsed again)
        for name in names:
            self.funcs[name] = [(self.choice(["int", "int", "char"]), self.chance(0.3))
                                for _ in range(r.randint(0, 3))]
        bodies = [self.function(n, self.funcs[n], g) for n in names]
        main = self.function("main", [], g, entry=True)
        r.shuffle(bodies)
        return "\n".join(out + bodies + [main]) + "\n", "main"


def program(r: random.Random, size: int = 1) -> str:
    return ProgramGen(r, size).program()[0]


# ---- mutations: mostly invalid programs (and valid ones the parser must still handle)

TOKENS = ["[", "]", "(", ")", ",", ";", "=", "==", "+", "-", "*", "/", "%", "!", "++", "--", "<", ">", "if",
          "else", "while", "for", "break", "return", "int", "char", "MC", "endlibrary", "'", '"', "/*", "x", "0",
          "main", "pn", "\n", "\r", "\r\n", "\x1a", "\x00", "\t", "\xff", "\x80", "é", "@", "{", "&", "#"]


def mutate(r: random.Random, text: str) -> bytes:
    """Apply one to three random mutations to ``text`` (returns bytes: control and non-ASCII bytes)."""
    b = text.encode("latin-1", "replace")
    for _ in range(r.randint(1, 3)):
        b = _mutate_once(r, b)
    return b


def _mutate_once(r, b: bytes) -> bytes:
    n = len(b)
    pos = r.randint(0, n)
    k = r.randrange(11)
    if k == 0 and n:  # delete a span
        end = min(n, pos + r.randint(1, 8))
        return b[:pos] + b[end:]
    if k == 1 and n:  # duplicate a span
        end = min(n, pos + r.randint(1, 40))
        return b[:end] + b[pos:end] + b[end:]
    if k == 2:  # insert a token
        return b[:pos] + r.choice(TOKENS).encode("latin-1", "replace") + b[pos:]
    if k == 3 and n:  # splice: move a span elsewhere
        end = min(n, pos + r.randint(1, 30))
        piece, rest = b[pos:end], b[:pos] + b[end:]
        at = r.randint(0, len(rest))
        return rest[:at] + piece + rest[at:]
    if k == 4:  # deep nesting
        depth = r.choice([10, 25, 60, 120, 400, 2100])
        kind = r.randrange(6)
        if kind == 0:
            piece = b"(" * depth + b"1" + b")" * depth
        elif kind == 1:
            piece = b"if(1) " * depth + b"pn 1"
        elif kind == 2:
            piece = b"while(0)[ " * depth + b"]" * depth
        elif kind == 3:
            piece = b"!" * depth + b"0"
        elif kind == 4:
            piece = b"x=" * depth + b"1"
        else:
            piece = b"+".join([b"1"] * depth)
        return b[:pos] + b"\n" + piece + b"\n" + b[pos:]
    if k == 5:  # a huge or odd literal
        lit = r.choice([b"9" * r.choice([11, 20, 100, 5000]), b"-2147483648", b"0x10", b"'ab'", b"''", b"'",
                        b'"unterminated', b"1e5", b"00000000000000000000000000000001"])
        return b[:pos] + lit + b[pos:]
    if k == 6:  # control and non-ASCII bytes
        return b[:pos] + bytes(r.randrange(256) for _ in range(r.randint(1, 4))) + b[pos:]
    if k == 7:  # line-end mixes
        return b.replace(b"\n", r.choice([b"\r\n", b"\r", b"\n\r", b"\x1a\n", b"\n\n"]), r.randint(1, 5))
    if k == 8 and n:  # truncate
        return b[:pos]
    if k == 9:  # a huge array
        return b[:pos] + r.choice([b"\nint zz(99999999999999999999)\n", b"\nchar zz(-99999)\n",
                                   b"\nint zz(4294967295)\n", b"\nint zz(262143)\n"]) + b[pos:]
    if n:  # flip a byte
        return b[:pos] + bytes([b[min(pos, n - 1)] ^ (1 << r.randrange(8))]) + b[pos + 1:]
    return b


# ---- shell sessions

NUL_NAMES = True  # `.r a\0b` (issue 13 item 4): a file name with a NUL is File not found, never a traceback

def session(r: random.Random) -> bytes:
    """A random session of shell commands (with program lines and runs) to pipe into ``tinyc``."""
    lines = []
    for _ in range(r.randint(1, 12)):
        k = r.randrange(14)
        if k < 3:
            g = ProgramGen(r)
            text = g.program()[0] if r.random() < 0.7 else mutate(r, g.program()[0]).decode("latin-1")
            lines += text.splitlines()[: r.randint(1, 40)]
        elif k < 5:
            lines.append("." + r.choice(["main", "main", "pn 1+2", "f", "pn strlen(\"abc\")", "x", "ps \"hi\"",
                                         "pn gn", "MC 1005", "int q; q=3; pn q", "pn 1/0", "main()"]))
        elif k == 5:
            lines.append(r.choice([".p", ".p 3", ".p 100", ".p -1", ".p 0"]))
        elif k == 6:
            lines.append(r.choice([".l main", ".l x", ".l", ".l zz"]))
        elif k == 7:
            lines.append(r.choice([".c/x/y/", ".c/main/niam/", ".c//", ".c/a", ".c"]))
        elif k == 8:
            lines.append(r.choice([".d", ".d 2", ".d 100", ".d -3"]))
        elif k == 9:
            lines.append(r.choice([".1", ".5", "+2", "-1", "./", ".0", "+100", "-100"]))
        elif k == 10:
            lines.append(r.choice([".r /nonexistent", ".r examples/hello.tc", ".r", ".r /dev/null", ".w",
                                   ".r programs/bc.tc"] + ([".r \x00x"] if NUL_NAMES else [])))
        elif k == 11:
            lines.append(r.choice(["", " ", "\t", ".", "..", "./"]))
        elif k == 12:
            lines.append(bytes(r.randrange(1, 256) for _ in range(r.randint(1, 20))).decode("latin-1")
                         .replace("\n", " "))
        else:
            lines.append(r.choice(["1", "42", "abc", "-7"]))  # input for gn/gc
    if r.random() < 0.8:
        lines.append(".x")
    return "\n".join(lines).encode("latin-1", "replace") + b"\n"


# ---- programs that abuse their frames (issue 13 item 6): small unchecked arrays next to scalars, indexes
# that reach the neighbouring cells, callees that write through the pointers they get, block moves and fills

def frame_program(r: random.Random) -> str:
    def stmt(locals_, params):
        sc = [v for v in ("x", "y", "c", "n") if v in locals_ + params]
        ar = "a(1)" if "a" in locals_ else "0"

        def idx():
            return str(r.randint(-12, 16)) if r.random() < 0.8 or not sc else r.choice(sc)

        def val():
            return r.choice([str(r.randint(-300, 70000)), str(r.randint(0, 9)), ar] + sc + [f"{v}+1" for v in sc])
        if "a" not in locals_:
            return f"{r.choice(sc)}={val()}" if sc else "pn 0"
        k = r.randrange(14)
        if k < 3:
            return f"a({idx()})={val()}"
        if k < 5:
            return f"pn a({idx()})"
        if k == 5 and sc:
            return f"{r.choice(sc)}={val()}"
        if k == 6 and sc:
            return f"++{r.choice(sc)}"
        if k == 7:
            return f"pn {' + '.join(r.choice(sc + ['a(2)', 'a(-3)']) for _ in range(3))}"
        if k == 8:
            return f"w(a+{r.randint(-8, 8)},{val()})"
        if k == 9:
            return r.choice([f"memset a+{r.randint(-8, 4)},{r.randint(0, 9)},{r.randint(0, 255)}",
                             f"movebl a+{r.randint(-8, 4)},a+{r.randint(-4, 8)},{r.randint(-4, 4)}",
                             f"pn countch(a-{r.randint(0, 8)},a+{r.randint(0, 8)},{r.randint(0, 3)})",
                             f"strcpy a+{r.randint(-6, 4)},\"{'abcdefghijkl'[:r.randint(0, 12)]}\""])
        if k == 10:
            return f"pn (a({idx()})={val()})+{r.choice(sc or ['1'])}"
        if k == 11:
            return f"pn rd(a+{r.randint(-8, 8)})+{r.choice(sc or ['1'])}"
        if k == 12:
            return f"if({r.choice(sc or ['1'])}<{r.randint(0, 300)}) [ a({idx()})={val()} ] else [ pn a({idx()}) ]"
        if sc:
            v = r.choice(sc)
            return f"{v}=0; while({v}<{r.randint(1, 4)}) [ ++{v}; a({idx()})=a({idx()})+1 ]"
        return "pn 0"

    def body(params):
        decl = [f"char a({0 if r.random() < 0.9 else 2})", "int x", "int y", "char c"]
        r.shuffle(decl)
        locs = []
        lines = []
        for d in decl:
            lines.append(d)
            locs.append(d.split()[1].split("(")[0])
            for _ in range(r.randint(0, 2)):
                lines.append(stmt([v for v in locs if v != "a"], params))
        for _ in range(r.randint(1, 6)):
            lines.append(stmt(locs, params))
        return "; ".join(lines)
    funcs = [
        "w char p(0); int v [ p(0)=v; p(1)=v/256 ]",
        "rd char p(0) [ return p(0)+p(1)*256 ]",
        f"g int n [ {body(['n'])}; if(n>0) g(n-1); return n ]",
        f"main [ {body([])}; g {r.randint(0, 3)}; {body([])} ]",
    ]
    if r.random() < 0.5:
        funcs.append("pure int n [ int s; s=n*2; return s+1 ]")
        funcs[-2] = funcs[-2].replace("g(n-1)", "g(n-1); pn pure(n)")
    return "\n".join(funcs) + "\n"
