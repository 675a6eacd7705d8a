"""Draw files: the pictures of Tom Gibson's graphics library, rendered by tinyc itself.

Gibson's ``pps/pyGraphicsLib.tc`` writes ``NAME.draw``, one drawing command a line, then runs
``system "python cairopy.py NAME"``; his ``cairopy.py`` replays the lines on a cairo image surface and writes
``NAME.png``.  This module replays the same lines with cairocffi (the cairo library itself, through cffi: the
same rasteriser as his pycairo, without a C extension to build).

A draw file is data, not calls (issue 35 item 3).  :func:`check` reads each line against an allow-list,
:data:`COMMANDS`: the commands cairopy.py handles itself and the cairo context methods its ``ctx.NAME(ARGS)``
fall-back reaches that a drawing uses, each with its argument count, types and ranges:

* ``# ...`` a comment; blank lines are skipped;
* ``window W H`` a new white W x H surface, the source black: whole numbers, each side 1..8192 and at most
  :data:`MAX_PIXELS` pixels (64 MiB);
* ``arc X Y R D1 D2`` / ``arcneg ...`` an arc, its angles in whole degrees (cairopy.py reads them with int());
* ``setdash D... OFFSET`` dashes (at most :data:`MAX_DASHES`, each 0 or more); ``setrgb R G B`` the colour,
  each divided by 256; ``showtext TEXT`` text at the current point (shell-style quoting);
* ``show`` strokes and writes the picture; ``showapp [APP]`` names a viewer: tinyc records it, starts nothing;
* the context methods of :data:`COMMANDS` by their cairo names (``move_to X Y``, ``curve_to``, ``rectangle``,
  ``set_line_width W``, ``save``, ``restore``, ``translate``, ``scale``, ``rotate``, ``set_operator N``...).

Numbers are decimal literals (no expressions: cairopy.py's eval is not followed), finite, within
:data:`LIMIT` (scale factors :data:`SCALE_LIMIT`, angles in radians :data:`RADIAN_LIMIT`); enumerations
(operator 0-28, antialias 0-6, line cap and join 0-2, fill rule 0-1) are whole numbers in their range; a
file has at most :data:`MAX_COMMANDS` commands of at most :data:`MAX_LINE` characters.  The first line that
breaks a rule is :class:`DrawError` with its line number, after the lines before it have been drawn (as
cairopy.py stops at a line it cannot run).

The checked commands are drawn in a child Python process (:data:`CHILD`) that limits itself to
:data:`CPU_SECONDS` seconds of CPU time and :data:`ADDRESS_SPACE` bytes of memory before it loads cairo, so
no drawing can hang tinyc, take its memory or end it with a signal: a child that is stopped is a DrawError.
``tinyc draw`` and a program's ``system "python cairopy.py NAME"`` both come here (:func:`render`).
"""

from __future__ import annotations

import json
import math
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ...machine.sandbox import FileSandbox

# "python cairopy.py NAME" (Gibson's pyGraphicsLib.tc), "py cairopy.py NAME" (Lee Bradley's copy), python3;
# the interpreter and cairopy.py may have a path, and nothing else may stand on the line
GIBSON_VIEWER = re.compile(rb"^\s*(?:\S*/)?(?:py|python|python3)\s+(?:\S*/)?cairopy\.py\s+(\S+)\s*$")

LIMIT = 1e6             # any coordinate, length or colour value (cairo's fixed point holds +-8388607)
SCALE_LIMIT = 1e4       # a scale factor
RADIAN_LIMIT = 1e3      # an angle in radians (rotate, arc_negative): about 160 turns
DEGREE_LIMIT = 36000    # an angle in whole degrees (arc, arcneg): 100 turns
MAX_SIDE = 8192         # a window's width or height, pixels
MAX_PIXELS = 1 << 24    # a window's area: 64 MiB of RGB24
MAX_DASHES = 64
MAX_TEXT = 1000         # characters of one text
MAX_LINE = 10000        # characters of one line
MAX_COMMANDS = 100000   # commands (not comments or blank lines) in one file
MAX_BYTES = 8 << 20     # bytes of one draw file
CPU_SECONDS = 10        # CPU time of one rendering (the child's RLIMIT_CPU)
ADDRESS_SPACE = 1 << 30  # the child's address space (RLIMIT_AS)

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_WHOLE = re.compile(r"[-+]?\d+")


class DrawError(Exception):
    """A draw file that cannot be rendered: ``line`` (1-based, 0 for the file as a whole) and the reason;
    ``signal`` is the signal that stopped the renderer, if one did."""

    def __init__(self, line: int, message: str, killed: int | None = None):
        super().__init__(message)
        self.line = line
        self.message = message
        self.signal = killed

    def where(self, draw: Path | str) -> str:
        """``FILE:LINE: what is wrong`` (``FILE: ...`` for the file as a whole)."""
        return f"{draw}:{self.line}: {self.message}" if self.line else f"{draw}: {self.message}"


