"""The stepper's recorder (issue 37, tinyc/debug/stepper.py, docs/stepper.md): recorded runs in both dialects,
the memory diffs replayed forward and backward against snapshots taken while recording, the step limit,
an error mid-run, a syntax error, Ctrl-C, and ``tinyc step -o`` writing the page."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc.debug import stepper
from tinyc.driver.session import Session

ROOT = Path(__file__).resolve().parents[2]
FACT = str(ROOT / "examples" / "fact.tc")
FIB = str(ROOT / "examples" / "gibson" / "fib.tc")


def depth(trace, n: int) -> int:
    d, sid = 0, trace.steps[n]["t"]
    while sid >= 0:
        d, sid = d + 1, trace.data["stacks"][sid][0]
    return d


def undo_to(trace, n: int) -> bytearray:
    """The memory at step ``n`` reached backward: from the last step, each later step's old bytes put back."""
    mem = trace.memory_at(len(trace.steps) - 1)
    for s in reversed(trace.steps[n + 1:]):
        for address, _new, old in reversed(s.get("m", [])):
            raw = bytes.fromhex(old)
            mem[address:address + len(raw)] = raw
    return mem


@pytest.fixture(scope="module")
def fact():
    return Session().record(FACT)


def test_fact_is_recorded_in_statements_and_expressions(fact):
    d = fact.data
    assert fact.status == "done" and d["report"] == "" and d["error"] is None
    assert d["output"] == subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", FACT], capture_output=True,
                                         text=True).stdout
    kinds = {s["k"] for s in fact.steps}
    assert kinds == {"s", "e", "c"}
    first = fact.state(0)
    assert (first["kind"], first["line"], first["expression"]) == ("s", 13, "int n")
    assert first["frames"] == [{"function": "main", "line": 13, "locals": {}}]
    calls = [s for s in fact.steps if s["k"] == "c"]
    assert calls[0]["a"] == [1] and fact.state(fact.steps.index(calls[0]))["expression"] == "fact(n)"
    assert json.loads(fact.json())["steps"] == fact.steps  # JSON through and through


def test_the_middle_of_the_recursion_has_a_frame_per_call(fact):
    deepest = max(range(len(fact.steps)), key=lambda n: depth(fact, n))
    state = fact.state(deepest)
    names = [f["function"] for f in state["frames"]]
    assert names == ["main"] + ["fact"] * 12  # fact(12) down to fact(1)
    assert [f["locals"]["n"]["value"] for f in state["frames"][1:]] == list(range(12, 0, -1))
    assert [f["line"] for f in state["frames"]] == [18] + [9] * 11 + [state["line"]]
    addresses = [f["locals"]["n"]["address"] for f in state["frames"]]
    assert addresses == sorted(addresses) and len(set(addresses)) == 13  # each frame above its caller's


@pytest.mark.parametrize("program,dialect", [(FACT, "pc"), (FIB, "gibson")])
def test_memory_forward_and_backward_is_the_memory_recorded(program, dialect):
    probe = Session(dialect).record(program, limit=50)  # how many steps
    last = 49
    wanted = {0, 1, 7, 23, last}
    trace = Session(dialect).record(program, limit=50, snapshots=wanted)
    assert trace.status == "limit" and len(trace.steps) == 50 and len(probe.steps) == 50
    assert set(trace.snapshots) == wanted
    for n in sorted(wanted):
        assert trace.memory_at(n) == trace.snapshots[n], n
        assert undo_to(trace, n) == trace.snapshots[n], n
    assert any("m" in s for s in trace.steps)  # memory did change


