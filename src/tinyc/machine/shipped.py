"""The programs and examples shipped with tinyc, found by their bare names (``tinyc run bc.tc``, ``.r bc.tc``).

Installed, they are package data (``tinyc/programs``, ``tinyc/examples``); in a checkout they stay at the
top of it, beside the package.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PROGRAM_CAPACITY = 90_000  # the shell's pr(90000), as tinyc.workspace.CAPACITY


class ProgramFileError(Exception):
    """A program file that cannot be read: the message names the path (the CLI prints it, status 2)."""


def shipped_dirs() -> list[Path]:
    """Directories holding the programs, examples and system file shipped with tinyc (package data, or the
    checkout's programs/ and examples/ for an editable install)."""
    here = Path(__file__).resolve().parent.parent  # tinyc/
    dirs = [here / "programs", here / "examples", here / "lib"]  # installed: package data
    checkout = here.parent.parent                            # src/tinyc/ in a checkout (an editable install)
    if here.parent.name == "src" and (checkout / "pyproject.toml").is_file():
        dirs += [checkout / "programs", checkout / "examples"]
    return [d for d in dirs if d.is_dir()]


def find_program(name: str) -> Path:
    """``name`` itself if it exists; else a shipped file of that relative name (``bc.tc``,
    ``gibson/hello.tc``, ``system.ipl``), from any directory; else ``name`` unchanged."""
    path = Path(name)
    try:
        if path.exists() or path.is_absolute() or ".." in path.parts:
            return path
    except (ValueError, OSError):
        return path
    for d in shipped_dirs():
        if (d / path).is_file():
            return d / path
    return path


def shipped_programs() -> list[Path]:
    seen: dict[str, Path] = {}
    for d in shipped_dirs():
        for p in sorted(d.glob("*.tc")):
            seen.setdefault(p.name, p)
    return sorted(seen.values(), key=lambda p: p.name)


def read_source(name: str, limit: int = PROGRAM_CAPACITY) -> bytes:
    """The bytes of the program file ``name`` (``-``: standard input), at most ``limit`` bytes after the
    CR bytes are dropped; raises ProgramFileError with one message naming the path when it cannot be read."""
    if name == "-":
        stream = sys.stdin.buffer
        shown = "standard input"
    else:
        path = find_program(name)
        shown = name
        try:
            if path.is_dir():
                raise ProgramFileError(f"{name}: is a directory, not a tiny-c program")
            stream = open(path, "rb")
        except ProgramFileError:
            raise
        except (OSError, ValueError) as e:
            reason = getattr(e, "strerror", None) or "No such file or directory"
            raise ProgramFileError(f"{name}: {reason}") from None
    data = bytearray()
    try:
        while True:
            chunk = stream.read(65536)
            if not chunk:
                break
            data += chunk.replace(b"\r", b"")
            if len(data) > limit:
                raise ProgramFileError(f"{shown}: too big: more than the {limit} bytes the program buffer holds")
    except OSError as e:
        raise ProgramFileError(f"{shown}: {e.strerror}") from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return bytes(data)
