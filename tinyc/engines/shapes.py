"""The named records the fast engine's link and generator pass around: the shape of a global name and
the way generated code reaches an array's elements.

:class:`FuncShape`, :class:`VarShape` and :class:`Place` are what :meth:`~.fastrt.Linkage.resolve` gives
for a global name (None: no level defines it).  They are tuples (named ones): equal shapes are equal
keys of the code caches, and they pickle into the disk cache's key.  On the way of every ``tinyc run``,
so made with the collections module's ``namedtuple`` (imported by then anyway), not the typing module (which
costs a start milliseconds); the type checker reads the same fields from the ``NamedTuple`` classes.

:class:`Access` is the generator's record of how an array's elements are reached (see
:meth:`~.scope.ScopeGen.array`); :class:`Walking` the state of a walk's fast version (:mod:`.walks`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

if TYPE_CHECKING:
    from typing import NamedTuple

    class Place(NamedTuple):
        """A global at a constant place: its int view's alignment (``_IV<align>``) and word index there, its
        length (elements; 1 for a scalar), byte address, and for a scalar that only ever holds
        constants their bounds (:mod:`.constglobals`; None: any value of its type)."""
        align: int
        word: int
        length: int
        address: int
        bounds: tuple[int, int] | None = None

    class FuncShape(NamedTuple):
        """A global function: its parameter count (None: its call is an error), and whether a call of it
        may read, may write memory outside checked arrays (the link's effects analysis)."""
        kind: str
        nparams: int | None
        reads: bool
        writes: bool

    class VarShape(NamedTuple):
        """A global variable: its type ("int" or "char"), whether it is an array, ``frozen`` (an array of
        the running program that no code of the link reassigns), ``checked`` (an array of more than one
        element: subscripts are range checked), and its constant place (None for an array that may move)."""
        kind: str
        type: str
        array: bool
        frozen: bool
        checked: bool
        place: Place | None
    class Walking(NamedTuple):
        """The walk whose fast version is being generated: its array ``name`` and index ``k``, the id of
        its ``++k``, the code of its unchecked read of ``name(k)``, the bounds of ``k`` in the version."""
        name: str
        k: str
        inc: int
        read: str
        klo: int
        kmax: int

else:
    from collections import namedtuple
    Place = namedtuple("Place", "align word length address bounds", defaults=(None,))
    FuncShape = namedtuple("FuncShape", "kind nparams reads writes")
    VarShape = namedtuple("VarShape", "kind type array frozen checked place")
    Walking = namedtuple("Walking", "name k inc read klo kmax")


def func_shape(nparams: int | None, reads: bool = True, writes: bool = True) -> FuncShape:
    """The shape of a global function (see :class:`FuncShape`)."""
    return FuncShape("func", nparams, reads, writes)


def var_shape(type_: str, array: bool, frozen: bool, checked: bool, place: Place | None) -> VarShape:
    """The shape of a global variable (see :class:`VarShape`)."""
    return VarShape("var", type_, array, frozen, checked, place)


class Access:
    """How generated code reaches the elements of one array (made by the generator for a subscript).

    ``type`` "int" or "char"; ``checked``: subscripts are range checked; ``length``: the element count
    (an int, or the code that reads it, ``gl_NAME``); ``safe``: every checked access lands in the array's
    own space (its pointer never moves and it is allocated here or frozen); ``view``: the name of a view
    of exactly its elements (``e_NAME``: the index is the place), or None; ``words``, ``base``,
    ``count``: the aligned int view, the base index there and the view's length (int arrays reached by
    index); ``address``: code for the byte address of element 0 when it is constant in the function;
    ``ptr``: code that reads the pointer where it may move (then elements are reached by byte address).
    """

    __slots__ = ("type", "checked", "length", "safe", "view", "words", "base", "count", "address", "ptr")

    def __init__(self, type_: str, checked: bool, length: int | str, safe: bool = False) -> None:
        self.type = type_
        self.checked = checked
        self.length: int | str = length
        self.safe = safe
        self.view: str | None = None
        self.words: str | None = None
        self.base: str | None = None
        self.count: str | None = None
        self.address: str | None = None
        self.ptr: str | None = None

    @property
    def start(self) -> str:
        """Code for the byte address of element 0: the constant one, else the pointer read."""
        start = self.address or self.ptr
        assert start is not None, "an access has an address or a pointer"
        return start

    @property
    def size(self) -> int | None:
        """The element count when it is a constant (None: read at run time)."""
        return self.length if isinstance(self.length, int) else None

    def by_address(self) -> None:
        """Reach the elements by byte address (through ``ptr``), not by the aligned int view."""
        self.ptr = self.address
        self.words = self.base = self.count = None

    def __repr__(self) -> str:
        return "Access(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"
