"""Statements whose parse waits for run time: the uses of a name that a nested declaration may make a local.

The original interpreter parsed a statement when it ran, looking each name up then: a name is a local
once its declaration has run, until the function returns (reference section 3, "Globals vs locals").
The lexer decides by the order of the text (:func:`~tinyc.syntax.lexer.classify`), which is the order
of running for declarations at the top of a body; :func:`~tinyc.syntax.lexer.run_time_names` finds the
uses where it is not (a name declared in a nested block that is also a function of an outer level).

:func:`wrap` puts each statement list's tail, from the first statement holding such a use, into an
:class:`~tinyc.ast.Reparse`: the evaluator checks, each time it reaches it, whether the names are
locals as the parse assumed, and otherwise parses that text again with the locals of the moment
(:func:`~tinyc.syntax.pipeline.reparse`).  A nested block is a statement list of its own: its brackets do
not depend on the names.  Changing a name's kind can move statement boundaries (``pn g 5`` is one
statement when ``g`` is a function, two when it is a variable), which is why the whole tail is parsed
again, not the one statement.  A ``while`` whose condition holds such a use ends its body with an
:class:`~tinyc.ast.Recheck`, so that a name the body declares is seen by the condition's next run; a
``for`` is not re-entered that way (its first expression would run again): its header keeps the kinds
it had when the loop started.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import ast


def wrap(stmts: list[ast.Stmt], marks: dict[int, tuple[str, bool]], dynamic: frozenset[str], end: int
         ) -> list[ast.Stmt]:
    """``stmts`` (a statement list whose text ends at the address ``end``) with the tail from its first
    statement holding a marked use put in a :class:`~tinyc.ast.Reparse`, and every nested block's list
    treated the same way.  ``marks``: address of a use -> (name, taken for a local), as
    :func:`~tinyc.syntax.lexer.run_time_names` gives them (offsets made addresses)."""
    for k, s in enumerate(stmts):
        inner = list(_blocks(s))
        for b in inner:
            b.body = wrap(b.body, marks, dynamic, b.end - 1)
        own: dict[str, bool] = {}
        for at, (name, local) in marks.items():
            if s.pos <= at < s.end and not any(b.pos <= at < b.end for b in inner):
                own.setdefault(name, local)
        if own:
            tail = [s] + wrap(stmts[k + 1:], marks, dynamic, end)
            names = tuple(sorted(own))
            assumed = tuple(own[n] for n in names)
            if isinstance(s, ast.While) and isinstance(s.body, ast.Block):  # its condition runs again
                s.body.body = s.body.body + [ast.Recheck(s.pos, s.pos, names, assumed)]
            return stmts[:k] + [ast.Reparse(s.pos, end, names, assumed, dynamic, tail)]
    return stmts


def _blocks(s: ast.Stmt) -> Iterator[ast.Block]:
    """The blocks directly nested in the statement ``s`` (not inside another block of it)."""
    if isinstance(s, ast.Block):
        yield s
    elif isinstance(s, ast.If):
        yield from _blocks(s.then)
        if s.orelse is not None:
            yield from _blocks(s.orelse)
    elif isinstance(s, (ast.While, ast.For)):
        yield from _blocks(s.body)
