"""Random programs of the Gibson dialect (gibson-dialect.md) and mutations of them (issue 24).

Like :mod:`fuzz.gen` for tiny-c/PC: ``program(r)`` builds a valid program over the dialect's syntax
(globals, functions with scalar, array and ``char s(0)`` parameters, locals and run-time sized arrays,
``if``/``else`` without parentheses, ``while`` with counters and ``break``, ``return`` of locals (late reads,
section 3.9), ``printf``, the library's string routines, machine calls, and the file calls on names in the
current directory: the runner runs programs with a temporary directory as their current directory);
``mutate(r, text)`` breaks it the ways ``gen.mutate`` does, with the dialect's own tokens.
"""

from __future__ import annotations

import random

from .gen import _mutate_once

NUMBERS = [0, 1, 2, 3, 7, 10, 127, 128, 255, 256, 65535, 2147483647, -1, -7, -2147483647]
FILES = ["f1.txt", "f2.txt", "sub/none.txt", "f1.txt"]  # relative: inside the runner's temporary directory


class GibsonGen:
    """One random program: ``GibsonGen(r).program()`` -> text."""

    def __init__(self, r: random.Random):
        self.r = r
        self.scalars = ["g", "h", "c"]      # globals and the locals every function declares
        self.arrays = {"ga": 4, "gs": 20}    # name -> last index

    def choice(self, xs):
        return xs[self.r.randrange(len(xs))]

    def number(self) -> str:
        n = self.choice(NUMBERS) if self.r.random() < 0.5 else self.r.randint(-5, 40)
        return str(n) if n >= 0 else f"(0{n})"

    def expr(self, depth: int = 0) -> str:
        k = self.r.randrange(12 if depth < 3 else 4)
        if k == 0:
            return self.number()
        if k == 1:
            return "'" + self.choice("aZ0 ~") + "'"
        if k in (2, 3):
            return self.choice(self.scalars)
        if k in (4, 5):
            op = self.choice(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="])
            return f"({self.expr(depth + 1)} {op} {self.expr(depth + 1)})"
        if k == 6:
            name = self.choice(list(self.arrays))
            return f"{name}({self.choice(['0', '1', '2', str(self.arrays[name]), self.expr(depth + 1)])})"
        if k == 7:
            return self.choice(["two(~, ~)", "late(~)", "val(~)", "sum(ga, 3)", "strlen(gs)", "ceqn(gs, \"ab\", 2)",
                                "index(gs, 5, \"b\", 1)", "setg(~)"]).replace("~", self.expr(depth + 1))
        if k == 8:
            return f"({self.choice(self.scalars)} = {self.expr(depth + 1)})"
        if k == 9:
            return f"MC {self.expr(depth + 1)}, 14" if self.r.random() < 0.95 else f"MC {self.number()}"
        if k == 10:
            return f"-({self.expr(depth + 1)})"
        return f"({self.expr(depth + 1)})"

    def stmt(self, depth: int = 0, loop: bool = False) -> str:
        k = self.r.randrange(16 if depth < 2 else 6)
        e = self.expr
        if k in (0, 1):
            return f"pn {e()}"
        if k == 2:
            return f"{self.choice(self.scalars + ['ga(1)', 'gs(2)'])} = {e()}"
        if k == 3:
            return f'printf "%d %c %s|%5d", {e()}, 65, gs, {e()}'
        if k == 4:
            return self.choice(['strcpy gs, "hello"', 'strcat gs, "ab"', 'ps gs', 'pl "x"', "pn strlen(gs)",
                                'toupper gs'])
        if k == 5:
            return "break" if loop else f"return {e()}" if self.r.random() < 0.2 else f"pn {e()}"
        if k in (6, 7):
            s = f"if {e()} {self.stmt(depth + 1, loop)}"
            if self.r.random() < 0.5:
                s += f"\n  else {self.block(depth + 1, loop)}"
            return s
        if k in (8, 9) and depth < 2:  # one counter per depth: an inner loop never resets an outer one's
            var = ["k", "m"][depth]
            return f"{var} = 0; while {var} < {self.r.randint(0, 4)} [ {self.stmt(depth + 1, True)}; {var} = {var} + 1 ]"
        if k == 10:
            return self.block(depth + 1, loop)
        if k == 11:
            return f"int t({self.r.randint(0, 5)}); t(1) = {e()}; pn t(1)"  # a local sized at run time
        if k == 12:
            name = self.choice(FILES)
            return self.choice([f'u = fopen("{name}", "w"); fputs "line", u; fputc 65, u; fclose u',
                                f'u = fopen("{name}", "r"); pn u; fgets buf, 20, u; ps buf; fclose u',
                                f'pn writefile("{name}", gs, {self.r.randint(0, 8)})',
                                f'pn readfile("{name}", buf, {self.r.randint(0, 40)})',
                                f'pn fopen("{name}", "{self.choice(["r", "w", "a", "rw", "x"])}")',
                                f'fputs "z", {self.r.randint(-2, 12)}', f'fclose {self.r.randint(-1, 11)}'])
        if k == 13:
            return f"pn {e()}; pn {e()}"
        if k == 14:
            return f"late({e()}) + late({e()})"
        return f"pn two({e()}, {e()})"

    def block(self, depth: int, loop: bool) -> str:
        return "[ " + "; ".join(self.stmt(depth, loop) for _ in range(self.r.randint(1, 3))) + " ]"

    def program(self) -> str:
        head = "#include pps/library.tc\n" if self.r.random() < 0.5 else ""
        body = "\n".join("  " + self.stmt() for _ in range(self.r.randint(1, 10)))
        return head + "\n".join([
            "// a generated program",
            "int g, h, ga(4)",
            "char gs(20)",
            "late int n [ int t; t = n * 2; return t ]",
            "val int n [ return n + 0 ]",
            "setg int n [ g = n; return n ]",
            "two int a, b [ return a - b ]",
            "sum int p(3); int n [ int i, s; while i < n [ s = s + p(i); i = i + 1 ]; return s + 0 ]",
            "main [",
            "  int k, m, u; char c, buf(40)",
            body,
            "]",
        ]) + "\n"


def program(r: random.Random) -> str:
    return GibsonGen(r).program()


TOKENS = ["[", "]", "(", ")", ",", ";", "=", "==", "+", "-", "*", "/", "%", "!", "++", "<", "if", "else", "while",
          "break", "return", "int", "char", "MC", "endlibrary", "'", '"', "/*", "//", "...", "#include x.tc\n",
          "#loadMC x\n", "printf \"%d%s%c%\", ", "main", "pn", "\n", "\r", "\x00", "\xff", "é", "@", "&", "#"]


def mutate(r: random.Random, text: str) -> bytes:
    """One to three random mutations of ``text`` (bytes)."""
    b = text.encode("latin-1", "replace")
    for _ in range(r.randint(1, 3)):
        if r.random() < 0.3:
            pos = r.randint(0, len(b))
            b = b[:pos] + r.choice(TOKENS).encode("latin-1") + b[pos:]
        else:
            b = _mutate_once(r, b)
    return b