@dataclass
class Picture:
    """What a draw file made: the PNG written (None if the file never says ``show``), its size in pixels and
    the viewer its ``showapp`` named (never started by tinyc)."""
    png: Path | None = None
    size: tuple[int, int] = (0, 0)
    viewer: str = ""
    shown: list[Path] = field(default_factory=list)


# ---- the allow-list: argument kinds, then each command's

def _num(lo: float, hi: float) -> Callable[[str], float]:
    def parse(word: str) -> float:
        if not _NUMBER.fullmatch(word):
            raise ValueError(f"{word!r} is not a number")
        v = float(word)
        if not (math.isfinite(v) and lo <= v <= hi):
            raise ValueError(f"{word} is out of range ({lo:g} to {hi:g})")
        return v
    return parse


def _whole(lo: int, hi: int, what: str = "a whole number") -> Callable[[str], int]:
    def parse(word: str) -> int:
        if not _WHOLE.fullmatch(word) or len(word) > 12:
            raise ValueError(f"{word!r} is not {what}")
        v = int(word)
        if not lo <= v <= hi:
            raise ValueError(f"{word} is out of range ({lo} to {hi})")
        return v
    return parse


def _text(word: str) -> str:
    if len(word) > MAX_TEXT:
        raise ValueError(f"a text of {len(word)} characters (at most {MAX_TEXT})")
    return word


N = _num(-LIMIT, LIMIT)
SIZE = _num(0, LIMIT)
SCALE = _num(-SCALE_LIMIT, SCALE_LIMIT)
RAD = _num(-RADIAN_LIMIT, RADIAN_LIMIT)
DEG = _whole(-DEGREE_LIMIT, DEGREE_LIMIT, "an angle in whole degrees")
SIDE = _whole(1, MAX_SIDE, "a whole number of pixels")

# name -> argument kinds (a tuple: exactly these), for the context method of the same name
COMMANDS: dict[str, tuple[Callable[[str], Any], ...]] = {
    "move_to": (N, N), "line_to": (N, N), "rel_move_to": (N, N), "rel_line_to": (N, N),
    "curve_to": (N,) * 6, "rel_curve_to": (N,) * 6, "rectangle": (N,) * 4,
    "arc_negative": (N, N, N, RAD, RAD), "close_path": (), "new_path": (), "new_sub_path": (),
    "stroke": (), "fill": (), "stroke_preserve": (), "fill_preserve": (), "paint": (), "paint_with_alpha": (N,),
    "clip": (), "clip_preserve": (), "reset_clip": (), "save": (), "restore": (), "identity_matrix": (),
    "translate": (N, N), "scale": (SCALE, SCALE), "rotate": (RAD,),
    "set_line_width": (SIZE,), "set_font_size": (SIZE,), "set_miter_limit": (SIZE,),
    "set_source_rgb": (N, N, N), "set_source_rgba": (N, N, N, N),
    "set_line_cap": (_whole(0, 2),), "set_line_join": (_whole(0, 2),), "set_fill_rule": (_whole(0, 1),),
    "set_operator": (_whole(0, 28, "a cairo operator"),), "set_antialias": (_whole(0, 6, "an antialias mode"),),
    "show_text": (_text,), "text_path": (_text,), "select_font_face": (_text,),
}
OWN = {"window", "show", "showapp", "arc", "arcneg", "setdash", "setrgb", "showtext"}  # cairopy.py's own


def _args(name: str, args: list[str], kinds: tuple) -> list:
    if len(args) != len(kinds):
        raise ValueError(f"{name} takes {len(kinds)} argument{'s' if len(kinds) != 1 else ''}, not {len(args)}")
    return [kind(a) for kind, a in zip(kinds, args)]


def _command(name: str, args: list[str]) -> list | None:
    """One checked line as the call the renderer makes: ``[method, arguments]`` (None: nothing to draw).
    Raises ValueError with what is wrong."""
    if name == "window":
        width, height = _args(name, args, (SIDE, SIDE))
        if width * height > MAX_PIXELS:
            raise ValueError(f"a window of {width} x {height} pixels is larger than {MAX_PIXELS} pixels")
        return ["window", [width, height]]
    if name in ("arc", "arcneg"):
        x, y, r, d1, d2 = _args(name, args, (N, N, N, DEG, DEG))
        method = "arc" if name == "arc" else "arc_negative"
        return [method, [x, y, r, d1 * (math.pi / 180), d2 * (math.pi / 180)]]
    if name == "setdash":
        if not 1 <= len(args) <= MAX_DASHES + 1:
            raise ValueError(f"setdash takes up to {MAX_DASHES} dash lengths and an offset")
        dashes = [SIZE(a) for a in args[:-1]]
        return ["set_dash", [dashes, N(args[-1])]]
    if name == "setrgb":
        return ["set_source_rgb", [v / 256 for v in _args(name, args, (N, N, N))]]
    if name == "showtext":
        return ["show_text", [_text(args[0]) if args else ""]]
    if name == "show":
        return ["show", []]
    if name == "showapp":
        return None
    kinds = COMMANDS.get(name)
    if kinds is None:
        raise ValueError(f"unknown draw command {name[:40]!r}")
    return [name, _args(name, args, kinds)]


