"""Code generator of the fast engine: one tiny-c function (or top-level statement list) to Python source.

The generated source is a factory ``def _make(_N): def f_NAME(params..., _t, _d): ...; return f_NAME``
executed with a per-link globals dict (see :mod:`tinyc.engines.fastrt`).  Conventions in the generated code:

* a scalar local or parameter ``x`` is the Python local ``v_x``; a local array ``a`` is its pointer
  ``p_a`` (plus ``e_a``, a view of exactly its elements when it is range checked and never reassigned,
  or ``w_a``/``b_a``/``n_a``: the aligned int view, base index and view length);
* ``_t`` is the value-space top (bytes) and ``_d`` the number of active tiny-c calls: both are passed
  down the calls, so returning needs no bookkeeping (reference section 3, "Memory layout"; 14 item 11);
  one test on entry covers the depth limit and the first allocations: when it fails, ``r_NAME`` (the
  reference evaluator) runs the call and reports the error;
* globals come from the link's table: int scalars and arrays that no code of the link reassigns are
  baked in as constant places (``_IV0[8858]``, ``e_x`` views made by the factory), ``f_x`` is a
  function, ``gs_x`` a symbol whose array pointer may change;
* values are Python ints wrapped to ``int_bits`` only where it changes a result (stores, comparisons,
  ``/``, ``%``, conditions, subscripts, arguments, returns) and the bounds known for the value there do
  not settle it: bounds of scalar locals are followed along the code (``self.known``);
* every check that can fail carries the tiny-c error cursor (an absolute byte address) as a constant.

Anything this generator does not handle statically (a declaration inside a nested block, a name used
before its declaration, an array bound that is not a constant) raises :class:`Unsupported`; the engine
then runs that function with the reference evaluator.

The generator is built in layers, each a class over the one before, and no layer calls a later one:
:mod:`.genbase` (state and output), :mod:`.scope` (questions about names, accesses and effects, no
output), :mod:`.bounds` (value bounds, wrap decisions), :mod:`.cells` (scalar locals' memory cells),
:mod:`.frames` (allocations), :mod:`.expressions`, :mod:`.loopopt` (invariants, repeated reads),
:mod:`.statements` (each node's ``visit_<Node>``), :mod:`.ranges` (counted loops), :mod:`.walks` (scans and
walks); :class:`Codegen` adds the prologue and :meth:`Codegen.generate`.  The analyses that choose an
optimisation give plans (:mod:`.recursion`); :mod:`.analysis` has the AST walks and the
static locals of a function; :mod:`.options` the switch of each optimisation.
"""

from __future__ import annotations

import re

from . import analysis
from .analysis import (
    MAX_LOCALS, MAX_LOOPS, MAX_NESTING, Analysis, Local, Unsupported, assigned_names,
    constant, names_used, nesting, walk,
)
from .genbase import E
from .bounds import join
from .walks import WalkGen

__all__ = [
    "Analysis", "Codegen", "E", "Local", "MAX_LOCALS", "MAX_LOOPS", "MAX_NESTING",
    "Unsupported", "assigned_names", "constant", "join", "names_used", "nesting", "walk",
]


