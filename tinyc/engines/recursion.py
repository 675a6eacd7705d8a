"""Recursion whose depth a decreasing parameter bounds: the proof behind the fast engine's unchecked
versions of such functions (issue 12).

A function ``F`` qualifies (:func:`depth_guard`) when

* its first statement, after declarations of scalars, is ``if (p < K) return e`` (also ``p <= K``,
  ``K > p``, ``K >= p``, the ``return`` alone in a block), where ``p`` is an int parameter, ``K`` a
  constant and ``e`` calls ``F`` nowhere;
* nothing in ``F`` assigns ``p`` (its memory cell cannot change either: the generator makes the
  unchecked version only for a function that touches memory nowhere);
* every call of ``F`` in ``F`` passes ``p - c`` for ``p``, with a constant ``c >= 1`` and ``K - c`` in
  the int range (so ``p - c`` does not wrap), and ``F`` is not otherwise named in its body.

Then a frame that calls ``F`` again has ``p >= K``, and each nested call has a smaller ``p``: a call
with ``p = v`` is the first of at most ``max(1, v - K + 2)`` nested frames of ``F``.  When the frames
that many levels down are still below the depth limit (section 14 item 11, error 17), no call of the
chain can reach it.  The generator then lets ``F`` hand the call to a version with no depth test, no
depth or value-space arguments and no fallback to the reference evaluator (see ``Codegen.generate``).
"""

from __future__ import annotations

from .. import ast
from .analysis import assigned_names, walk

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it

# the comparison "p OP K" (or "K OP p", flipped) as "p < K + shift"
_BELOW = {"<": 0, "<=": 1}
_FLIPPED = {">": 0, ">=": 1}


if TYPE_CHECKING:
    from typing import NamedTuple

    class DepthGuard(NamedTuple):
        """The plan of a function's unchecked version: its int parameter ``param`` and the constant
        ``limit`` of its guard ``if (param < limit) return ...``."""
        param: str
        limit: int
else:
    from collections import namedtuple
    DepthGuard = namedtuple("DepthGuard", "param limit")


def depth_guard(fname: str, params: list, body: list, bits: int = 32) -> DepthGuard | None:
    """The :class:`DepthGuard` ``(p, K)`` when a call of the function ``fname`` (parameters ``params`` as
    ``(type, Declarator)`` pairs, statements ``body``) with ``p = v`` makes at most ``max(1, v - K + 2)``
    nested frames of itself, by the rules of the module docstring; else None.  ``bits``: the int width
    (16 or 32)."""
    imin, imax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    ints = {d.name for t, d in params if t == "int" and d.size is None}
    k = _leading_scalars(fname, {d.name for _, d in params}, body)
    guard = _guard(body[k], ints, imin, imax) if k is not None else None
    if guard is None or k is None:
        return None
    p, limit, ret = guard
    if ret is not None and any(isinstance(n, (ast.Call, ast.Var)) and n.name == fname for n in walk(ret)):
        return None
    if p in assigned_names(body):
        return None
    index = [d.name for _, d in params].index(p)
    if not all(_passes_smaller(n, fname, len(params), index, p, limit - imin) for n in walk(body[k + 1:])):
        return None
    return DepthGuard(p, limit)


def _leading_scalars(fname: str, names: set[str], body: list) -> int | None:
    """The index of the first statement after the body's leading declarations of scalars; None when one
    of them declares an array, nothing follows them, or a parameter or local is named ``fname``."""
    k = 0
    while k < len(body) and isinstance(body[k], ast.Decl):
        if any(d.size is not None for d in body[k].names):
            return None
        names = names | {d.name for d in body[k].names}
        k += 1
    return None if fname in names or k == len(body) else k


def _passes_smaller(n, fname: str, nparams: int, index: int, p: str, room: int) -> bool:
    """Whether node ``n`` keeps the rule on calls of ``fname``: not named but in a call, which passes
    ``p - c`` (``1 <= c <= room``: ``K - c`` stays in the int range) as parameter ``index``."""
    if isinstance(n, ast.Var) and n.name == fname:
        return False
    if not (isinstance(n, ast.Call) and n.name == fname):
        return True
    if len(n.args) != nparams:
        return False
    a = n.args[index]
    return (isinstance(a, ast.BinOp) and a.op == "-" and isinstance(a.left, ast.Var) and a.left.name == p
            and isinstance(a.right, ast.Number) and 1 <= a.right.value <= room)


def _guard(s, ints: set[str], imin: int, imax: int):
    """``(p, K, e)`` when ``s`` is ``if (p < K) return e`` in one of its forms (``e`` None: no value)."""
    if not isinstance(s, ast.If) or s.orelse is not None:
        return None
    then = s.then
    if isinstance(then, ast.Block) and len(then.body) == 1:
        then = then.body[0]
    c = s.cond
    if not isinstance(then, ast.Return) or not isinstance(c, ast.BinOp):
        return None
    left, right = _number(c.left), _number(c.right)
    if c.op in _BELOW and isinstance(c.left, ast.Var) and right is not None:
        var, k = c.left.name, right + _BELOW[c.op]
    elif c.op in _FLIPPED and isinstance(c.right, ast.Var) and left is not None:
        var, k = c.right.name, left + _FLIPPED[c.op]
    else:
        return None
    if var not in ints or not imin <= k - 1 <= imax:
        return None
    return var, k, then.value


def _number(e) -> int | None:
    """The value of a decimal constant, or of one negated (``-5``); else None."""
    if isinstance(e, ast.Number):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.Number):
        return -e.operand.value
    return None
