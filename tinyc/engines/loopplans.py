"""The analyses behind the fast engine's loop optimisations: functions from a loop (its AST) and what the
generator knows of its names (a ``Scope``, which :class:`~.scope.ScopeGen` provides: the static locals, the
link's shapes, the array accesses, the effects of code) to a small plan record, or None when the
optimisation does not apply.  They write no
code; the emitter (:mod:`.ranges`, :mod:`.walks`, :mod:`.statements`) reads the plans.

* :func:`counted_loop` -> :class:`CountedLoop`: a loop that is a Python ``range`` (:mod:`.ranges`);
* :func:`shortest` and :func:`steady_arrays` (:class:`SteadyArray`): what a counted loop's version tests;
* :func:`scan_plan` -> :class:`ScanPlan`: a loop that is one bytes search (:mod:`.walks`);
* :func:`walk_plan` -> :class:`WalkPlan`: a loop versioned on one bytes search (:mod:`.walks`);
* :func:`value_version` -> :class:`ValueVersion`: an ``if`` versioned on a local's range (:mod:`.statements`).

The records are named tuples: made with the collections module's ``namedtuple`` (the typing module would cost the
generator's first use milliseconds), typed for the checker by the ``NamedTuple`` classes.
"""

from __future__ import annotations

from .. import ast
from .analysis import assigned_names, walk
from .shapes import Access

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

if TYPE_CHECKING:
    from typing import Any, Callable, NamedTuple, Protocol

    from .analysis import Analysis

    class Scope(Protocol):
        """What the analyses read of the generator (:class:`~.scope.ScopeGen` has it all): the function's
        static locals, the int range, the link's shapes, array accesses, and the effects of code."""
        an: Analysis
        bits: int
        imin: int
        imax: int

        def resolve(self, name: str) -> Any: ...
        def array(self, node: ast.Index, plain: bool = False) -> Access | None: ...
        def int_local(self, name: str) -> bool: ...
        def byte_value(self, v: Any, changed: set[str]) -> bool: ...
        def may_reload(self, node: Any) -> bool: ...
        def hoistable(self, s: Any) -> dict[str, str]: ...
        def direct(self, n: ast.MachineCall) -> bool: ...
        def has_effect(self, n: Any) -> bool: ...

    class CountedLoop(NamedTuple):
        """``for(k=init;k<n;++k) body`` or ``while(k<n) [ body; ++k ]``: the counter ``k``, the ``init``
        assignment (None: the loop starts from k's value), the ``cond`` (``k<n`` or ``k<=N``) and the
        ``body`` without a while's final ``++k``."""
        k: str
        init: ast.Assign | None
        cond: ast.BinOp
        body: ast.Stmt

    class SteadyArray(NamedTuple):
        """An int array whose elements a counted loop adds and cannot change: its name, the name of its
        elements' view, its length."""
        name: str
        view: str
        length: int

    class CharRead(NamedTuple):
        """A loop condition ``s(k)`` or ``s(k)!=stop``: the read, the stop value (None: 0), the index
        ``k`` (an int local), how ``s`` is reached."""
        read: ast.Index
        stop: ast.Expr | None
        k: str
        acc: Access

    class ScanPlan(NamedTuple):
        """A scan: the index ``k``, the char array's access, the stop value (None: 0), and the counters
        ``(name, byte counted or None: every step)``."""
        k: str
        acc: Access
        stop: ast.Expr | None
        counted: list[tuple[str, ast.Expr | None]]

    class WalkPlan(NamedTuple):
        """A walk over ``name(k)``: the access, the stop value (None: 0), the id of the ``++k`` node, and
        whether the body may leave early (break, return, an error statement)."""
        name: str
        k: str
        acc: Access
        stop: ast.Expr | None
        inc: int
        early: bool

    class ValueVersion(NamedTuple):
        """An ``if`` to generate twice: under ``test`` (``y`` within ``lo..hi``) and as written."""
        y: str
        lo: int
        hi: int
        test: str
else:
    from collections import namedtuple
    CountedLoop = namedtuple("CountedLoop", "k init cond body")
    SteadyArray = namedtuple("SteadyArray", "name view length")
    CharRead = namedtuple("CharRead", "read stop k acc")
    ScanPlan = namedtuple("ScanPlan", "k acc stop counted")
    WalkPlan = namedtuple("WalkPlan", "name k acc stop inc early")
    ValueVersion = namedtuple("ValueVersion", "y lo hi test")


# ---- counted loops (ranges.py)

