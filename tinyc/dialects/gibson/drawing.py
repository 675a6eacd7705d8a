"""Draw files: the pictures of Tom Gibson's graphics library, rendered by tinyc itself.

Gibson's ``pps/pyGraphicsLib.tc`` writes ``NAME.draw``, one drawing command a line, then runs
``system "python cairopy.py NAME"``; his ``cairopy.py`` replays the lines on a cairo image surface and writes
``NAME.png``.  This module replays the same lines with cairocffi (the cairo library itself, through cffi: the
same rasteriser as his pycairo, without a C extension to build), imported only when a picture is drawn.

The commands (``cairopy.py`` in tgibson37/tiny-c, and the dialect's reference):

* ``# ...`` a comment; blank lines are skipped;
* ``window W H`` a new white W x H surface (pixels), the source black;
* ``arc X Y R D1 D2`` / ``arcneg ...`` an arc, its angles in whole degrees;
* ``setdash D... OFFSET`` dashes (lengths in pixels); ``setrgb R G B`` the colour, each 0-255 (divided by 256);
* ``showtext TEXT`` text at the current point (shell-style quoting); ``show`` strokes and writes the picture;
  ``showapp [APP]`` names a viewer for cairopy.py to start: tinyc records it and starts nothing;
* anything else is a method of the cairo context called with the line's numbers: ``move_to X Y``,
  ``line_to X Y``, ``stroke``, ``fill``, ``rectangle X Y W H``, ``set_line_width W``, ``curve_to ...``,
  ``save``, ``restore``, ``translate``, ``scale``, ``new_sub_path``, ``set_font_size``...

cairopy.py builds Python text from each line and evaluates it; tinyc takes only number literals (and, for
methods that take one, a single text), so a draw file cannot run code.
"""

from __future__ import annotations

import ast
import math
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ...machine.sandbox import FileSandbox

GIBSON_VIEWER = re.compile(rb"^\s*python[0-9.]*\s+(?:\S*/)?cairopy\.py\s+(\S+)\s*$")


