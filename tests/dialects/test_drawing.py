"""Gibson's graphics (issue 30, part 2): draw files rendered as his cairopy.py renders them, ``tinyc draw``,
and a Gibson program whose ``system "python cairopy.py NAME"`` makes its picture without starting anything.

The expected pictures in tests/draw were drawn by Gibson's cairopy.py itself (run on Python 3 with pycairo)
from the draw files beside them; ours must match them pixel for pixel but for a small tolerance.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc.dialects.gibson.drawing import DrawError, gibson_viewer_command, render

HERE = Path(__file__).resolve().parents[1]
DRAW = HERE / "draw"
EXAMPLES = HERE.parent / "examples"


def pixels(png: Path):
    import cairocffi
    import numpy
    surface = cairocffi.ImageSurface.create_from_png(str(png))
    data = numpy.frombuffer(bytes(surface.get_data()), numpy.uint8)
    return (surface.get_width(), surface.get_height()), data


def tinyc(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], cwd=cwd, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL, env={**os.environ, "TINYC_NO_CACHE": "1"})


@pytest.mark.parametrize("name", ["every", "gibson_lib"])
def test_a_draw_file_gives_the_picture_cairopy_draws(name, tmp_path):
    picture = render(DRAW / f"{name}.draw", tmp_path / f"{name}.png")
    assert picture.png == tmp_path / f"{name}.png"
    size, ours = pixels(picture.png)
    expected_size, theirs = pixels(DRAW / f"{name}.expected.png")
    assert size == expected_size == picture.size
    differing = (ours != theirs).mean()
    assert differing < 0.002, f"{differing:.2%} of the bytes differ"


def test_a_picture_differs_when_a_command_is_dropped(tmp_path):
    """The comparison above can fail: without its arc line, every.draw is not the expected picture."""
    text = (DRAW / "every.draw").read_text().replace("arc 230 60 40 0 270\n", "")
    (tmp_path / "cut.draw").write_text(text)
    _, ours = pixels(render(tmp_path / "cut.draw").png)
    _, theirs = pixels(DRAW / "every.expected.png")
    assert (ours != theirs).mean() >= 0.002


@pytest.mark.parametrize("line,message", [
    ("window 10", "window takes a width and a height"),
    ("move_to 1 2", "move_to before window"),
    ("window 10 10\narc 1 2 3 0.5 90", "whole degrees"),
    ("window 10 10\nmove_to __import__('os') 1", "is not a number"),
    ("window 10 10\n_ctx 1", "unknown draw command"),
    ("window 10 10\nsystem 1", "unknown draw command"),
    ("window 10 10\nline_to 1", "line_to"),
])
def test_a_bad_line_is_named_with_its_number(tmp_path, line, message):
    (tmp_path / "bad.draw").write_text(line + "\n")
    with pytest.raises(DrawError) as e:
        render(tmp_path / "bad.draw")
    assert message in str(e.value) and e.value.line == line.count("\n") + 1


def test_the_draw_command_writes_the_picture_and_says_where(tmp_path):
    (tmp_path / "pic.draw").write_bytes((DRAW / "gibson_lib.draw").read_bytes())
    done = tinyc("draw", "pic.draw", "-o", "out/p.png", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == "out/p.png" and (tmp_path / "out" / "p.png").is_file()
    done = tinyc("draw", "pic", cwd=tmp_path)  # NAME alone, as cairopy.py took it
    assert done.returncode == 0 and (tmp_path / "pic.png").is_file()


def test_the_draw_command_reports_a_bad_file_without_a_traceback(tmp_path):
    (tmp_path / "bad.draw").write_text("window 5 5\nfrobnicate 1\nshow\n")
    done = tinyc("draw", "bad.draw", cwd=tmp_path)
    assert done.returncode == 1
    assert b"line 2: unknown draw command 'frobnicate'" in done.stderr and b"Traceback" not in done.stderr
    done = tinyc("draw", "missing.draw", cwd=tmp_path)
    assert done.returncode == 1 and b"cannot read" in done.stderr


@pytest.mark.parametrize("allow", [[], ["--allow-system"]])
def test_a_gibson_program_makes_its_picture_without_starting_a_program(tmp_path, allow):
    done = tinyc("run", *allow, str(EXAMPLES / "gibson" / "house.tc"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"drew house.png" in done.stdout
    assert b"the picture is in house.png" in done.stderr and b"system() is disabled" not in done.stderr
    assert (tmp_path / "house.draw").read_bytes() == (DRAW / "house.expected.draw").read_bytes()
    size, data = pixels(tmp_path / "house.png")
    assert size == (240, 200) and (data != 255).any()


def test_only_the_graphics_command_is_taken_for_a_drawing():
    assert gibson_viewer_command(b"python cairopy.py logo") == "logo"
    assert gibson_viewer_command(b"python3 pps/cairopy.py my_pic") == "my_pic"
    assert gibson_viewer_command(b"python cairopy.py logo; rm -rf x") is None
    assert gibson_viewer_command(b"ls") is None


def test_a_drawing_outside_the_current_directory_is_refused(tmp_path):
    program = tmp_path / "p.tc"
    program.write_text('#include pps/library.tc\nmain [ system "python cairopy.py ../escape"; pl "on" ]\n')
    done = tinyc("run", "-q", str(program), cwd=tmp_path)
    assert done.returncode == 0 and b"on" in done.stdout
    assert b"a drawing stays in the current directory tree" in done.stderr
    assert not (tmp_path.parent / "escape.png").exists()