def _loop_parts(s) -> tuple[ast.Assign | None, str | None, object, ast.Stmt] | None:
    """(init, the counter it assigns, step, body) of a For; of a While, its final statement is the step
    and the rest the body; None for a For whose init is not ``k=...``."""
    if isinstance(s, ast.For):
        init = s.init
        if not (isinstance(init, ast.Assign) and isinstance(init.target, ast.Var)):
            return None
        return init, init.target.name, s.step, s.body
    stmts = list(s.body.body) if isinstance(s.body, ast.Block) else [s.body]
    while stmts and isinstance(stmts[-1], ast.Null):
        stmts.pop()
    last = stmts.pop() if stmts else None
    step = last.expr if isinstance(last, ast.ExprStmt) else None
    return None, None, step, ast.Block(s.body.pos, s.body.end, stmts)


def _is_increment(e, k: str) -> bool:
    """Whether ``e`` is ``++k``."""
    return isinstance(e, ast.Unary) and e.op == "++" and isinstance(e.operand, ast.Var) and e.operand.name == k


def _fixed_end(s, cond: ast.BinOp, body, k: str, scope: Scope) -> bool:
    """Whether the end ``n`` of ``k<n`` (``k<=N``) cannot change while the loop runs and ``k`` stays below
    it without a wrap: a constant (``<=`` one below the int maximum), a scalar local the body does not
    assign, or a global int scalar the loop cannot change (``hoistable``)."""
    end = cond.right
    if isinstance(end, ast.Number):
        wrapped = ((end.value - scope.imin) & ((1 << scope.bits) - 1)) + scope.imin
        return cond.op == "<" or wrapped < scope.imax
    if cond.op != "<" or not isinstance(end, ast.Var) or end.name == k:
        return False
    e = scope.an.locals.get(end.name)
    if e is not None:
        return not e.array and end.name not in assigned_names(body)
    return end.name in scope.hoistable(s)


def counted_loop(s, scope: Scope) -> CountedLoop | None:
    """The :class:`CountedLoop` of ``s`` (a For or a While), or None when it is not one: ``k`` an int
    local that only the step ``++k`` changes, nothing in the loop may change a local through memory, and
    the end fixed (see :func:`_fixed_end`)."""
    parts = _loop_parts(s)
    cond = s.cond
    if parts is None or not (isinstance(cond, ast.BinOp) and cond.op in ("<", "<=")
                             and isinstance(cond.left, ast.Var)):
        return None
    init, counter, step, body = parts
    k = cond.left.name
    loc = scope.an.locals.get(k)
    if loc is None or loc.array or loc.type != "int" or counter not in (None, k) or not _is_increment(step, k):
        return None
    if k in assigned_names(body) | assigned_names(init and init.value) or scope.may_reload(s):
        return None
    return CountedLoop(k, init, cond, body) if _fixed_end(s, cond, body, k, scope) else None


def shortest(k: str, body, scope: Scope) -> int | None:
    """The fewest elements of the range-checked arrays ``body`` indexes by ``k`` itself, or None."""
    lengths = []
    for n in walk(body):
        if isinstance(n, ast.Index) and isinstance(n.index, ast.Var) and n.index.name == k:
            acc = scope.array(n)
            if acc is not None and acc.safe and acc.size is not None:
                lengths.append(acc.size)
    return min(lengths) if lengths else None


def _store_target(n):
    """The target of an assignment or ``++``/``--`` node, else None."""
    if isinstance(n, ast.Assign):
        return n.target
    if isinstance(n, ast.Unary) and n.op in ("++", "--"):
        return n.operand
    return None


def _summed(n, targets: set[int], scope: Scope) -> list[tuple[str, Access]]:
    """The operands of a ``+``/``-`` node ``n`` that read an int array with a view of its own."""
    out = []
    if isinstance(n, ast.BinOp) and n.op in ("+", "-"):
        for side in (n.left, n.right):
            if isinstance(side, ast.Index) and id(side) not in targets:
                acc = scope.array(side)
                if acc is not None and acc.safe and acc.view is not None and acc.type == "int" and acc.size is not None:
                    out.append((side.name, acc))
    return out


def steady_arrays(s, scope: Scope) -> list[SteadyArray]:
    """The int arrays with a view of their own (range checked, never moved) whose elements the loop ``s``
    adds or subtracts and cannot change (at most four): nothing in it calls a function or makes a machine
    call, and it stores only into range-checked arrays, none of these."""
    reads: dict[str, Access] = {}
    stored: set[str] = set()
    targets: set[int] = set()
    for n in walk(s):
        if isinstance(n, (ast.Call, ast.MachineCall)):
            return []
        if isinstance(n, ast.Var) and n.name not in scope.an.locals:
            shape = scope.resolve(n.name)
            if shape is not None and shape.kind == "func":
                return []
        target = _store_target(n)
        if isinstance(target, ast.Index):
            acc = scope.array(target)
            if acc is None or not acc.safe:
                return []
            stored.add(target.name)
            targets.add(id(target))
        for name, acc in _summed(n, targets, scope):
            reads[name] = acc
    return [SteadyArray(a, acc.view, acc.size) for a, acc in reads.items()  # type: ignore[arg-type]
            if a not in stored][:4]