class DrawError(Exception):
    """A draw file that cannot be rendered: ``line`` (1-based, 0 for the file as a whole) and the reason."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass
class Picture:
    """What a draw file made: the PNG written (None if the file never says ``show``), its size in pixels and
    the viewer its ``showapp`` named (never started by tinyc)."""
    png: Path | None = None
    size: tuple[int, int] = (0, 0)
    viewer: str = ""
    shown: list[Path] = field(default_factory=list)


def _cairo() -> Any:
    try:
        import cairocffi
    except (ImportError, OSError) as e:  # OSError: cairocffi installed, the cairo library not found
        raise DrawError(0, f"drawing needs cairocffi and the cairo library ({e}); install them with "
                           f"pip install cairocffi, and the system's cairo library (Debian: libcairo2)") from None
    return cairocffi


def _number(word: str, line: int) -> float | int:
    try:
        value = ast.literal_eval(word)
    except (ValueError, SyntaxError):
        value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DrawError(line, f"{word!r} is not a number")
    return value


def _degrees(word: str, line: int) -> float:
    try:
        return int(word) * (math.pi / 180)   # cairopy.py reads whole degrees with int()
    except ValueError:
        raise DrawError(line, f"an arc's angle is whole degrees, not {word!r}") from None


class Renderer:
    """Replays draw-file lines on a cairo surface; ``png`` is where ``show`` writes the picture, through
    ``files`` (a program's sandbox: the path checked is the file written) when given."""

    def __init__(self, png: Path, files: FileSandbox | None = None):
        self.cairo = _cairo()
        self.png = png
        self.files = files
        self.ctx: Any = None
        self.surface: Any = None
        self.picture = Picture()

    def line(self, text: str, number: int) -> None:
        """Carry out one line of a draw file (its number, 1-based, for errors); raises DrawError."""
        if text.startswith("#") or not text.strip():
            return
        try:
            words = shlex.split(text)
        except ValueError as e:
            raise DrawError(number, str(e)) from None
        name, args = words[0], words[1:]
        if name == "window":
            return self.window(args, number)
        if name == "showapp":
            self.picture.viewer = args[0] if args else ""
            return None
        if self.ctx is None:
            raise DrawError(number, f"{name} before window")
        if name in ("arc", "arcneg"):
            if len(args) != 5:
                raise DrawError(number, f"{name} takes X Y R and two angles in degrees")
            x, y, r = (float(_number(a, number)) for a in args[:3])
            method = self.ctx.arc if name == "arc" else self.ctx.arc_negative
            return method(x, y, r, _degrees(args[3], number), _degrees(args[4], number))
        if name == "setdash":
            if not args:
                raise DrawError(number, "setdash takes dash lengths and an offset")
            values = [float(_number(a, number)) for a in args]
            return self.ctx.set_dash(values[:-1], values[-1])
        if name == "setrgb":
            if len(args) != 3:
                raise DrawError(number, "setrgb takes three numbers from 0 to 255")
            return self.ctx.set_source_rgb(*(float(_number(a, number)) / 256 for a in args))
        if name == "showtext":
            return self.ctx.show_text(args[0] if args else "")
        if name == "show":
            return self.show()
        return self.call(name, args, number)

    def window(self, args: list[str], number: int) -> None:
        if len(args) < 2:
            raise DrawError(number, "window takes a width and a height")
        width, height = (int(_number(a, number)) for a in args[:2])
        if not (0 < width <= 16384 and 0 < height <= 16384):
            raise DrawError(number, f"a window of {width} x {height} pixels is not drawable")
        self.surface = self.cairo.ImageSurface(self.cairo.FORMAT_RGB24, width, height)
        self.ctx = self.cairo.Context(self.surface)
        self.ctx.rectangle(0, 0, width, height)
        self.ctx.set_source_rgb(1, 1, 1)
        self.ctx.fill()
        self.ctx.set_source_rgb(0, 0, 0)
        self.picture.size = (width, height)

    def call(self, name: str, args: list[str], number: int) -> None:
        """A cairo context method by name: public, and given numbers (or one text for text methods)."""
        method = getattr(self.ctx, name, None) if re.fullmatch(r"[a-z][a-z_0-9]*", name) else None
        if method is None or not callable(method):
            raise DrawError(number, f"unknown draw command {name!r}")
        text_method = name in ("show_text", "text_path", "select_font_face")
        values = args[:1] if text_method else [_number(a, number) for a in args]
        try:
            method(*values)
        except (TypeError, ValueError) as e:
            raise DrawError(number, f"{name}: {e}") from None
        except self.cairo.CairoError as e:
            raise DrawError(number, f"{name}: {e}") from None

    def show(self) -> None:
        self.ctx.stroke()
        if self.files is not None:
            with self.files.open(str(self.png), "wb") as f:
                self.surface.write_to_png(f)
        else:
            self.png.parent.mkdir(parents=True, exist_ok=True)
            self.surface.write_to_png(str(self.png))
        self.picture.png = self.png
        self.picture.shown.append(self.png)


def render(draw: Path, png: Path | None = None, files: FileSandbox | None = None) -> Picture:
    """Render the draw file ``draw`` (text, see the module docstring) to ``png`` (default: the draw file's
    name with ``.png``), as Gibson's cairopy.py does; both opened through the sandbox ``files`` when given.
    Raises DrawError (with the line) for a bad line, a file that cannot be read or written, or a missing
    cairo library."""
    target = png if png is not None else draw.with_suffix(".png")
    try:
        if files is not None:
            with files.open(str(draw), "rb") as f:
                text = f.read().decode("latin-1")
        else:
            text = draw.read_text(encoding="latin-1")
    except OSError as e:
        raise DrawError(0, f"cannot read {draw}: {e.strerror or e}") from None
    renderer = Renderer(target, files)
    for number, line in enumerate(text.splitlines(), 1):
        try:
            renderer.line(line, number)
        except OSError as e:  # the picture cannot be written (the sandbox refused it, a full disk)
            raise DrawError(number, f"cannot write {target}: {e.strerror or e}") from None
    return renderer.picture


def gibson_viewer_command(command: bytes) -> str | None:
    """The drawing's name when ``command`` is the one Gibson's graphics library runs to show a picture
    (``python cairopy.py NAME``), else None."""
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
    except DrawError as e:
        sys.stderr.write(f"tinyc: cannot draw {name}.draw: {e}\n")
        return 1 << 8
    if picture.png is not None:
        sys.stderr.write(f"tinyc: the picture is in {picture.png}\n")
        if shown is not None:
            shown(picture.png)
    return 0