def check(text: str) -> tuple[list[tuple[int, list]], str, DrawError | None]:
    """The commands of a draw file's ``text`` as ``(line number, [method, arguments])``, the viewer its
    ``showapp`` names, and the DrawError of its first bad line (None if none); the commands stop there."""
    out: list[tuple[int, list]] = []
    viewer = ""
    window = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        try:
            if len(line) > MAX_LINE:
                raise ValueError(f"a line of {len(line)} characters (at most {MAX_LINE})")
            if len(out) >= MAX_COMMANDS:
                raise ValueError(f"more than {MAX_COMMANDS} commands")
            try:
                words = shlex.split(line)
            except ValueError as e:
                raise ValueError(str(e)) from None
            if not words:
                continue
            name, args = words[0], words[1:]
            if name == "showapp":
                viewer = args[0] if args else ""
                continue
            command = _command(name, args)
            if command is None:
                continue
            if command[0] == "window":
                window = True
            elif not window:
                raise ValueError(f"{name[:40]} before window")
            out.append((number, command))
        except ValueError as e:
            return out, viewer, DrawError(number, str(e))
    return out, viewer, None


# ---- the child that draws: it limits itself, then replays the checked commands

CHILD = r"""
import json, sys
try:
    import resource
    resource.setrlimit(resource.RLIMIT_CPU, (%(cpu)d, %(cpu)d + 1))
    resource.setrlimit(resource.RLIMIT_AS, (%(mem)d, %(mem)d))
except (ImportError, ValueError, OSError):
    pass
job = json.load(sys.stdin)
allowed = set(job["allowed"])
result = {"size": [0, 0], "shown": [], "error": None}
try:
    import cairocffi as cairo
except (ImportError, OSError) as e:
    result["error"] = [-1, "drawing needs cairocffi and the cairo library (%%s); install them with pip install "
                           "cairocffi, and the system's cairo library (Debian: libcairo2)" %% e]
    json.dump(result, sys.stdout)
    sys.exit(0)
surface = ctx = None
for k, (method, args) in enumerate(job["commands"]):
    try:
        if method == "window":
            w, h = args
            surface = cairo.ImageSurface(cairo.FORMAT_RGB24, w, h)
            ctx = cairo.Context(surface)
            ctx.rectangle(0, 0, w, h)
            ctx.set_source_rgb(1, 1, 1)
            ctx.fill()
            ctx.set_source_rgb(0, 0, 0)
            result["size"] = [w, h]
        elif method == "show":
            ctx.stroke()
            surface.write_to_png(job["png"])
            result["shown"].append(job["png"])
        elif method in allowed:
            getattr(ctx, method)(*args)
        else:
            raise ValueError("not allowed: %%s" %% method)
    except (cairo.CairoError, ValueError, TypeError, OSError, MemoryError) as e:
        result["error"] = [k, "%%s: %%s" %% (method, e)]
        break
json.dump(result, sys.stdout)
"""


def _draw(commands: list[tuple[int, list]], png: Path,
          files: FileSandbox | None = None) -> tuple[tuple[int, int], list[Path], DrawError | None]:
    """Replay checked ``commands`` in the child process: (the last window's size, the pictures written, the
    DrawError that stopped it or None). The child writes into a private temporary folder; the picture is
    copied to ``png`` here, through the sandbox ``files`` when given (what is checked is what is written)."""
    with tempfile.TemporaryDirectory(prefix="tinyc-draw-") as scratch:
        size, shown, error = _draw_in(commands, Path(scratch) / "picture.png")
        if shown:
            try:
                _copy_out(shown[-1], png, files)
            except OSError as e:
                return size, [], DrawError(0, f"cannot write {png}: {e.strerror or e}")
            shown = [png] * len(shown)
    return size, shown, error


def _copy_out(made: Path, png: Path, files: FileSandbox | None) -> None:
    data = made.read_bytes()
    if files is not None:
        with files.open(str(png), "wb") as f:
            f.write(data)
    else:
        png.parent.mkdir(parents=True, exist_ok=True)
        png.write_bytes(data)