class Codegen(WalkGen):
    """Generates the factory source for one function.

    ``resolve(name)`` gives the link-time shape of a global name: None (undefined), ``("func", nparams)``
    or ``("var", type, array, frozen, checked)``; ``source(node)`` the tiny-c text of a node (comments).
    ``room``: the link has shown that no allocation of value space can fail while its entry runs
    (:attr:`~.fastrt.Linkage.room`), so frames are taken without a test.
    """

    dispatch: tuple[str, int] | None = None  # (p, K) of recursion.depth_guard: hand a call to u_NAME

    def generate(self) -> tuple[str, dict[int, int]]:
        """The factory source and the line map (generated line -> tiny-c address).

        A self-recursive function whose depth a decreasing parameter bounds (:mod:`.recursion`) also
        gets ``u_NAME``, generated first by a second generator: the same body with no depth test, no
        ``_t``/``_d`` and its calls of itself going to ``u_NAME``.  It is kept only when the link proved
        that every frame fits (``room``), and its text never names ``_t`` or ``_d`` (the function touches
        no memory and calls nothing else).  ``f_NAME`` hands a call to it when the depth it may reach
        stays below the limit."""
        unchecked = self.unchecked_version()
        fn = ("u_" if self.unchecked else "f_") + self.fname
        args = []
        for type_, d in self.params:
            loc = self.an.locals[d.name]
            args.append(("p_" if loc.array else "v_") + d.name)
        header = f"def {fn}({', '.join(args + ([] if self.unchecked else ['_t', '_d']))}):"
        loops, depth = nesting(self.body)
        if loops > MAX_LOOPS or depth > MAX_NESTING:
            raise Unsupported("statements nested too deeply for CPython")
        scalars = [k for k, v in self.an.locals.items() if not v.array]
        nonsafe = self.has_nonsafe(self.body)
        self.frame = bool(scalars) and nonsafe
        self.cells = bool(scalars) and (analysis.EXACT_DEAD_FRAMES or not self.opts.dead_frames or nonsafe or self.may_sync(self.body))
        self.addrs = self.cells
        if self.an.modified and self.cells:
            self.emit(1, "try:")
            self.base = 1
        self.prologue()
        for s in self.body:
            if self.deferred and self.uses_frame(s):
                self.settle()
            self.stmt(s, 1)
        self.flush_stmts(1)
        self.emit(1, "return 0")
        if self.an.modified and self.cells:
            self.base = 0
            names = tuple((f"v_{k}", f"a_{k}", self.an.locals[k].type == "int") for k in sorted(self.an.modified))
            self.emit(1, "except BaseException:")
            self.emit(2, f"_xf(locals(), {names!r}); raise")
        if self.unchecked:
            return "\n".join([header] + self.lines) + "\n", self.linemap
        first: list[str] = []
        linemap: dict[int, int] = {}
        if unchecked is not None:
            lines, umap, uviews = unchecked
            self.views.update(uviews)
            first = ["    " + ln for ln in lines]
        views = ["    " + ln for ln in self.views.values()]
        if unchecked is not None:
            linemap = {k + 1 + len(views): v for k, v in umap.items()}
        at = 1 + len(views) + len(first)
        linemap.update({k + at: v for k, v in self.linemap.items()})
        src = (["def _make(_N):", *views, *first, "    " + header] + ["    " + ln for ln in self.lines]
               + [f"    return {fn}"])
        return "\n".join(src) + "\n", linemap

    def unchecked_version(self) -> tuple[list[str], dict[int, int], dict[str, str]] | None:
        """The lines, line map (as :meth:`generate` gives them) and views of ``u_NAME`` (see
        :meth:`generate`); None when the function does not qualify.  Sets :attr:`dispatch` for the
        prologue of ``f_NAME``."""
        from .recursion import depth_guard
        if self.unchecked or self.toplevel or not self.room or not self.opts.depth_guard:
            return None
        guard = depth_guard(self.fname, self.params, self.body, self.bits)
        if guard is None:
            return None
        u = type(self)(self.fname, self.params, self.body, self.resolve, self.bits, self.source, False,
                       None if self.size == "_SIZE" else int(self.size),
                       None if self.maxd == "_MAXD" else int(self.maxd), self.opts)
        u.room, u.unchecked, u.nodes = True, True, self.nodes  # one _N list for both
        n0 = len(self.nodes)
        try:
            text, umap = u.generate()
        except Unsupported:
            text = None
        # it needs the frame's place or depth after all? (comments left out: in tinyc compile's view they
        # hold program text, which may name _t)
        if text is None or re.search(r"\b_[td]\b", re.sub(r"#.*", "", text)):
            del self.nodes[n0:]
            return None
        self.dispatch = guard
        return text[:-1].split("\n"), umap, u.views  # (the generator's own line ends: never splitlines)

    # ---- allocation in value space (frames grow from _t)

    def prologue(self) -> None:
        """Bind the parameters as the reference binds them: each gets value space in order.

        A call at the depth limit (its own calls would be error 17), or one whose first allocations do
        not fit (error 19), runs on the reference evaluator (``r_NAME``), which reports the same error
        at the same place."""
        lead = 0
        if not self.toplevel:
            deep = self.calls()
            lead = self.lead_size()
            test_room = lead and not self.room  # (with room the frame is still taken where first needed)
            if self.unchecked:  # a depth proven below the limit and every frame fits: no test, no steps
                deep = test_room = False
            tests = ([f"_d >= {self.maxd}"] if deep else []) + ([f"_t > {self.limit(lead)}"] if test_room else [])
            args = ", ".join(("p_" if self.an.locals[d.name].array else "v_") + d.name for _, d in self.params)
            if tests:
                why = " or ".join((["at the depth limit"] if deep else []) + ([f"no room for {lead} bytes"]
                                                                             if test_room else []))
                self.emit(1, f"# {why}: the reference evaluator runs this call (and reports the error)")
                self.emit(1, f"if {' or '.join(tests)}: return r_{self.fname}({args + ', ' if args else ''}_t, _d)")
            if self.dispatch is not None:
                p, k = self.dispatch
                top = f"{int(self.maxd) + k - 2}" if self.maxd != "_MAXD" else f"_MAXD + {k - 2}"
                self.emit(1, f"# if({p}<{k}) returns, and each call passes a smaller {p}: the calls from here "
                             f"go at most {p if k == 2 else f'{p}{2 - k:+d}'} frames deep (recursion.py)")
                self.emit(1, f"if v_{p} <= {top} - _d: return u_{self.fname}({args})")
            if deep:
                self.deferred.append("_d += 1  # the depth of the calls made from here")
                self.stepped = True
        if self.frame:
            self.emit(1, "_f0 = _t  # the frame's first byte")
        pending: list[tuple[int, int]] = []
        writes: list[str] = []
        for type_, d in self.params:
            loc = self.an.locals[d.name]
            size = self.isz if type_ == "int" else 1
            if not loc.array:
                off = sum(n for n, _ in pending)
                pending.append((size, d.end))
                if type_ == "char":
                    self.emit(1, f"v_{d.name} = ((v_{d.name} + 128) & 255) - 128")
                writes += self.place(d.name, off, f"v_{d.name}")
                continue
            self.settle()
            self.flush_alloc(1, pending, lead, writes)
            lead = 0
            if self.bits == 16:  # the int passed is read as an address (section 14 item 21)
                self.emit(1, f"p_{d.name} &= 65535")
            self.array_param(d, max(loc.length, 0) * size)
            self.bind_array(1, loc)
        if lead and pending:  # tested on entry: the frame's space is taken where it is first needed
            for w in self.fill(writes):
                self.emit(1, w)
            if not self.unchecked:  # (u_NAME keeps no value-space top: its frames touch no memory)
                self.deferred.append(f"_t += {sum(n for n, _ in pending)}")
        else:
            self.flush_alloc(1, pending, lead, writes)
