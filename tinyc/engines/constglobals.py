"""Bounds of the program's global scalars that only ever hold constants (for the fast engine's generator).

A program-level global scalar starts at 0 (the link allocates it zeroed).  When every assignment to it
anywhere in the link (program, library, the typed entry statement) stores a constant, nothing applies
``++``/``--`` to it, and nothing that can run stores into memory outside checked arrays (which could
land on its cell: unchecked ``char s(0)`` parameters, moved pointers, machine calls that write memory
or run another program), its value always lies between the smallest and the largest of 0 and those
constants.  The generator then leaves out wraps, overflow and sign tests and subscript range tests that
these bounds settle.

The guard is strict: the entry statement and every function it may call (``Linkage.effects``) must be
free of such stores.  Programs that call the library's string or input functions (``move``, ``gs``,
``gn``, ``strcpy`` ...) write through unchecked pointers, and then no global gets bounds.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from .. import ast
from .analysis import constant, facts, walk

if TYPE_CHECKING:
    from .fastrt import Linkage
    from .caches import EngineCaches



def stores(body) -> list:
    """(name, value expression) of every whole-name assignment under ``body`` in walk order; the value is
    None for ``++``/``--`` (as :attr:`~.analysis.Scan.stores` keeps them for a function body)."""
    out: list = []
    for n in walk(body):
        if isinstance(n, ast.Assign) and isinstance(n.target, ast.Var):
            out.append((n.target.name, n.value))
        elif isinstance(n, ast.Unary) and n.op in ("++", "--") and isinstance(n.operand, ast.Var):
            out.append((n.operand.name, None))
    return out


def collect(found: list, local_names, bits: int) -> dict[str, set[int] | None]:
    """The names of ``found`` (as :func:`stores` gives them) outside ``local_names``: the constants
    stored (wrapped to ``bits``), or None when a store is not a constant or the name is incremented."""
    out: dict[str, set[int] | None] = {}
    for name, value in found:
        if name in local_names:
            continue
        v = None if value is None else constant(value, bits)
        seen = out.setdefault(name, set())
        if v is None:
            out[name] = None
        elif seen is not None:
            seen.add(v)
    return out


def assignments(body, local_names, bits: int) -> dict[str, set[int] | None]:
    """Names ``body`` assigns as a whole (outside ``local_names``): the constants stored, or None when a
    store is not a constant or the name is incremented."""
    return collect(stores(body), local_names, bits)


def merge(into: dict, part: dict) -> None:
    """Add the stores of ``part`` to ``into`` (both as :func:`assignments` gives them)."""
    for name, vals in part.items():
        old = into.setdefault(name, set())
        into[name] = None if vals is None or old is None else old | vals


def function_assignments(fn: ast.Function, bits: int, caches: EngineCaches | None = None
                         ) -> dict[str, set[int] | None]:
    """:func:`assignments` of a function, its static locals left out (all names count when it has
    dynamic locals); kept by function and width in ``caches`` (a Session's :class:`~.caches.EngineCaches`;
    None: worked out afresh)."""
    hit = caches.assigns.get((id(fn), bits)) if caches is not None else None
    if hit is None or hit[0] is not fn:
        f = facts(fn, caches)  # the body's stores come from the one walk the link makes of it
        found = collect(f.scan.stores, f.locals or (), bits)
        merge(found, assignments(fn.params, set(), bits))  # array sizes run on each call
        hit = (fn, found)
        if caches is not None:
            caches.assigns[(id(fn), bits)] = hit
    return hit[1]  # type: ignore[return-value]  # the table holds (fn, its stores)


def constant_globals(link: Linkage, own_effects) -> dict[str, tuple[int, int]]:
    """name -> (lo, hi) for the program's global scalars whose value is always within those bounds while
    ``link.entry`` runs (empty when the guard does not hold; see the module docstring).  ``own_effects``
    is :func:`~.fastrt.own_effects` (passed in: fastrt imports this module)."""
    engine, stmts = link.engine, link.entry
    if (stmts is None or link.program is None or not getattr(engine, "constant_globals", False)
            or not engine.options.const_globals):
        return {}
    bits = engine.m.memory.int_bits
    # nothing that can run may store outside checked arrays
    entry = ast.Function(0, 0, "_run", [], ast.Block(0, 0, list(stmts)))
    _, writes, callees, _ = own_effects(entry, link, False)  # a statement typed once: its scan is not kept
    if writes or any(link.effects(c)[1] for c in callees):
        return {}
    values: dict[str, set[int] | None] = {}
    parts = [assignments(list(stmts), set(), bits)]  # the entry's own declarations count as globals: safe
    for table in (link.program, link.library):
        if table is not None:
            parts += [function_assignments(s.function, bits, engine.caches) for s in table if s.kind == "func"]
    for part in parts:
        merge(values, part)
    out = {}
    for sym in link.program:
        if sym.kind == "func" or sym.array or link.lookup(sym.name) is not sym:
            continue
        vals = values.get(sym.name, set())
        if vals is None:
            continue
        if sym.type == "char":
            vals = {((v + 128) & 255) - 128 for v in vals}
        vals = vals | {0}
        out[sym.name] = (min(vals), max(vals))
    return out