def test_a_whole_run_forward_and_backward(fact):
    n = len(fact.steps) - 1
    trace = Session().record(FACT, snapshots={0, n // 2, n})
    for k in (0, n // 2, n):
        assert trace.memory_at(k) == trace.snapshots[k] == undo_to(trace, k)
        assert trace.state(k) == fact.state(k)


def test_the_gibson_dialect_steps_its_late_reads():
    trace = Session("gibson").record(FIB)
    assert trace.status == "done"
    assert trace.data["output"].startswith("return n:     0 1 0 1 1 2 3 5 8 13")
    deepest = max(range(len(trace.steps)), key=lambda n: depth(trace, n))
    names = [f["function"] for f in trace.state(deepest)["frames"]]
    assert names[0] == "main" and set(names[1:]) <= {"fib", "fib2"} and len(names) > 3
    values = [s.get("v") for s in trace.steps if s["k"] == "e"]
    assert all(isinstance(v, int) for v in values)  # references read as numbers


def test_a_program_that_never_ends_stops_at_the_limit():
    trace = Session().record(b"main [\n  int i\n  while(1) i=i+1\n]\n", limit=1000)
    assert trace.status == "limit" and len(trace.steps) == 1000
    assert "step limit" in trace.data["message"] and "1000" in trace.data["message"]
    assert trace.state(999)["frames"][0]["locals"]["i"]["value"] > 100


def test_an_error_mid_run_is_reported_at_its_step():
    program = b"div int a, b [\n  return a/b\n]\nmain [\n  pl \"before\"\n  pn div(6, 0)\n]\n"
    trace = Session().record(program)
    d = trace.data
    assert trace.status == "error" and "err 30" in d["report"].replace("err  30", "err 30").replace("  ", " ")
    assert d["error"]["step"] == len(trace.steps) - 1 and d["error"]["line"] == 2
    assert trace.state(d["error"]["step"])["frames"][-1]["function"] == "div"
    assert "before" in d["output"]


PC_SYNTAX = b"main [\n  pl \"a\"\n  pn (1+\n]\n"            # line 3: error 9
GIBSON_SYNTAX = b"#include pps/library.tc\nmain [\n  int x\n  pl \"a\"\n  x = (3 +\n  pn x\n]\n"  # line 6: RPARERR


@pytest.mark.parametrize("dialect, program, line, code, said", [("pc", PC_SYNTAX, 3, 9, "err  9"),
                                                                ("gibson", GIBSON_SYNTAX, 6, 5, "RPARERR")])
def test_a_syntax_error_gives_its_report_and_no_steps(dialect, program, line, code, said, tmp_path):
    # a run reaches the bad statement after pl "a" (section 14 item 16); the stepper refuses the text up front
    path = tmp_path / "bad.tc"
    path.write_bytes(program)
    trace = Session(dialect).record(str(path))
    d = trace.data
    assert trace.status == "syntax" and trace.steps == [] and d["output"] == ""
    assert said in d["report"] and "pn" in d["report"]  # the report, as a run that reached it would print it
    assert d["error"]["code"] == code and d["error"]["line"] == line and d["error"]["step"] is None
    assert "syntax error" in d["message"]


def test_tinyc_step_refuses_a_syntax_error(tmp_path):
    for name, program in (("bad.tc", PC_SYNTAX), ("badg.tc", GIBSON_SYNTAX)):
        path, out = tmp_path / name, tmp_path / (name + ".html")
        path.write_bytes(program)
        done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "step", str(path), "-o", str(out)],
                              capture_output=True, text=True)
        assert done.returncode == 1 and "syntax error" in done.stderr and "nothing recorded" in done.stderr
        assert "pn" in done.stderr  # the report shows the bad line
        page = out.read_text()  # the page shows the report instead of a stepper (tests/web/test_stepper_page.py)
        assert '"status":"syntax"' in page and '"steps":[]' in page


def test_what_is_not_a_syntax_error_is_stepped():
    # an undeclared name is found when it is reached (error 26 at its step), as a run finds it
    trace = Session().record(b"main [\n  pl \"a\"\n  nosuch(1)\n]\n")
    assert trace.status == "error" and trace.steps and trace.data["error"]["line"] == 3
    # the Gibson dialect's bracket check (its link) is a syntax error too
    gibson = Session("gibson").record(b"main() {\n  int x;\n}\n")
    assert gibson.status == "syntax" and gibson.steps == [] and "LBRCERR" in gibson.data["report"]


def test_statement_steps_only():
    trace = Session().record(FACT, small=False)
    assert {s["k"] for s in trace.steps} == {"s"}
    assert trace.status == "done"


def test_ctrl_c_keeps_what_was_recorded(monkeypatch):
    step = stepper.Recorder.step

    def interrupted(self, *args, **kw):
        if len(self.steps) == 300:
            raise KeyboardInterrupt
        return step(self, *args, **kw)
    monkeypatch.setattr(stepper.Recorder, "step", interrupted)
    trace = Session().record(FACT)
    assert trace.status == "stopped" and len(trace.steps) == 300 and "Ctrl-C" in trace.data["message"]


def test_input_comes_from_stdin():
    program = b'main [\n  int n\n  ps "number? "\n  n = gn\n  pn n * 2\n]\n'
    trace = Session().record(program, stdin=b"21\n")
    assert trace.status == "done" and trace.data["output"].endswith("42")
    short = Session().record(program)
    assert short.status == "stopped" and "input" in short.data["message"]


def test_tinyc_step_writes_a_self_contained_page(tmp_path):
    out = tmp_path / "run.html"
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "step", FACT, "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "TinycStepper" in text and '"schema":1' in text
    assert not re.search(r"<(script|link|img)[^>]*(src|href)=", text)  # nothing loaded from elsewhere
    assert set(re.findall(r"https?://[^\"' ]*", text)) <= {"http://www.w3.org/2000/svg"}  # a name, not fetched
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "step", FACT, "--json", "--limit", "10",
                           "-o", str(tmp_path / "t.json")], capture_output=True, text=True)
    assert done.returncode == 0 and "step limit" in done.stderr
    assert len(json.loads((tmp_path / "t.json").read_text())["steps"]) == 10