# ---- scans and walks (walks.py)

def char_read(cond, scope: Scope) -> CharRead | None:
    """The :class:`CharRead` when ``cond`` is ``s(k)`` or ``s(k)!=c`` (either side) for a char array ``s``
    (range checked with a view of its own, or unchecked) and an int local ``k``; else None."""
    read, stop = cond, None
    if isinstance(cond, ast.BinOp) and cond.op == "!=":
        read, stop = (cond.left, cond.right) if isinstance(cond.left, ast.Index) else (cond.right, cond.left)
    if not (isinstance(read, ast.Index) and isinstance(read.index, ast.Var)):
        return None
    k = read.index.name
    acc = scope.array(read, plain=True)
    if not scope.int_local(k) or acc is None or acc.type != "char" or (acc.checked and acc.view is None):
        return None
    return CharRead(read, stop, k, acc)


def _scan_work(body, step) -> list[tuple] | None:
    """(test, increment) of each statement of a scan's body and step: ``++x`` (test None) or
    ``if(test) ++x``; None when there is anything else."""
    work: list[tuple] = [] if step is None else [(None, step)]
    stack = [body]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Block):
            stack.extend(reversed(x.body))
        elif isinstance(x, ast.If) and x.orelse is None and isinstance(x.then, ast.ExprStmt):
            work.append((x.cond, x.then.expr))
        elif isinstance(x, ast.ExprStmt):
            work.append((None, x.expr))
        elif not isinstance(x, ast.Null):
            return None
    return work


def _counted_byte(test, found: CharRead) -> ast.Expr | None:
    """The byte ``d`` of a counter's test ``s(k)==d`` (either side) on the scan's own read; None when the
    test is anything else."""
    if not (isinstance(test, ast.BinOp) and test.op == "=="):
        return None
    same, value = (test.left, test.right) if isinstance(test.left, ast.Index) else (test.right, test.left)
    if not (isinstance(same, ast.Index) and same.name == found.read.name and isinstance(same.index, ast.Var)
            and same.index.name == found.k):
        return None
    return value


def _scan_counters(work: list[tuple], found: CharRead, scope: Scope):
    """(counters, the names stepped) of a scan's work, or None: each a distinct int local stepped by
    ``++`` once; ``k`` unconditionally, the others every step or when ``s(k)==d``."""
    counted: list[tuple[str, ast.Expr | None]] = []
    seen: set[str] = set()
    for test, inc in work:
        if not (isinstance(inc, ast.Unary) and inc.op == "++" and isinstance(inc.operand, ast.Var)):
            return None
        name = inc.operand.name
        if name in seen or not scope.int_local(name):
            return None
        seen.add(name)
        if test is None:
            if name != found.k:
                counted.append((name, None))
            continue
        value = _counted_byte(test, found) if name != found.k else None
        if value is None:
            return None
        counted.append((name, value))
    return counted, seen


def scan_plan(cond, body, step, scope: Scope) -> ScanPlan | None:
    """The :class:`ScanPlan` of a loop, or None.  A scan is ``while(s(k)) ++k`` or ``while(s(k)!=c) ++k``
    (``s`` a char array: range checked with a view of its own, or unchecked; ``k`` an int local; ``c`` a
    constant or a scalar local the loop leaves alone) whose body and step do nothing but ``++k`` once,
    ``++n`` (an int local counting the steps) and ``if(s(k)==d) ++m`` (counting a byte value)."""
    found = char_read(cond, scope) if cond is not None else None
    work = _scan_work(body, step) if found is not None else None
    counters = _scan_counters(work, found, scope) if work is not None and found is not None else None
    if found is None or counters is None:
        return None
    counted, seen = counters
    if found.k not in seen or not all(scope.byte_value(v, seen) for v in [found.stop] + [v for _, v in counted]):
        return None
    return ScanPlan(found.k, found.acc, found.stop, counted)


def _walk_step(body, step):
    """(the increment, the statements that run before it) of a walk: a for's step, else the body's last
    top-level statement."""
    if step is not None:
        return step, [body]
    rest = list(body.body) if isinstance(body, ast.Block) else [body]
    while rest and isinstance(rest[-1], ast.Null):
        rest.pop()
    last = rest.pop() if rest else None
    return (last.expr if isinstance(last, ast.ExprStmt) else None), rest


