"""Plain-Python twins of the benchmark programs, written as straightforwardly as the tiny-c.

Each twin follows its tiny-c program loop for loop (the library routines a program calls are written
out the same way), prints the same figures, and returns the output as bytes.

As a script, ``python benchmarks/twins.py NAME`` runs one twin as a whole process and writes its bytes to
stdout (benchmarks/whole.py times it against ``tinyc run``); ``python benchmarks/twins.py bca 3141 300``
passes bca its seed and number of games.
"""

from __future__ import annotations

import sys


def fib_main() -> bytes:
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)
    return b" %d\r\n" % fib(27)


def sieve_main() -> bytes:
    out = [0] * 200000
    n = 0
    for r in range(5):
        for i in range(200000):
            out[i] = 0
        n = 0
        for i in range(2, 200000):
            if not out[i]:
                n += 1
                j = i + i
                while j < 200000:
                    out[j] = 1
                    j = j + i
    return b" %d\r\n" % n


def matrix_main() -> bytes:
    a, b, c = [0] * 3600, [0] * 3600, [0] * 3600
    for i in range(60):
        for j in range(60):
            a[60 * i + j] = i + j
            b[60 * i + j] = i - j
    for r in range(10):
        for i in range(60):
            for j in range(60):
                s = 0
                for k in range(60):
                    s = s + a[60 * i + k] * b[60 * k + j]
                c[60 * i + j] = s
    t = 0
    for i in range(3600):
        t = t + c[i]
    return b" %d\r\n" % t


def strings_main() -> bytes:
    # C strings in a bytearray with a NUL at the end, as the library's routines see them
    def strlen(s, p):
        k = 0
        while s[p + k]:
            k += 1
        return k

    def strcpy(s, p, t, q):
        k = 0
        while t[q + k]:
            s[p + k] = t[q + k]
            k += 1
        s[p + k] = 0

    def strcat(s, p, t, q):
        strcpy(s, p + strlen(s, p), t, q)

    def toupper(s, p):
        i = 0
        while i < strlen(s, p):
            if s[p + i] >= 97 and s[p + i] <= 122:
                s[p + i] = s[p + i] - 32
            i += 1

    def ceqn(a, p, b, q, n):
        for k in range(n):
            if a[p + k] != b[q + k]:
                return 0
        return 1

    def index(s, p, n_s, f, q, n):
        # first place (1-based) where f occurs in s, scanning for its first char as MC 9 does
        if n < 1:
            return 1
        at = 0
        while at + n <= n_s:
            found = s.find(f[q], p + at, p + n_s)
            if found < 0:
                return 0
            at = found - p
            if at + n > n_s:
                return 0
            if ceqn(s, p + at, f, q, n):
                return at + 1
            at += 1
        return 0

    def move(a, p, b, q):
        k = 0
        while a[p + k]:
            b[q + k] = a[p + k]
            k += 1
        b[q + k] = 0
        return k

    s, w = bytearray(401), bytearray(21)
    n = 0
    for r in range(150):
        strcpy(s, 0, b"the\0", 0)
        for k in range(20):
            strcat(s, 0, b" quick\0", 0)
            strcat(s, 0, b"-brown\0", 0)
        toupper(s, 0)
        n = n + strlen(s, 0) + index(s, 0, strlen(s, 0), b"BROWN\0", 0, 5)
        move(b"QUICK\0", 0, w, 0)
        if ceqn(s, 4, w, 0, 5):
            n += 1
    return b" %d\r\n" % n


