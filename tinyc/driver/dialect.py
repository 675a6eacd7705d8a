"""Dialects: what one dialect of tiny-c brings, and how the Session finds one by its name.

A dialect is a package ``tinyc.dialects.NAME`` whose ``DIALECT`` is a :class:`Dialect`: the hooks every front
end reads (the ``run`` of ``tinyc run``, the stage views' and tools' modules, the debugger's runner), the
machine calls and engines its machines are built with, its library and the folders its programs include
files from, how a file announces it and how many characters of a name count.  The core (syntax, link,
machine, engines, driver) never imports a dialect package (an import-linter contract): :func:`find` loads
one by its name (``__import__``), so a third dialect is one new package.  ``docs/architecture.md`` says how to add
one; ``docs/dialects.md`` compares the two dialects shipped.

A hook is written ``"module:attribute"`` and imported only when used: importing a dialect package stays
cheap, so :func:`detect` may ask every dialect whether a file is its own.
"""

from __future__ import annotations

import os
import sys

from ..errors import Problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping

DEFAULT = "pc"  # the dialect of a file that announces none
PACKAGE = "tinyc.dialects"


class UnknownDialect(Problem, ValueError):
    """A dialect name with no package ``tinyc.dialects.NAME``."""


class CannotStart(Problem):
    """A dialect's program that cannot start (a missing include, a plug-in not found): ``message`` to print
    (on stdout with ``stdout``, else stderr) and the exit ``status``, as that dialect's interpreter ends."""

    def __init__(self, message: str, status: int, stdout: bool = False):
        super().__init__(message)
        self.message, self.status, self.stdout = message, status, stdout


class Dialect:
    """One dialect's hooks (fixed once made).

    * ``name``, ``title``: ``--dialect NAME``, and a line that says what it is;
    * ``detect(head) -> bool``: whether a file starting with the bytes ``head`` (its first 16) announces
      this dialect (Gibson's: a ``#include``/``#loadMC`` header line);
    * ``significance``: characters of a name that count (the first ``significance - 1`` plus the last);
    * ``library``: the library file, package-relative (``lib/system.ipl``, ``dialects/gibson/lib/library.tc``);
    * ``search_paths``: package-relative folders the programs' ``#include`` lines find files in; the file
      sandbox lets programs read them;
    * ``machine_calls``: ``"module:attr"`` of its :class:`~tinyc.machine.machine_calls.MachineCalls`;
    * ``engines``: engine name -> ``"module:attr"`` of a factory ``factory(machine) -> engine``: the
      evaluator and the code generator of the dialect (a dialect may extend the PC ones);
    * ``run``: ``"module:attr"`` of ``run(session, files, entry) -> exit status``: ``tinyc run`` and ``boot``;
    * ``tools``: command -> module with ``command(args) -> status``: ``tokens parse ast link check compile
      trace`` (the stage views, with the dialect's lexer, grammar and error report);
    * ``shell``: ``"module:attr"`` of ``shell(session, args) -> status``: ``tinyc`` with no command;
    * ``view``: ``"module:attr"`` of ``view(session, name, path) -> text``: one stage view (tokens, parse, ast,
      link) of a program file, or the report of the stage that rejects it (the notebook's magics);
    * ``trace``: ``"module:attr"`` of ``trace(session, path, entry, stdin, calls, limit) -> transcript``;
    * ``debugger``: ``"module:attr"`` of ``runner(session, files, entry, code)``, the program as the debugger
      runs it (:mod:`tinyc.debug.debugger`);
    * ``record``: ``"module:attr"`` of ``record(session, program, entry, stdin, limit, small, **options) ->
      Trace``, the stepper's recorded run (:mod:`tinyc.debug.stepper`, docs/stepper.md);
    * ``lexis``: ``"module:attr"`` of its lexical rules for ``tinyc fmt`` (:class:`tinyc.views.format.Lexis`).
    """

    __slots__ = ("name", "title", "detect", "significance", "library", "search_paths", "machine_calls",
                 "engines", "run", "tools", "shell", "view", "trace", "debugger", "record", "lexis")

    name: str
    title: str
    detect: Callable[[bytes], bool]
    significance: int
    library: str
    search_paths: tuple[str, ...]
    machine_calls: str
    engines: Mapping[str, str]
    run: str
    tools: Mapping[str, str]
    shell: str
    view: str
    trace: str
    debugger: str
    record: str
    lexis: str

    def __init__(self, **hooks: Any) -> None:
        missing = set(self.__slots__) - set(hooks)
        if missing or set(hooks) - set(self.__slots__):
            raise TypeError(f"a Dialect takes exactly {', '.join(self.__slots__)}")
        for name, value in hooks.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a dialect's hooks are fixed: {name}")

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def canonical(self, name: str) -> str:
        """The significant form of a name: a long name keeps its first characters plus its last."""
        n = self.significance
        return name if len(name) <= n else name[:n - 1] + name[-1]

    def hook(self, reference: str) -> Any:
        """The object a ``"module:attr"`` hook names, its module imported now."""
        module, _, attr = reference.partition(":")
        return getattr(_module(module), attr)

    def engine(self, name: str) -> Callable[[Any], Any]:
        """The factory of the engine ``name`` ("reference" or "fast"); UnknownDialect-like ValueError if none."""
        if name not in self.engines:
            raise ValueError(f"the {self.name} dialect has no engine {name!r} ({', '.join(self.engines)})")
        return self.hook(self.engines[name])

    def package_path(self, relative: str) -> str:
        """The absolute path of the package-relative ``relative`` (a library or a search path)."""
        return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), relative)


_FOUND: dict[str, Dialect] = {}


def _module(name: str) -> Any:
    """The module ``name``, imported by its name (``__import__``: importlib's package costs a start ~1 ms)."""
    __import__(name)
    return sys.modules[name]


def names() -> list[str]:
    """The dialects installed: the packages under ``tinyc/dialects`` (the default first)."""
    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "dialects")
    try:
        found = [n for n in os.listdir(root) if os.path.isfile(os.path.join(root, n, "__init__.py"))]
    except OSError:
        found = []
    return sorted(found, key=lambda n: (n != DEFAULT, n))


def find(name: str) -> Dialect:
    """The dialect called ``name``: ``tinyc.dialects.NAME.DIALECT``.  Raises UnknownDialect."""
    dialect = _FOUND.get(name)
    if dialect is None:
        if not name.isidentifier() or name not in names():
            raise UnknownDialect(f"unknown dialect {name!r} (the dialects: {', '.join(names())})")
        dialect = _FOUND[name] = _module(f"{PACKAGE}.{name}").DIALECT
    return dialect


def detect(head: bytes) -> Dialect | None:
    """The dialect a file starting with ``head`` announces (its first 16 bytes are enough), or None."""
    for name in names():
        if name != DEFAULT and find(name).detect(head):
            return find(name)
    return None
