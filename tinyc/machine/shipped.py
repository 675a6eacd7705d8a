"""The programs and examples shipped with tinyc, found by their bare names (``tinyc run bc.tc``, ``.r bc.tc``).

Installed, they are package data (``tinyc/programs``, ``tinyc/examples``); in a checkout they stay at the
top of it, beside the package.  The look-up is done with ``os.path`` (:func:`program_path`): every
``tinyc run`` does it, and importing pathlib costs a start 2 ms.
"""

from __future__ import annotations

import os
import sys

from ..errors import Problem
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from pathlib import Path

PROGRAM_CAPACITY = 90_000  # the shell's pr(90000), as tinyc.workspace.CAPACITY
PROGRAM_CAPACITY_16 = 12_000  # with 16-bit ints: the DOS shell's pr(12000) (reference section 14 item 21)


def program_capacity(int_bits: int = 32) -> int:
    """Bytes the shell's program buffer ``pr`` holds on a machine with ``int_bits``-bit ints: 90000 as the
    Linux shell, 12000 with 16-bit ints (the DOS shell's, so that all fits in 64 KB, section 14 item 21)."""
    return PROGRAM_CAPACITY_16 if int_bits == 16 else PROGRAM_CAPACITY


class ProgramFileError(Problem):
    """A program file that cannot be read: the message names the path (the CLI prints it, status 2)."""


class DoesNotFit(ProgramFileError, ValueError):
    """The one "does not fit" error: a program too big for the program buffer (a ValueError too, as the stage
    views raised it)."""


def _shipped_dirs() -> list[str]:
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # tinyc/
    dirs = [os.path.join(here, d) for d in ("programs", "examples", "lib")]  # installed: package data
    checkout = os.path.dirname(here)              # tinyc/ in a checkout (an editable install)
    if os.path.isfile(os.path.join(checkout, "pyproject.toml")) and os.path.isdir(os.path.join(checkout, "programs")):
        dirs += [os.path.join(checkout, "programs"), os.path.join(checkout, "examples")]
    return [d for d in dirs if os.path.isdir(d)]


def shipped_dirs() -> list[Path]:
    """Directories holding the programs, examples and system file shipped with tinyc (package data, or the
    checkout's programs/ and examples/ for an editable install)."""
    from pathlib import Path
    return [Path(d) for d in _shipped_dirs()]


def program_path(name: str) -> str:
    """``name`` itself if it exists; else the path of a shipped file of that relative name (``bc.tc``,
    ``gibson/hello.tc``, ``system.ipl``), from any directory; else ``name``."""
    try:
        if os.path.exists(name) or os.path.isabs(name) or ".." in name.replace("\\", "/").split("/"):
            return name
    except (ValueError, OSError):
        return name
    for d in _shipped_dirs():
        if os.path.isfile(os.path.join(d, name)):
            return os.path.join(d, name)
    return name


def find_program(name: str) -> Path:
    """:func:`program_path` as a Path."""
    from pathlib import Path
    return Path(program_path(name))


def shipped_programs() -> dict[str, Path]:
    """The shipped programs (``*.tc``, and the Gibson examples as ``gibson/NAME.tc``), by the relative
    name ``tinyc run NAME`` takes, sorted by that name."""
    seen: dict[str, Path] = {}
    for d in shipped_dirs():
        if d.name == "lib":  # the system file and the Gibson libraries: found by name, not programs
            continue
        for p in sorted([*d.glob("*.tc"), *d.glob("gibson/*.tc")]):
            seen.setdefault(p.relative_to(d).as_posix(), p)
    return dict(sorted(seen.items()))


_READ: dict[str, bytes] = {}  # files :func:`read_ahead` read, until :func:`read_source` hands them out


def read_ahead(name: str, limit: int) -> bytes | None:
    """The bytes of the program file ``name`` as :func:`read_source` reads them (at most ``limit``), kept for
    the next ``read_source(name)``: ``tinyc run`` tells the dialect from the text it then runs, reading the
    file once.  None when it cannot be read (``read_source`` then says why)."""
    try:
        data = _READ[name] = read_source(name, limit)
    except ProgramFileError:
        return None
    return data


def read_source(name: str, limit: int = PROGRAM_CAPACITY) -> bytes:
    """The bytes of the program file ``name`` (``-``: standard input), at most ``limit`` bytes after the
    CR bytes are dropped; raises ProgramFileError with one message naming the path when it cannot be read."""
    ahead = _READ.pop(name, None) if name != "-" else None
    if ahead is not None and len(ahead) <= limit:
        return ahead
    if name == "-":
        stream = sys.stdin.buffer
        shown = "standard input"
    else:
        path = program_path(name)
        shown = name
        try:
            if os.path.isdir(path):
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
    if data.startswith(BOM):  # an editor's UTF-8 byte-order mark: invisible, and not tiny-c (error 20)
        del data[:len(BOM)]
    if looks_binary(bytes(data[:4096])) and name not in _WARNED:
        _WARNED.add(name)  # once per file, however many times the commands read it
        print(f"tinyc: warning: {shown} looks binary, not tiny-c text", file=sys.stderr)
    return bytes(data)


BOM = b"\xef\xbb\xbf"
_WARNED: set[str] = set()


def looks_binary(data: bytes) -> bool:
    """Whether ``data`` is not program text: a NUL byte, or more than one byte in ten a control character
    other than a tab, a form feed or a line end (the shell's ``.r`` warns by the same test)."""
    if b"\0" in data:
        return True
    controls = sum(1 for c in data if c < 32 and c not in (9, 10, 12, 13) or c == 127)
    return controls * 10 > len(data)