def bca_main(seed: int, games: int) -> bytes:
    """bca.tc: bc.tc's method played against the first ``games`` secrets, with the library's random."""
    out = []
    last = seed
    rseed = seed

    def random(low, high):
        nonlocal last
        if not last:
            last = 99
        rng = high - low + 1
        last = (last * rseed + 2**31) % 2**32 - 2**31     # int multiplication wraps
        if last < 0:
            last = -last
        q = last // 8
        return low + q % rng

    al = []
    for a in range(1, 10):
        for b in range(1, 10):
            if b != a:
                for d in range(1, 10):
                    if d != a and d != b:
                        for e in range(1, 10):
                            if e != a and e != b and e != d:
                                al.append(1000 * a + 100 * b + 10 * d + e)
    hi, lo, u, gl, hs = [0] * 100, [0] * 100, [0] * 40, [0] * 100, [0] * 100

    def setup(x):
        g = [x // 1000, x // 100 % 10, x // 10 % 10, x % 10]
        for j in range(40):
            u[j] = 0
        for j in range(4):
            for k in range(4):
                u[10 * k + g[j]] = 8 if j == k else 1
        for a in range(1, 10):
            for b in range(1, 10):
                hi[10 * a + b] = u[a] + u[10 + b]
                lo[10 * a + b] = u[20 + a] + u[30 + b]

    def sift(r):
        nonlocal m
        i = k = 0
        while i < m:
            y = c[i]
            if hi[y // 100] + lo[y % 100] == r:
                c[k] = y
                k += 1
            i += 1
        m = k

    tot = 0
    for g in range(games):
        c = al[:]
        m = 3024
        t = 0
        s = al[g]
        while True:
            x = c[random(0, m - 1)]
            t += 1
            if t < 100:
                gl[t] = x
            if x == s:
                break
            setup(x)
            sift(hi[s // 100] + lo[s % 100])
        if t < 100:
            hs[t] += 1
        tot += t
        if g >= games - 4:
            out.append(" %d %d" % (g, s) + "".join(" %d" % gl[k] for k in range(1, t + 1) if k < 100)
                       + " %d tries!\r\n" % t)
    out.append("\r\n")
    for k in range(1, 10):
        out.append(" %d %d\r\n" % (k, hs[k]))
    for k in range(10, 100):
        if hs[k]:
            out.append(" %d %d\r\n" % (k, hs[k]))
    t = tot % games
    dec = ""
    for k in range(5):
        t = 10 * t
        dec += str(t // games)
        t = t % games
    out.append("\r\nAverage number of tries was %d.%s\r\n" % (tot // games, dec))
    return "".join(out).encode()


def mandel_main() -> bytes:
    """mandel.tc: a fixed-point Mandelbrot, drawn ten times, printed once.

    C's ``/`` and ``%`` truncate toward zero: where the dividend can be negative the twin writes
    that out (Python's ``//`` and ``%`` round toward minus infinity)."""
    pal, pic = b" .,:;-~=+*o%#&@M", bytearray(2048)
    scale = 1
    for k in range(12):
        scale = scale * 2
    np = len(pal)
    w, h, kmax = 64, 32, 50
    n = 0
    for r in range(10):
        n = 0
        for y in range(h):
            ci = y * 5 * scale // (2 * h) - 5 * scale // 4
            for x in range(w):
                cr = x * 3 * scale // w - 2 * scale
                zr = zi = k = 0
                while k < kmax:
                    r2 = zr * zr // scale
                    i2 = zi * zi // scale
                    if r2 + i2 > 4 * scale:
                        break
                    p = zr * zi
                    if p >= 0:
                        zi = p // scale * 2 + p % scale * 2 // scale + ci
                    else:
                        zi = -(-p // scale) * 2 - (-p % scale * 2 // scale) + ci
                    zr = r2 - i2 + cr
                    k += 1
                n = n + k
                pic[w * y + x] = pal[k * (np - 1) // kmax]
    out = bytearray()
    for y in range(h):
        for x in range(w):
            out.append(pic[w * y + x])
        out += b"\r\n"
    return bytes(out) + b" %d\r\n" % n


def scan_main() -> bytes:
    """scan.tc: a 30,000-character text scanned for its length, words, a pattern and a letter.

    The text is a NUL-terminated bytearray; the functions take it as the tiny-c ones take their
    ``char s(0)`` parameter (scanning up to the NUL)."""
    seed = 1

    def rnd():
        nonlocal seed
        seed = (seed * 75 + 74) % 65537
        return seed

    def length(s):
        k = 0
        while s[k]:
            k += 1
        return k

    def words(s):
        k = n = inw = 0
        while s[k]:
            if s[k] == 32:
                inw = 0
            elif not inw:
                n += 1
                inw = 1
            k += 1
        return n

    def count(s, f):
        k = n = 0
        while s[k]:
            j = 0
            while f[j] and s[k + j] == f[j]:
                j += 1
            if not f[j]:
                n += 1
            k += 1
        return n

    text = bytearray(31001)
    i = t = n = 0
    while i < 30000:
        w = 1 + rnd() % 8
        for k in range(w):
            text[i] = 97 + rnd() % 5
            i += 1
        text[i] = 32
        i += 1
        if rnd() % 4 == 0:
            text[i] = 32
            i += 1
    text[i] = 0
    pat = b"abc\0"
    for r in range(16):
        t = t + length(text) + words(text)
        t = t + count(text, pat) + count(text, b"ea\0")
        k = 0
        while text[k]:
            if text[k] == 97:
                n += 1
            k += 1
    return b" %d %d\r\n" % (t, n)


def main(argv: list[str]) -> int:
    """``python benchmarks/twins.py NAME [INT...]``: run one twin as a whole process (the twin of
    whole.py's timings) and write its output bytes to stdout; bca takes its seed and number of games."""
    if not argv or argv[0] + "_main" not in globals():
        names = sorted(n[:-5] for n in globals() if n.endswith("_main"))
        sys.stderr.write("usage: twins.py NAME [INT...]; NAME is one of %s\n" % ", ".join(names))
        return 2
    out = globals()[argv[0] + "_main"](*map(int, argv[1:]))
    sys.stdout.buffer.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
