"""The file sandbox: which files a tiny-c program may open (issues 24 and 35, docs/security.md).

The file machine calls of both dialects (PC: MC 3; Gibson: ``fopen``, ``readfile``, ``writefile``,
``getproperty``), Gibson's ``#include`` lines and drawings, and the shell's ``.r``/``.o``/``.w`` open files
only through :meth:`FileSandbox.open` (or :meth:`FileSandbox.permits`).  By default a program reaches:

* the current directory tree: read and write, but no code file (:func:`is_code_file`: ``*.py``, ``*.pth``,
  ``*.so`` ..., anything under ``.git/``) is created or overwritten;
* each program file's own directory tree (its includes and data files) and the files shipped with tinyc
  (its library, programs and examples): read only;

and nothing else.  The path is resolved first (symbolic links and ``..`` followed), so a link or a
``../..`` out of an allowed tree is outside it, and the resolved path is then opened one component at a
time without following links (:func:`_open_beneath`), so that what was checked is what is opened.
tinyc's own cache directory is outside it whatever the tree (its key seals the start-up cache).  Only
regular files are opened: devices, FIFOs and sockets (``/dev/zero``, ``/dev/full``, a named pipe) are
refused.  ``--allow-read PATH`` adds a tree to read, ``--allow-write PATH`` (``--allow-files PATH``) one
to read and write, ``--allow-write-code`` lets code files be written; ``--allow-files-anywhere`` lifts
every check (the program may then open whatever the user can).  :class:`Policy` holds the sandbox with
Gibson's ``--allow-system`` and ``--allow-plugins``: one object for every door.  A refused open raises
:class:`Refused`, an ``OSError``: each machine call reports it as the original reports a failed open (a
negative unit or the dialect's error number).
"""

from __future__ import annotations

import errno
import os
import stat
import sys

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


# Names a program may not create or overwrite unless the user opts in (--allow-write-code): what Python
# imports from a directory on sys.path (modules, byte code, extensions), what site processes (*.pth), and a
# git checkout's own files (.git/hooks run at the next commit).  Compared in lower case: case-blind disks.
CODE_SUFFIXES = (".py", ".pyw", ".pyc", ".pyo", ".pth", ".so", ".pyd")
CODE_DIRS = (".git",)
CODE_OPT_IN = "--allow-write-code"  # (%allow write-code in the kernel)

# O_PATH (Linux): a directory needs only search permission to be walked through, as open() by name needs
_DIR_FLAGS = getattr(os, "O_PATH", os.O_RDONLY) | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
# the component walk needs openat(2) (dir_fd) and O_NOFOLLOW; without them (Windows), and in Pyodide's
# in-memory disk (one process: nothing swaps a directory), the checked path is opened by name as before
_WALK = (bool(_NOFOLLOW) and getattr(os, "O_DIRECTORY", 0) != 0 and os.open in os.supports_dir_fd
         and sys.platform not in ("emscripten", "wasi"))


def is_code_file(path: str) -> bool:
    """Whether writing the resolved ``path`` could plant code: a name Python imports or ``site`` reads
    (``CODE_SUFFIXES``), or a file under a ``.git`` directory."""
    low = path.lower()
    return low.endswith(CODE_SUFFIXES) or any(part in CODE_DIRS for part in low.split(os.sep)[:-1])


class Outside(Refused):
    """A path outside the trees the sandbox allows (for this kind of open)."""


class CodeFileRefused(Refused):
    """A write of a code file (:func:`is_code_file`) without the opt-in; its message says which."""


def _open_beneath(path: str, flags: int, name: str) -> int:
    """``os.open(path, flags)`` for a resolved absolute ``path``, walked from ``/`` one component at a time:
    each directory is opened with ``O_NOFOLLOW`` relative to the one before (``dir_fd``), and the last
    component is ``fstatat``-ed (no link followed) and opened the same way.  So the file opened is the one
    at the path that was checked: a component swapped for a symbolic link since the check fails (ELOOP,
    raised as :class:`Refused`), and nothing that is not a regular file is opened.  Returns the descriptor;
    raises FileNotFoundError (a missing component) or another OSError."""
    parts = [p for p in path.split(os.sep) if p]
    if not parts:
        raise Refused(f"{name}: not a regular file")
    dfd = os.open(os.sep, _DIR_FLAGS)
    try:
        for part in parts[:-1]:
            try:
                nfd = os.open(part, _DIR_FLAGS, dir_fd=dfd)
            except OSError as e:
                if e.errno in (errno.ELOOP, errno.ENOTDIR):  # a link (or a file) where a directory was checked
                    raise Refused(f"{name}: the path changed while it was opened") from None
                raise
            os.close(dfd)
            dfd = nfd
        try:
            st = os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode):
                raise Refused(f"{name}: not a regular file")
        except FileNotFoundError:
            if not flags & os.O_CREAT:
                raise
        try:
            return os.open(parts[-1], flags, 0o666, dir_fd=dfd)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise Refused(f"{name}: the path changed while it was opened") from None
            raise
    finally:
        os.close(dfd)