def _draw_in(commands: list[tuple[int, list]], png: Path) -> tuple[tuple[int, int], list[Path], DrawError | None]:
    allowed = sorted(set(COMMANDS) | {"arc", "arc_negative", "set_dash", "set_source_rgb", "show_text"})
    job = json.dumps({"png": str(png), "allowed": allowed, "commands": [c for _, c in commands]})
    try:
        done = subprocess.run([sys.executable, "-I", "-c", CHILD % {"cpu": CPU_SECONDS, "mem": ADDRESS_SPACE}],
                              input=job.encode(), capture_output=True, timeout=3 * CPU_SECONDS + 10)
    except subprocess.TimeoutExpired:
        return (0, 0), [], DrawError(0, f"rendering took more than {3 * CPU_SECONDS + 10} seconds: stopped")
    except OSError as e:
        return (0, 0), [], DrawError(0, f"cannot start the renderer: {e.strerror or e}")
    if done.returncode < 0:
        sig = -done.returncode
        why = (f"more than {CPU_SECONDS} seconds of CPU time" if sig in (signal.SIGXCPU, signal.SIGKILL)
               else f"signal {signal.Signals(sig).name}" if sig in signal.Signals._value2member_map_ else f"signal {sig}")
        return (0, 0), [], DrawError(0, f"rendering stopped: {why}", sig)
    try:
        result = json.loads(done.stdout)
    except ValueError:
        last = done.stderr.decode("latin-1", "replace").strip().splitlines()[-1:] or ["no result"]
        return (0, 0), [], DrawError(0, f"the renderer failed: {last[0][:200]}")
    size = tuple(result["size"])
    shown = [Path(p) for p in result["shown"]]
    error = None
    if result["error"] is not None:
        k, message = result["error"]
        error = DrawError(commands[k][0] if 0 <= k < len(commands) else 0, message)
    return size, shown, error


def render(draw: Path, png: Path | None = None, files: FileSandbox | None = None) -> Picture:
    """Render the draw file ``draw`` (text, see the module docstring) to ``png`` (default: the draw file's
    name with ``.png``), as Gibson's cairopy.py does.  Raises DrawError (with the line) for a bad line, a
    missing or too large file, a missing cairo library, or a rendering stopped at its bounds; the lines
    before a bad one are drawn first (a ``show`` among them writes the picture). With ``files`` (a program's
    sandbox) the draw file is read and the picture written through it."""
    target = png if png is not None else draw.with_suffix(".png")
    try:
        with (files.open(str(draw), "rb") if files is not None else open(draw, "rb")) as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise DrawError(0, f"cannot read {draw}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise DrawError(0, f"a draw file of more than {MAX_BYTES} bytes")
    commands, viewer, bad = check(data.decode("latin-1"))
    picture = Picture(viewer=viewer)
    if commands:
        size, shown, error = _draw(commands, target, files)
        picture.size, picture.shown = size, shown
        picture.png = shown[-1] if shown else None
        bad = error or bad
    if bad is not None:
        raise bad
    return picture


def gibson_viewer_command(command: bytes) -> str | None:
    """The drawing's name when ``command`` is the one Gibson's graphics library runs to show a picture
    (``python cairopy.py NAME``; ``py`` or ``python3`` for ``python``, either with a path), else None."""
    found = GIBSON_VIEWER.match(command)
    return found.group(1).decode("latin-1") if found else None


def draw_for_program(name: str, files: FileSandbox | None = None,
                     shown: Callable[[Path], None] | None = None) -> int:
    """What a program's ``system "python cairopy.py NAME"`` does in tinyc: render NAME.draw to NAME.png in
    the current directory tree and say where the picture is (one line on stderr).  With ``files`` (the
    program's file sandbox, :mod:`tinyc.machine.sandbox`) both files must also be within it (links resolved).
    ``shown(path)`` is told the picture (the console's ``pictures`` hook: the notebook shows it).  Returns
    the wait status of a command that succeeded (0) or failed (1 << 8)."""
    path = Path(name)
    outside = files is not None and (files.permits(path.with_name(path.name + ".draw")) is None
                                     or files.permits(path.with_name(path.name + ".png"), write=True) is None)
    if path.is_absolute() or ".." in path.parts or outside:
        sys.stderr.write(f"tinyc: {name}.draw: a drawing stays in the current directory tree\n")
        return 1 << 8
    try:
        picture = render(path.with_name(path.name + ".draw"), path.with_name(path.name + ".png"), files)
    except DrawError as e:  # the program goes on, as Gibson's tc goes on when python fails
        sys.stderr.write(f"tinyc: {e.where(name + '.draw')}\n")
        return 1 << 8
    if picture.png is not None:
        sys.stderr.write(f"tinyc: the picture is in {picture.png}\n")
        if shown is not None:
            shown(picture.png)
    return 0
