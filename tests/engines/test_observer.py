"""The reference evaluator's observer slot (tinyc/engines/observer.py): what a tool sees, and that the
tracer is an observer of whatever evaluator a dialect's factory makes, not a subclass of it."""

import io

import pytest

from tinyc import Session
from tinyc.engines.evaluator import Evaluator
from tinyc.engines.observer import Observer
from tinyc.machine.console import Console
from tinyc.views.stages import load

PROGRAM = b"sq int n [ return n*n ]\nmain [ int i; i = 0; while (i < 2) [ pn sq(i+3); i = i + 1 ] ]\n"


class Recorder(Observer):
    """Counts statements and headers, and records each call with its arguments and result."""

    def __init__(self):
        self.statements, self.headers, self.calls = 0, [], []

    def statement(self, node, run):
        self.statements += 1
        run()

    def condition(self, node, run):
        value = run()
        self.headers.append(value)
        return value

    def call(self, sym, args, node, run):
        result = run()
        self.calls.append((sym.name, list(args), result))
        return result


def run_main(engine, program=PROGRAM):
    out = io.BytesIO()
    session = Session(engine="reference", console=Console(io.BytesIO(), out))
    loaded = load(program, session=session, engine=engine)
    err, _ = loaded.workspace.run(b"main")
    loaded.machine.console.flush()
    return err, out.getvalue()


def test_an_observer_sees_headers_and_calls_and_the_output_is_unchanged():
    seen = Recorder()
    plain = run_main(Evaluator)
    assert run_main(seen.watching(Evaluator)) == plain == (0, b" 9 16")
    assert seen.headers == [1, 1, 0]  # the while's test, each time
    assert [c for c in seen.calls if c[0] in ("main", "sq")] == [("sq", [3], 9), ("sq", [4], 16), ("main", [], 0)]
    assert seen.statements > 6


def test_the_fast_engine_cannot_be_watched():
    fast = Session(engine="fast").dialect.engine("fast")
    with pytest.raises(TypeError, match="fast engine cannot be observed"):
        run_main(Recorder().watching(fast))


def test_the_tracer_is_an_observer_not_an_evaluator():
    from tinyc.debug.tracer import Tracer, trace
    assert issubclass(Tracer, Observer) and not issubclass(Tracer, Evaluator)
    assert "  sq(3) returns 9" in trace(PROGRAM.decode())


def test_the_debugger_watches_the_evaluator_its_dialect_makes():
    from tinyc.debug.engine import Debugging

    class Session_:  # the debugger's side: records where it was told a statement runs
        def __init__(self):
            self.lines = []

        def statement(self, eng, node):
            self.lines.append(node.pos)

        def calling(self, eng, sym, node):
            pass

        def popped(self, eng, info):
            pass

        def returned(self, eng, info, result):
            self.lines.append(("returns", info.name, eng.value(result)))

    told = Session_()
    debugging = Debugging(told)
    assert run_main(debugging.watching(Evaluator)) == (0, b" 9 16")
    assert isinstance(debugging.evaluator, Evaluator) and not isinstance(debugging, Evaluator)
    assert [x for x in told.lines if isinstance(x, tuple) and x[1] == "sq"] == [("returns", "sq", 9), ("returns", "sq", 16)]
    assert len(told.lines) > 8  # statements, each body's [ among them


class Values(Observer):
    """Asks for expression values: records each one with its node's class name."""

    expressions = True

    def __init__(self):
        self.values, self.machine_calls = [], []

    def expression(self, node, value):
        self.values.append((type(node).__name__, value))

    def machine_call(self, values):
        self.machine_calls.append(list(values))


def test_expression_values_only_for_an_observer_that_asks():
    seen = Values()
    assert run_main(seen.watching(Evaluator)) == (0, b" 9 16")
    assert ("BinOp", 9) in seen.values and ("BinOp", 16) in seen.values  # n*n
    assert seen.machine_calls  # pn's machine call, with its arguments
    plain = Recorder().watching(Evaluator)
    session = Session(engine="reference")
    ev = plain(session.machine())
    assert "_visit" not in vars(ev)  # without expressions the class's table runs: a plain run is not slowed


def test_the_stepper_records_on_the_evaluator_its_dialect_makes():
    from tinyc.debug.stepper import Recording
    assert issubclass(Recording, Observer) and not issubclass(Recording, Evaluator) and Recording.expressions