class FileSandbox:
    """What a program's files may be: ``allowed`` trees to read and write (``--allow-write``, also spelt
    ``--allow-files``), ``readable`` trees to read (``--allow-read``), ``program_dirs`` (the directories of
    the program files run: read only), everything with ``anywhere`` (``--allow-files-anywhere``);
    ``code_writes`` lets a program create and overwrite code files (:func:`is_code_file`,
    ``--allow-write-code``).  The current directory is the one at the time of each open."""

    def __init__(self, allowed: Iterable[str | Path] = (), anywhere: bool = False,
                 program_dirs: Iterable[str | Path] = (), readable: Iterable[str | Path] = (),
                 code_writes: bool = False):
        self.anywhere = anywhere
        self.allowed = [_real(p) for p in allowed]
        self.readable = [_real(p) for p in readable]
        self.program_dirs = [_real(p) for p in program_dirs]
        self.code_writes = code_writes
        self.warned_code = False  # the note on a refused code file is written once per sandbox

    def add_readable(self, folder: str | Path) -> None:
        """Let programs read the tree ``folder`` (a dialect's library folder: its includes come from there)."""
        if _real(folder) not in self.program_dirs:  # a policy shared by many sessions (the kernel's)
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
        if write and (any(_under(path, p) for p in protected) or (is_code_file(path) and not self.code_writes)):
            return None
        roots = [cwd, *self.allowed] + ([] if write else [*self.readable, *self.program_dirs, *shipped])
        return path if any(_under(path, r) for r in roots) else None

    def open(self, name: str, mode: str, note: bool = True) -> IO[bytes]:
        """``open(name, mode)`` for a binary ``mode`` (``rb``, ``wb``, ``ab``, ``r+b``, ``w+b``, ``a+b``)
        within the sandbox; raises :class:`Refused` (:class:`Outside` for a path outside the allowed trees,
        :class:`CodeFileRefused` for a code file written without the opt-in: with ``note``, its message is
        also written on stderr, once per sandbox) or another OSError when it cannot be
        opened.  Only a regular file is opened, unless ``anywhere``.  The path checked is the path opened
        (:func:`_open_beneath`): no link or swapped directory leads out between the check and the open."""
        write = mode[0] in "wa" or "+" in mode
        path = self.permits(name, write=write)
        if path is None:
            if write and not self.anywhere and not self.code_writes and self.permits(name) is not None \
                    and is_code_file(_real(name)):
                raise self._code_refused(name, note)
            if str(name) and "\0" not in str(name):
                raise Outside(f"{name}: outside the file sandbox")
            raise Refused(f"{name!r}: not a file name")
        if self.anywhere:
            return open(path, mode)
        flags = _FLAGS[mode[0]] | (os.O_RDWR if "+" in mode else 0)
        if "+" in mode:
            flags &= ~os.O_WRONLY
        flags |= _NONBLOCK | _NOFOLLOW | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
        if _WALK:
            fd = _open_beneath(path, flags, name)
        else:
            try:
                if not stat.S_ISREG(os.stat(path).st_mode):
                    raise Refused(f"{name}: not a regular file")
            except FileNotFoundError:
                if mode[0] == "r":
                    raise
            fd = os.open(path, flags, 0o666)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a device since the check
                raise Refused(f"{name}: not a regular file")
            if mode[0] == "w":
                os.ftruncate(fd, 0)  # only now that it is known to be a regular file
            return os.fdopen(fd, mode)
        except BaseException:
            os.close(fd)
            raise

    def _code_refused(self, name: str, note: bool) -> CodeFileRefused:
        message = (f"{name}: a program may not create or overwrite Python code (*.py, *.pth, ...) or files "
                   f"under .git/; {CODE_OPT_IN} allows it")
        if note and not self.warned_code:  # the machine call reports a failed open; this says why, once
            sys.stderr.write(f"tinyc: {message}\n")
            self.warned_code = True
        return CodeFileRefused(message)


DEFAULT = FileSandbox()  # the current directory and the shipped files: a machine made without options


class Policy:
    """What a program run for this user may do, the same behind every door (issue 35, docs/security.md):
    ``files`` the :class:`FileSandbox`; ``system`` Gibson's ``system()`` runs commands; ``plugins``
    ``#loadMC NAME`` loads ``NAME.py`` beside the program.  The command line's ``--allow-*`` options, the
    magics' same options and the kernel's ``%allow`` all make one (:meth:`grant` takes their words)."""

    # the opt-ins by the word %allow takes; each is the option --allow-WORD (PATH: takes a tree)
    GRANTS = {"read": "PATH", "write": "PATH", "write-code": "", "files-anywhere": "", "system": "",
              "plugins": ""}

    def __init__(self, files: FileSandbox | None = None, system: bool = False, plugins: bool = False):
        self.files = files if files is not None else FileSandbox()
        self.system, self.plugins = system, plugins

    def grant(self, what: str, path: str | None = None) -> None:
        """Allow ``what`` (a key of :data:`GRANTS`; ``read`` and ``write`` with the tree ``path``).  Raises
        ValueError naming the accepted words for anything else, or a missing or needless path."""
        if what not in self.GRANTS or bool(self.GRANTS[what]) != bool(path):
            raise ValueError("accepted: " + ", ".join(f"{w} {p}".rstrip() for w, p in self.GRANTS.items()))
        if what == "read":
            self.files.readable.append(_real(path))  # type: ignore[arg-type]
        elif what == "write":
            self.files.allowed.append(_real(path))  # type: ignore[arg-type]
        elif what == "write-code":
            self.files.code_writes = True
        elif what == "files-anywhere":
            self.files.anywhere = True
        elif what == "system":
            self.system = True
        else:
            self.plugins = True

    def describe(self) -> list[str]:
        """One line per opt-in given, as its command-line option (none: the default sandbox)."""
        f = self.files
        return ([f"--allow-read {p}" for p in f.readable] + [f"--allow-write {p}" for p in f.allowed]
                + ["--allow-write-code"] * f.code_writes + ["--allow-files-anywhere"] * f.anywhere
                + ["--allow-system"] * self.system + ["--allow-plugins"] * self.plugins)
