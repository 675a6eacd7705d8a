"""The fast engine's optimisations by name, and the set of them a generator applies.

Every optimisation of the fast engine's code generator (docs/fast-engine.md) has a name and a switch.
:class:`Optimisations` is a frozen set of switches, one boolean field per optimisation; the generator
and the link read the fields (``opts.scans``), the code caches key on :meth:`Optimisations.key`, and the
command line builds one with :func:`from_switches` (``tinyc compile -O0``, ``--no-scans``,
``--only-counted-loops``).  With every switch off the generator writes the plain translation: each value
wrapped where its type's range does not settle it, every subscript tested, every frame tested, every
loop a ``while``.  Any set of switches gives the same output bytes, error numbers and error addresses.
"""

from __future__ import annotations

# name -> what it does (the order of ``tinyc compile --help``)
NAMES: dict[str, str] = {
    "bounds": "follow the bounds of scalar locals along the code: no wrap or range test they settle",
    "const-globals": "globals that only ever hold constants get bounds (constglobals.py)",
    "room": "frames taken without a test when the link shows that every frame fits (Linkage.room)",
    "dead-frames": "a function that touches no memory outside its checked arrays writes no cells",
    "depth-guard": "recursion a decreasing parameter bounds runs a version with no depth test (recursion.py)",
    "counted-loops": "a loop that steps an int local by one to a fixed end is a Python range (ranges.py)",
    "loop-versions": "a counted loop gets a version with fewer tests (array lengths, divisors, sums)",
    "value-versions": "an if whose condition subscripts by y/d and y%d gets a version for y in range",
    "scans": "while(s(k)) ++k and its kin run as one bytes search (loopopt.py)",
    "walks": "a loop stepping over a char array to a stop byte reads it unchecked after one search",
    "hoist": "global scalars a loop cannot change are read once before it",
    "invariants": "loop-invariant expressions are evaluated once before the loop",
    "reuse-reads": "a second read of the same element in one expression reuses the first value",
    "divided-index": "a subscript y/d or y%d folds its range test into the division",
}


def _field(name: str) -> str:
    return name.replace("-", "_")


class Optimisations:
    """Which optimisations the fast engine's generator applies: a frozen set of switches, one boolean
    attribute per name of :data:`NAMES` (``-`` written ``_``: ``opts.counted_loops``), all on unless
    ``off`` names them.  Immutable and hashable: part of the code caches' keys.  (A plain class: the
    dataclasses module costs every start of ``tinyc run`` milliseconds to import.)"""

    __slots__ = tuple(_field(n) for n in NAMES) + ("_key",)
    # the switches (set by __init__ from NAMES; declared for the type checker)
    bounds: bool
    const_globals: bool
    room: bool
    dead_frames: bool
    depth_guard: bool
    counted_loops: bool
    loop_versions: bool
    value_versions: bool
    scans: bool
    walks: bool
    hoist: bool
    invariants: bool
    reuse_reads: bool
    divided_index: bool
    _key: str

    def __init__(self, off: tuple[str, ...] | frozenset[str] = ()) -> None:
        for n in off:
            check(n)
        for n in NAMES:
            object.__setattr__(self, _field(n), n not in off)
        gone = [n for n in NAMES if n in off]
        object.__setattr__(self, "_key", "no-" + ",".join(gone) if gone else "all")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("an optimisation set is immutable: use without() or only()")

    def enabled(self) -> tuple[str, ...]:
        """The names of the optimisations switched on, in the order of :data:`NAMES`."""
        return tuple(n for n in NAMES if getattr(self, _field(n)))

    def disabled(self) -> tuple[str, ...]:
        """The names of the optimisations switched off, in the order of :data:`NAMES`."""
        return tuple(n for n in NAMES if not getattr(self, _field(n)))

    def without(self, *names: str) -> Optimisations:
        """These optimisations with ``names`` switched off as well (ValueError for an unknown name)."""
        return Optimisations(frozenset(self.disabled()) | frozenset(check(n) for n in names))

    def key(self) -> str:
        """A short text naming exactly this set (for the code caches): ``all``, or the names switched off."""
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Optimisations) and self.disabled() == other.disabled()

    def __hash__(self) -> int:
        return hash(self.disabled())

    def __repr__(self) -> str:
        return f"Optimisations(off={self.disabled()!r})"

    def __str__(self) -> str:
        on = self.enabled()
        return "all" if len(on) == len(NAMES) else "none" if not on else ", ".join(on)


def check(name: str) -> str:
    """``name`` if it names an optimisation; else ValueError saying which names there are."""
    if name not in NAMES:
        raise ValueError(f"no optimisation {name!r}; the optimisations: {', '.join(NAMES)}")
    return name


def only(*names: str) -> Optimisations:
    """Only the optimisations ``names`` switched on (ValueError for an unknown name)."""
    return Optimisations(frozenset(NAMES) - frozenset(check(n) for n in names))


def from_switches(level: int | None = None, no: list[str] | tuple[str, ...] = (),
                  only_names: list[str] | tuple[str, ...] = ()) -> Optimisations:
    """The set the command-line switches choose: ``-O0`` (``level`` 0: none) or ``-O``/``-O1`` (all,
    the default), then each ``--only-NAME`` switched on (from none, when any is given) and each
    ``--no-NAME`` switched off.  ValueError for an unknown name."""
    base = NONE if level == 0 else ALL
    if only_names:
        base = only(*only_names)
    return base.without(*no)


def from_args(args) -> Optimisations | None:
    """The set the switches in the command-line namespace ``args`` choose (``opt_level``: ``-O``,
    ``opt_off``: the ``--no-NAME`` names, ``opt_only``: the ``--only-NAME`` names), or None when none of
    them was given (the engine's default: all).  ValueError for an unknown name."""
    level, off, on = (getattr(args, k, None) for k in ("opt_level", "opt_off", "opt_only"))
    if level is None and not off and not on:
        return None
    return from_switches(level, off or (), on or ())


ALL = Optimisations()
NONE = Optimisations(tuple(NAMES))
