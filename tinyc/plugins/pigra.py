"""pigra, PicaGraphics (Tom Gibson; Lee Bradley's ``maze.tc``, ``nemo.pc.tc``, ``testPigra.tc``): line
drawings on a character canvas of 80 columns by 40 rows, each row two pixels high (80 x 80 pixels, y up).

MC 1001 blank, 1002 show, 1003 plot x,y, 1004 line x0,y0,x1,y1, 1005 circle x,y,r,n (an n-gon), 1006 star
x,y,r,n, 1007 text x,y,str, 1008 sleep s, 1009 triangle x0,y0,x1,y1,x2,y2.  A pixel is drawn as ``.`` in
the lower half of its cell and ``'`` in the upper; both make ``:``.  Lines step along their longer axis in C
floats, as the original does, so the same characters come out.
"""

from __future__ import annotations

import math
import time

from . import f32

COLUMNS, ROWS = 80, 40


def _canvas(machine) -> list[bytearray]:
    """The canvas, by column: NUL bytes until the first blank, as the C array starts."""
    if "space" not in machine.state:
        machine.reserve(COLUMNS * ROWS, keep=True)
        machine.state["space"] = [bytearray(ROWS) for _ in range(COLUMNS)]
    return machine.state["space"]


def _need(machine, args: list[int], n: int) -> None:
    if len(args) < n:
        machine.fail(24)


def blank(machine, args: list[int]) -> int:
    """MC 1001: fill the canvas with spaces."""
    for column in _canvas(machine):
        column[:] = b" " * ROWS
    return 0


def show(machine, args: list[int]) -> int:
    """MC 1002: print the canvas: each row after a line end, then a line end."""
    space = _canvas(machine)
    out = bytearray()
    for row in range(ROWS):
        out += b"\n" + bytes(space[c][row] for c in range(COLUMNS))
    machine.write(bytes(out + b"\n"))
    return 0


def plot_point(space: list[bytearray], x: int, y: int) -> None:
    """Mark pixel (x, y): ``.`` low, ``'`` high, ``:`` both; off the canvas nothing."""
    if not (0 <= x < COLUMNS and 0 <= y < 2 * ROWS):
        return
    row = 39 - y // 2
    cell = space[x][row]
    if cell == ord(":"):
        return
    test, mark = (b".", b"'") if y % 2 else (b"'", b".")
    space[x][row] = ord(":") if cell == test[0] else mark[0]


def plot(machine, args: list[int]) -> int:
    """MC 1003 x, y."""
    _need(machine, args, 2)
    plot_point(_canvas(machine), args[0], args[1])
    return 0


def draw_line(space: list[bytearray], x0: int, y0: int, x1: int, y1: int) -> None:
    """The original's line: one pixel per step of the longer axis, the other coordinate a C float."""
    xr, yr = x1 - x0, y1 - y0
    if abs(xr) > abs(yr):
        step = f32(f32(yr) / f32(xr))
        little, big, pos = (x0, x1, f32(y0)) if x0 < x1 else (x1, x0, f32(y1))
        for x in range(little, big + 1):
            plot_point(space, x, int(pos))
            pos = f32(pos + step)
    else:
        step = f32(f32(xr) / f32(yr)) if yr else math.nan
        little, big, pos = (y0, y1, f32(x0)) if y0 < y1 else (y1, y0, f32(x1))
        for y in range(little, big + 1):
            plot_point(space, int(pos) if math.isfinite(pos) else -1, y)
            pos = f32(pos + step)


def line(machine, args: list[int]) -> int:
    """MC 1004 x0, y0, x1, y1."""
    _need(machine, args, 4)
    draw_line(_canvas(machine), *args[:4])
    return 0


POINT_BYTES = 8  # a point's two ints, as counted against --memory


def _points(machine, x: int, y: int, radius: int, n: int) -> list[tuple[int, int]]:
    """The n points of the circle, their space counted against --memory first (error 19 beyond it)."""
    machine.reserve(POINT_BYTES * n)
    angle = f32(2 * math.pi / n)
    return [(int(radius * math.cos(f32(f32(i) * angle)) + x), int(radius * math.sin(f32(f32(i) * angle)) + y))
            for i in range(n)]


def circle(machine, args: list[int]) -> int:
    """MC 1005 x, y, r, n: the n-gon through n points of the circle."""
    _need(machine, args, 4)
    if args[3] < 1:
        return 0
    pts = _points(machine, *args[:4])
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
        draw_line(_canvas(machine), ax, ay, bx, by)
    return 0


def star(machine, args: list[int]) -> int:
    """MC 1006 x, y, r, n: each of n points of the circle joined to the one half way round."""
    _need(machine, args, 4)
    n = args[3]
    if n < 1:
        return 0
    pts = _points(machine, *args[:4])
    for i, (ax, ay) in enumerate(pts):
        bx, by = pts[(i + n // 2) % n]
        draw_line(_canvas(machine), ax, ay, bx, by)
    return 0


def text(machine, args: list[int]) -> int:
    """MC 1007 x, y, str: the text from column x of y's row, cut at the canvas's edge."""
    _need(machine, args, 3)
    x, y, data = args[0], args[1], machine.read_string(args[2])
    if 0 <= x < COLUMNS and 0 <= y < 2 * ROWS:
        space = _canvas(machine)
        for i, byte in enumerate(data[:COLUMNS - x]):
            space[x + i][39 - y // 2] = byte
    return 0


def sleep(machine, args: list[int]) -> int:
    """MC 1008 s: wait s seconds."""
    time.sleep(max(0, args[0]) if args else 0)
    return 0


def triangle(machine, args: list[int]) -> int:
    """MC 1009 x0, y0, x1, y1, x2, y2."""
    _need(machine, args, 6)
    x0, y0, x1, y1, x2, y2 = args[:6]
    space = _canvas(machine)
    draw_line(space, x0, y0, x1, y1)
    draw_line(space, x1, y1, x2, y2)
    draw_line(space, x2, y2, x0, y0)
    return 0


MACHINE_CALLS = {1001: blank, 1002: show, 1003: plot, 1004: line, 1005: circle, 1006: star, 1007: text,
                 1008: sleep, 1009: triangle}
