"""``tinyc draw NAME.draw [-o NAME.png] [--show]``: render a draw file of Gibson's graphics library (what his
cairopy.py did) with :mod:`tinyc.dialects.gibson.drawing`."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from .drawing import DrawError, render

VIEWERS = ("xdg-open", "open", "display")  # the desktop's opener first; cairopy.py used ImageMagick's display


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc draw FILE [-o PNG] [--show]``."""
    # not "file": the tools' shared check reads a FILE as a tiny-c program (90000 bytes at most)
    parser.add_argument("drawing", metavar="FILE", help="a draw file (NAME.draw, or NAME: .draw is added)")
    parser.add_argument("-o", "--output", metavar="PNG", help="the picture to write (default: NAME.png)")
    parser.add_argument("--show", action="store_true", help="open the picture with the desktop's viewer")


def command(args: argparse.Namespace) -> int:
    """Render the file; 0 and the picture's path on stdout, 1 with one line on stderr when it cannot."""
    draw = Path(args.drawing)
    if draw.suffix != ".draw" and not draw.exists():
        draw = draw.with_name(draw.name + ".draw")
    try:
        picture = render(draw, Path(args.output) if args.output else None)
    except DrawError as e:
        print(f"tinyc: {e.where(draw)}", file=sys.stderr)
        return 1
    if picture.png is None:
        print(f"tinyc: {draw} has no show line: nothing drawn", file=sys.stderr)
        return 1
    print(picture.png)
    if args.show:
        viewer = next((v for v in VIEWERS if shutil.which(v)), None)
        if viewer is None:
            print("tinyc: no picture viewer found (xdg-open, open, display)", file=sys.stderr)
            return 1
        subprocess.Popen([viewer, str(picture.png)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return 0
