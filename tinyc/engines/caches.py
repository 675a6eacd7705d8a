"""The fast engine's caches, owned by a :class:`~tinyc.driver.session.Session` and bounded (issue 36).

Compiling a tiny-c function costs far more than running most of them, so the engine keeps what it worked out
per function: its generated code (per shape of the names it uses), the line maps of the generated files (a
Python line back to a tiny-c address, for error cursors and the debugger), the scans and facts of function
bodies and the constant stores of functions.  These used to be process-wide dictionaries that grew with every
program text (300 edits in the shell left 600 code entries and 1,800 line maps); now each Session has one
:class:`EngineCaches`, its machines share it, and each table is an :class:`LRU` of a stated size.  Keys built
from ``id(node)`` keep the node in the value and check it on a hit (an id is reused only once the node is
gone, and a held node is not gone)."""

from __future__ import annotations

from collections import OrderedDict

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (ms of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Generic, TypeVar

    K = TypeVar("K")
    V = TypeVar("V")

    class _Table(Generic[K, V]):
        """What mypy sees: LRU[K, V] is generic."""
else:  # at run time the annotations are strings (``from __future__ import annotations``): no typing
    K = V = None

    class _Table:
        def __class_getitem__(cls, item: object) -> type:
            return cls

CODE_SIZE = 1024      # compiled functions (one per function and shape)
LINEMAP_SIZE = 4096   # line maps: one per generated file, the functions' and each run's entry statements
SCAN_SIZE = 2048      # scans of function bodies
FACT_SIZE = 2048      # facts of functions (their static locals, free and assigned names)
ASSIGN_SIZE = 2048    # constant stores of functions, per int width (constglobals.py)


class LRU(_Table[K, V]):
    """A mapping of at most ``size`` entries (``size`` >= 1); storing one more drops the least recently
    used (read or stored).  ``functools.lru_cache`` caches a function, not entries whose key is not the
    function's argument (here an ``id`` checked against the node kept in the value)."""

    __slots__ = ("size", "_data")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"an LRU cache holds at least 1 entry, not {size}")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recently used), or None."""
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        data = self._data
        data[key] = value
        data.move_to_end(key)
        if len(data) > self.size:
            data.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Drop every entry."""
        self._data.clear()


class EngineCaches:
    """The caches of one Session's fast engines (see the module docstring); the sizes are entries.

    ``code``: ``(id(fn), machine settings, shapes) -> (fn, factory code, nodes)``; ``linemaps``: generated
    file name -> ``{Python line: tiny-c address}``; ``scans``: ``id(body list) -> (body, Scan)``; ``facts``:
    ``id(fn) -> (fn, Facts)``; ``assigns``: ``(id(fn), int bits) -> (fn, {name: constants or None})``."""

    __slots__ = ("code", "linemaps", "scans", "facts", "assigns")

    def __init__(self, code: int = CODE_SIZE, linemaps: int = LINEMAP_SIZE, scans: int = SCAN_SIZE,
                 facts: int = FACT_SIZE, assigns: int = ASSIGN_SIZE) -> None:
        self.code: LRU[tuple[object, ...], tuple[object, object, object]] = LRU(code)
        self.linemaps: LRU[str, dict[int, int]] = LRU(linemaps)
        self.scans: LRU[int, tuple[object, object]] = LRU(scans)
        self.facts: LRU[int, tuple[object, object]] = LRU(facts)
        self.assigns: LRU[tuple[int, int], tuple[object, object]] = LRU(assigns)

    def sizes(self) -> dict[str, tuple[int, int]]:
        """``{table: (entries, bound)}`` of each table."""
        return {name: (len(t), t.size) for name in self.__slots__ for t in [getattr(self, name)]}

    def clear(self) -> None:
        """Empty every table (the sizes stay)."""
        for name in self.__slots__:
            getattr(self, name).clear()
