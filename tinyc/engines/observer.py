"""The reference evaluator's one observer slot: how a tool (the tracer, the debugger, the stepper)
watches a run without a subclass of each dialect's evaluator.

An evaluator with an observer (the ``observer`` of :class:`tinyc.engines.evaluator.Evaluator`) hands it
each statement, each test of an ``if``/``while``/``for`` header and each call of a tiny-c function, with
``run``, the evaluator's own work for it.  The hook runs ``run()`` itself, so one method sees the state before, the result
after, and a tiny-c error (:class:`~tinyc.errors.TinyCError`) or a return/break unwinding through it, as the
tracer's ``try``/``finally`` needs.  An observer that asks (``expressions``, the stepper) is also told each
expression's value: its evaluator gets its own table of visitors, each expression's wrapped, so that no other
run pays for it.  The statement, header and call hooks replace those methods of the one evaluator watched (an
instance's own attributes), so that a plain run pays nothing for them, and one test of the slot per function
body, per machine call and per array pointer assigned for the others.  The hooks are the same in every
dialect's evaluator, so a tool works on whatever evaluator the dialect's engine factory makes.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it

from functools import partial

from .. import ast

if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    from ..link.symbols import Symbol
    from .evaluator import Evaluator

    Result = TypeVar("Result")  # what a call gives: an int, or in the Gibson dialect perhaps a reference


class Observer:
    """What watches one evaluator; each hook calls ``run()`` once and gives back what it returns.

    The defaults only run: a tool overrides the hooks it needs.  :meth:`attach` puts the observer in an
    evaluator's slot; ``evaluator`` is then the one it watches (its memory, frame and call depth).
    """

    evaluator: Evaluator
    expressions = False  # True: :meth:`expression` sees each expression's value (a slower run)

    def attach(self, evaluator: Evaluator) -> Evaluator:
        """Watch ``evaluator`` from now on (its slot held at most one observer: this one replaces it);
        gives the evaluator back, so that an engine factory can be wrapped in one expression."""
        self.evaluator = evaluator
        evaluator.observer = self
        # this evaluator's execute, condition and call only become the hooks: a plain run pays nothing
        cls: Any = type(evaluator)
        execute, condition, call = (partial(cls.execute, evaluator), partial(cls.condition, evaluator),
                                    partial(cls.call, evaluator))
        setattr(evaluator, "execute", lambda node: self.statement(node, lambda: execute(node)))
        setattr(evaluator, "condition",
                lambda node, before=None: self.condition(node, lambda: condition(node, before)))
        setattr(evaluator, "call",
                lambda sym, args, node: self.call(sym, args, node, lambda: call(sym, args, node)))
        if self.expressions:  # this evaluator's own table of visitors, each expression's wrapped
            table = {t: _watched(f, self) if issubclass(t, ast.Expr) else f
                     for t, f in type(evaluator)._visit.items()}
            setattr(evaluator, "_visit", table)
        return evaluator

    def watching(self, factory: Callable[[Any], Any]) -> Callable[[Any], Evaluator]:
        """The engine factory ``factory`` (``factory(machine) -> engine``: a dialect's reference one) with
        this observer attached to each evaluator it makes.  The factory made raises TypeError when the
        engine has no observer slot (not a reference evaluator: the fast engine)."""
        def make(machine: Any) -> Evaluator:
            from .evaluator import Evaluator
            made = factory(machine)
            if not isinstance(made, Evaluator):
                raise TypeError(f"the {getattr(made, 'name', type(made).__name__)} engine cannot be observed")
            return self.attach(made)
        return make

    def statement(self, node: ast.Stmt, run: Callable[[], None]) -> None:
        """A statement (section 5) about to run; ``run()`` runs it (raising as it does)."""
        run()

    def condition(self, node: ast.If | ast.While | ast.For, run: Callable[[], int]) -> int:
        """A statement's header being tested (a ``for``'s init or step, then the condition);
        ``run()`` gives the condition's value."""
        return run()

    def expression(self, node: ast.Expr, value: Any) -> None:
        """An expression has given ``value`` (an int, or in the Gibson dialect perhaps a reference); only
        for an observer whose ``expressions`` is True."""

    def machine_call(self, values: list[int]) -> None:
        """A machine call about to be made with ``values`` (its arguments, then its number; section 8)."""

    def moved(self, sym: Symbol) -> None:
        """An array name's pointer about to be assigned (section 14 item 21)."""

    def entered(self, function: ast.Function) -> None:
        """The body of ``function`` about to run in its new frame (its parameters bound): its ``[`` runs
        without :meth:`statement`."""

    def call(self, sym: Symbol, args: list[Any], node: ast.Node, run: Callable[[], Result]) -> Result:
        """A call of the tiny-c function ``sym`` with ``args`` (as the dialect passes them: the Gibson
        dialect may pass references; :meth:`~tinyc.engines.evaluator.Evaluator.shown` reads one) from
        the call site ``node``; ``run()`` makes the call and gives its result.  (The debugger may make
        the call another way: compiled, on the fast engine.)"""
        return run()


def _watched(visit: Callable[[Any, Any], Any], observer: Observer) -> Callable[[Any, Any], Any]:
    """The expression visitor ``visit`` telling ``observer`` the value it gives."""
    def watched(evaluator: Any, node: Any) -> Any:
        value = visit(evaluator, node)
        observer.expression(node, value)
        return value
    return watched
