"""The file sandbox: which files a tiny-c program may open (issue 24, docs/security.md).

The file machine calls of both dialects (PC: MC 3; Gibson: ``fopen``, ``readfile``, ``writefile``,
``getproperty``) and Gibson's ``#include`` lines open files only through :meth:`FileSandbox.open` (or
:meth:`FileSandbox.permits`).  By default a program reaches:

* the current directory tree: read and write;
* each program file's own directory tree (its includes and data files) and the files shipped with tinyc
  (its library, programs and examples): read only;

and nothing else.  The path is resolved first (symbolic links and ``..`` followed), so a link or a
``../..`` out of an allowed tree is outside it.  tinyc's own cache directory is outside it whatever the
tree (its key seals the start-up cache).  Only regular files are opened: devices, FIFOs and sockets
(``/dev/zero``, ``/dev/full``, a named pipe) are refused.  ``--allow-files PATH`` adds a tree (read and
write); ``--allow-files-anywhere`` lifts every check (the program may then open whatever the user can).
A refused open raises :class:`Refused`, an ``OSError``: each machine call reports it as the original
reports a failed open (a negative unit or the dialect's error number).
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (at every start); mypy knows it
if TYPE_CHECKING:
    from pathlib import Path  # not imported at run time: pathlib costs every start 2 ms (os.path instead)
    from typing import IO, Iterable

_FLAGS = {"r": os.O_RDONLY, "w": os.O_WRONLY | os.O_CREAT, "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND}
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Refused(PermissionError):
    """An open the sandbox does not allow: a path outside the allowed trees, or not a regular file."""


def _real(path: str | Path) -> str:
    return os.path.realpath(os.fspath(path))


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _package_trees() -> tuple[list[str], list[str]]:
    """(trees shipped with tinyc, readable; trees never written: the package, the checkout's shipped
    folders and the user cache directory, which is not read either)."""
    from .shipped import shipped_dirs
    shipped = [_real(d) for d in shipped_dirs()]
    return shipped, [_real(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), *shipped]


_TREES: tuple[list[str], list[str]] | None = None


def _trees() -> tuple[list[str], list[str]]:
    global _TREES
    if _TREES is None:
        _TREES = _package_trees()
    return _TREES


class FileSandbox:
    """What a program's files may be: ``allowed`` trees (``--allow-files``), ``program_dirs`` (the
    directories of the program files run: read only), everything with ``anywhere``
    (``--allow-files-anywhere``).
    The current directory is the one at the time of each open."""

    def __init__(self, allowed: Iterable[str | Path] = (), anywhere: bool = False,
                 program_dirs: Iterable[str | Path] = ()):
        self.anywhere = anywhere
        self.allowed = [_real(p) for p in allowed]
        self.program_dirs = [_real(p) for p in program_dirs]

    def add_readable(self, folder: str | Path) -> None:
        """Let programs read the tree ``folder`` (a dialect's library folder: its includes come from there)."""
        self.program_dirs.append(_real(folder))

    def add_program(self, path: str | Path) -> None:
        """Allow the directory of the program file ``path`` (its includes and data files live there)."""
        self.program_dirs.append(_real(os.path.dirname(os.path.abspath(os.fspath(path)))))

    def permits(self, name: str | Path, write: bool = False) -> str | None:
        """The resolved path of ``name`` when a program may open it (for writing with ``write``), else
        None.  Never raises: a name the system cannot resolve is refused."""
        try:
            path = _real(name) if str(name) else ""
            cwd = _real(os.getcwd())
        except (OSError, ValueError):
            return None
        if not path:
            return None
        if self.anywhere:
            return path
        from ..dirs import cache_dir
        shipped, protected = _trees()
        if _under(path, _real(cache_dir())):
            return None
        if write and any(_under(path, p) for p in protected):
            return None
        roots = [cwd, *self.allowed] + ([] if write else [*self.program_dirs, *shipped])
        return path if any(_under(path, r) for r in roots) else None

    def open(self, name: str, mode: str) -> IO[bytes]:
        """``open(name, mode)`` for a binary ``mode`` (``rb``, ``wb``, ``ab``, ``r+b``, ``w+b``, ``a+b``)
        within the sandbox; raises :class:`Refused` (or another OSError) when it cannot be opened.  Only
        a regular file is opened, unless ``anywhere``: a device or FIFO is refused before it is opened
        and checked again, without blocking, after."""
        path = self.permits(name, write=mode[0] in "wa" or "+" in mode)
        if path is None:
            raise Refused(f"{name}: outside the file sandbox")
        if self.anywhere:
            return open(path, mode)
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise Refused(f"{name}: not a regular file")
        except FileNotFoundError:
            if mode[0] == "r":
                raise
        flags = _FLAGS[mode[0]] | (os.O_RDWR if "+" in mode else 0)
        if "+" in mode:
            flags &= ~os.O_WRONLY
        fd = os.open(path, flags | _NONBLOCK | _NOFOLLOW | getattr(os, "O_BINARY", 0), 0o666)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a device since the check
                raise Refused(f"{name}: not a regular file")
            if mode[0] == "w":
                os.ftruncate(fd, 0)  # only now that it is known to be a regular file
            return os.fdopen(fd, mode)
        except BaseException:
            os.close(fd)
            raise


DEFAULT = FileSandbox()  # the current directory and the shipped files: a machine made without options