def test_a_trace_too_large_for_a_page_is_cut(fact):
    from tinyc.debug.stepper_page import cut, page
    short = cut(fact, 100)
    assert len(short.steps) == 100 and short.status == "cut" and "first 100" in short.data["message"]
    assert "first 100" in page(fact, 100)


def test_bc_memory_at_the_end_of_its_start_is_the_memory_recorded():
    trace = Session().record("bc.tc", "bullcow", b"1234\n", limit=30_000, snapshots={10_000, 29_999})
    assert trace.status == "limit"
    for n in (10_000, 29_999):
        assert trace.memory_at(n) == trace.snapshots[n] == undo_to(trace, n)
    names = {v["name"] for v in trace.data["globals"][-1]}
    assert {"c", "m", "hi", "lo", "u"} <= names


def test_an_array_name_assigned_moves_its_pointer():
    program = b"int a(3), b(3)\nmain [\n  b = a\n  b(1) = 5\n  pn a(1)\n]\n"
    trace = Session().record(program)
    assert trace.status == "done" and trace.data["output"].strip() == "5"
    first, last = trace.data["globals"][0], trace.data["globals"][-1]
    where = {v["name"]: v["address"] for v in last}
    assert where["a"] == where["b"] and {v["name"]: v["address"] for v in first}["b"] != where["a"]
    assert sum("g" in s for s in trace.steps) == 2  # the globals at the start, and once b moved


def test_a_machine_call_step_has_its_arguments():
    trace = Session().record(b"main [\n  MC 65, 1\n  MC 66, 1\n]\n")
    calls = [s for n, s in enumerate(trace.steps) if s["k"] == "e" and trace.state(n)["expression"].startswith("MC")]
    assert [s["a"] for s in calls] == [[65, 1], [66, 1]] and trace.data["output"] == "AB"


def test_a_gibson_error_mid_run_is_reported_at_its_step(tmp_path):
    program = tmp_path / "div.tc"
    program.write_bytes(b"#include pps/library.tc\ndiv int a; int b [\n  return a/b\n]\nmain [\n"
                        b"  printf(\"before\")\n  printf(\"%d\", div(6, 0))\n]\n")
    trace = Session("gibson").record(str(program))
    d = trace.data
    assert trace.status == "error" and d["report"] and "before" in d["output"]
    assert d["error"]["step"] == len(trace.steps) - 1
    assert trace.state(d["error"]["step"])["frames"][-1]["function"] == "div"