def _changes_memory(nodes, scope: Scope) -> bool:
    """Whether running ``nodes`` may change memory or a global: a call, a string, a machine call but the
    pure ones, a store to anything but a local's name, a global that is a function."""
    locals_ = scope.an.locals
    for n in walk(nodes):
        if isinstance(n, (ast.Call, ast.String)) or isinstance(n, ast.MachineCall) and not scope.direct(n):
            return True
        target = _store_target(n)
        if target is not None and not (isinstance(target, ast.Var) and target.name in locals_):
            return True
        if isinstance(n, ast.Var) and n.name not in locals_ and scope.has_effect(n):
            return True
    return False


def walk_shape(cond, body, step, scope: Scope) -> WalkPlan | None:
    """:func:`walk_plan` for one loop, its nested loops left aside."""
    found = char_read(cond, scope)
    if found is None:
        return None
    read, stop, k, acc = found
    base = acc.start
    if not (acc.checked or base.isdigit() or base == f"p_{read.name}"):
        return None  # a global pointer that may move: its address is read at every access
    inc, rest = _walk_step(body, step)
    if not _is_increment(inc, k):
        return None
    changed = assigned_names([cond, rest])
    if changed & {k, read.name} or not scope.byte_value(stop, changed | {k}) or _changes_memory([cond, rest], scope):
        return None
    early = any(isinstance(n, (ast.Break, ast.Return, ast.ErrorStmt)) for n in walk(rest))
    return WalkPlan(read.name, k, acc, stop, id(inc), early)


def walk_plan(cond, body, step, scope: Scope) -> WalkPlan | None:
    """The :class:`WalkPlan` of a loop, or None.  A walk is ``while(s(k)) BODY``, ``while(s(k)!=c) BODY``
    or ``for(..;s(k);++k) BODY`` (``s`` a char array: range checked with a view of its own, or unchecked
    through a constant or local pointer the loop leaves alone; ``k`` an int local; ``c`` a constant or a
    local the loop leaves alone) where BODY assigns ``k`` only by one ``++k``, its last top-level
    statement (or the for's step), and cannot change memory: no element store or ++/--, no global store,
    no call, no machine call but the pure ones, no string.  A loop with a walk nested in its body is not
    one (the inner one is versioned instead)."""
    plan = walk_shape(cond, body, step, scope) if cond is not None else None
    if plan is None:
        return None
    for n in walk(body):
        if isinstance(n, (ast.While, ast.For)):
            nstep = n.step if isinstance(n, ast.For) else None
            if walk_shape(n.cond, n.body, nstep, scope) and not scan_plan(n.cond, n.body, nstep, scope):
                return None
    return plan


# ---- value versions (statements.py)

def _divided_subscript(n, scope: Scope) -> tuple[str, tuple[int, int]] | None:
    """For a subscript ``a(y/d)`` or ``a(y%d)`` of a range-checked array (constant ``d > 0``, ``y`` an int
    local): ``(y, the range of y where Python's // or % gives C's result in range)``; else None."""
    if not (isinstance(n, ast.Index) and isinstance(n.index, ast.BinOp) and n.index.op in ("/", "%")
            and isinstance(n.index.left, ast.Var) and isinstance(n.index.right, ast.Number)):
        return None
    y, d = n.index.left.name, n.index.right.value
    acc = scope.array(n)
    length = acc.size if acc is not None and acc.safe else None
    if (length is None or not scope.int_local(y) or not 0 < d <= scope.imax
            or (n.index.op == "%" and d > length)):
        return None
    return y, ((0, min(d * length - 1, scope.imax)) if n.index.op == "/" else (0, scope.imax))


def value_version(s: ast.If, scope: Scope, bounds_of: Callable[[str], tuple[int, int]]) -> ValueVersion | None:
    """The :class:`ValueVersion` of ``s`` when its condition subscripts range-checked arrays by ``y/d`` or
    ``y%d`` (constant d) at two places or more, for one int local ``y`` whose bounds (``bounds_of(y)``)
    do not settle them: the test puts ``y`` in ``lo..hi``, where every such subscript is Python's
    ``//``/``%`` and in range, so a version of the statement under it needs none of their tests.  bca's
    ``if(hi(y/100)+lo(y%100)==r)`` is the case (``0 <= y < 10000``)."""
    needs: dict[str, list[tuple[int, int]]] = {}
    for n in walk(s.cond):
        found = _divided_subscript(n, scope)
        if found is None:
            continue
        y, need = found
        lo, hi = bounds_of(y)
        if not (need[0] <= lo and hi <= need[1]):
            needs.setdefault(y, []).append(need)
    for y, ranges in needs.items():
        if len(ranges) >= 2:
            lo, hi = max(r[0] for r in ranges), min(r[1] for r in ranges)
            test = f"0 <= v_{y} < {hi + 1}" if hi < scope.imax else f"v_{y} >= 0"
            return ValueVersion(y, lo, hi, test)
    return None
