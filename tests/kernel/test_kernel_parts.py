"""The tiny-c kernel's parts without Jupyter: what a cell holds (tinyc.kernel.cells), the program and
its runs (tinyc.kernel.program), the console's output thread and input (tinyc.kernel.console)."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from tinyc.kernel import cells
from tinyc.kernel.console import KernelConsole, NoInput
from tinyc.kernel.program import CellError, LinkFailure, Program


@pytest.mark.parametrize("text", [
    "twice int n [ return n*2 ]",
    "int x, y(10)\nchar name(20)",
    "/* a comment\nmain [ pl \"hi\" ]",
    "f int a, b(0) char c\n[ return a ]",
    "noargs [ ]",
    "[ prose in a block ]\nf [ ]",
])
def test_definitions(text):
    assert cells.items(text) is not None


@pytest.mark.parametrize("text", [
    "main", "pn twice 3", "pn 2+", "x = 5", "int i; i = 0; while i < 3 [ pn i; i = i + 1 ]",
    "if 1 [ pn 1 ]", "while 0 [ ]", "pl \"a\"; pl \"b\"", "return 3",
])
def test_statements(text):
    assert cells.split_cell(text) is None


def test_definitions_then_a_statement_on_a_later_line():
    found, rest = cells.split_cell("twice int n [ return n*2 ]\nint x\npn twice 21\n")
    assert [d.names for d in found] == [("twice",), ("x",)] and rest == "pn twice 21\n"


def test_a_function_its_parameters_and_its_comment():
    found = cells.items("/* first line\n/* second line */\nadd int a,  b [ return a+b ]\n")
    assert found is not None
    (add,) = found
    assert add.kind == "func" and add.head == "int a, b" and add.comment == "first line\nsecond line"
    assert add.start == 0  # a replacement takes the comment with it


def test_gibson_cells_keep_include_lines_and_line_comments():
    text = '#include pps/library.tc\n// hello\nmain [ printf "a//b%c", 10 ] // end\n'
    found, rest = cells.split_cell(text, gibson=True)
    assert [d.names for d in found] == [("main",)] and rest == ""
    assert cells.split_cell('printf "x%d", 5', gibson=True) is None


def test_one_line():
    assert cells.one_line("while i < 3 [\n  pn i\n  i = i + 1\n]\n") == "while i < 3 [ pn i i = i + 1 ]"


def make_program(inputs: list[str] | None = None):
    out: list[str] = []
    errors: list[tuple[int, str]] = []

    def ask(prompt: str) -> str:
        if inputs is None:
            raise NoInput
        out.append(f"<{prompt}>")
        return inputs.pop(0)
    console = KernelConsole(out.append, ask)
    return Program(console, lambda code, report: errors.append((code, report))), out, errors


def test_a_redefinition_replaces_and_says_so():
    program, _, _ = make_program()
    assert program.add(b"/* one\nf [ return 1 ]\ng [ return 2 ]\n") == []
    assert program.add(b"f [ return 3 ]\n") == ["f: the earlier definition is replaced"]
    assert program.text == b"g [ return 2 ]\nf [ return 3 ]\n"


def test_a_cell_the_linker_refuses_is_taken_back():
    program, _, _ = make_program()
    program.add(b"f [ return 1 ]\n")
    with pytest.raises(LinkFailure) as e:
        program.add(b"g [ pn 1\n")
    assert e.value.code == 2 and program.text == b"f [ return 1 ]\n"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_an_interrupt_stops_the_run_and_keeps_the_program(engine):
    program, out, errors = make_program()
    program.add(b"spin [ while 1 [ ] ]\ntwice int n [ return n*2 ]\n")
    program.set_engine(engine)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    program.run(b"spin")
    timer.join()
    assert errors == [(99, "stopped")]
    program.run(b"pn twice 4")
    program.console.flush()
    assert out == [" 8"] and b"spin" in program.text


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_errors_are_the_same_on_both_engines(engine):
    program, _, errors = make_program()
    program.add(b"f int n [ return 10/n ]\n")
    program.set_engine(engine)
    program.run(b"pn f 0")
    assert errors and errors[0][0] == 30 and errors[0][1].startswith(" 1 --- err  30\nf int n [ return 10/n")


def test_input_is_asked_with_the_unfinished_line_as_prompt():
    program, out, errors = make_program(["6"])
    program.add(b'ask [ int n; pl "go"; ps "n? "; n = gn; pn n*7 ]\n')
    program.run(b"ask")
    program.console.flush()
    assert "".join(out) == "\n<gon? > 42" and not errors  # pl starts its line: "go" and "n? " share one


def test_queued_input_comes_first_and_is_shown():
    program, out, _ = make_program()
    program.add(b'ask [ int n; ps "n? "; n = gn; pn n*7 ]\n')
    program.console.queued.append(b"3")
    program.run(b"ask")
    program.console.flush()
    assert "".join(out) == "n? 3\n 21"


def test_no_input_stops_and_says_how_to_give_it():
    program, _, errors = make_program()
    program.add(b'ask [ int n; n = gn ]\n')
    program.run(b"ask")
    assert errors[0][0] == 99 and "%input" in errors[0][1]


def test_a_runs_output_is_sent_once_past_the_base_consoles_8k_buffer():
    sent: list[str] = []
    console = KernelConsole(sent.append, lambda prompt: "")
    for _ in range(3000):
        console.write(b"line\n")  # 15000 bytes: the base console would have sent 8 KiB of them
    assert sent == []
    console.flush()
    assert sent == ["line\n" * 3000]


def test_the_output_thread_sends_whole_lines_and_an_unfinished_one_alone():
    sent: list[str] = []
    console = KernelConsole(sent.append, lambda prompt: "")
    console.write(b"whole\npart")
    console.flush_lines()
    assert sent == ["whole\n"]
    console.flush_lines()
    assert sent == ["whole\n", "part"]


def test_a_program_too_big_is_refused():
    program, _, _ = make_program()
    with pytest.raises(CellError, match="does not fit"):
        program.add(b"int x\n" + b"/* filler\n" * 10000)


def test_gibson_include_lines_join_the_header():
    from tinyc.kernel.program import _with_header
    program = b"#include pps/library.tc\nmain [ pl \"a\" ]\n"
    cell = b"#include pps/pyGraphicsLib.tc\n#include pps/library.tc\npic [ show ]\n"
    assert _with_header(program, cell) == (b"#include pps/library.tc\n#include pps/pyGraphicsLib.tc\n"
                                           b"main [ pl \"a\" ]\npic [ show ]\n")


def test_the_kernel_starts_on_the_engine_tinyc_runs():
    from tinyc.cli.options import MACHINE_DEFAULTS
    assert make_program()[0].engine == MACHINE_DEFAULTS["engine"] == "fast"


def test_names_of_each_dialects_library_and_program():
    from tinyc.kernel import magics
    program, _, _ = make_program()
    program.add(b"twice int n [ return n*2 ]\n")
    names = program.names()
    assert {"twice", "pn", "ps", "gn"} <= set(names) and "printf" not in names
    magics.obey("%dialect gibson", program, lambda text: None)
    program.add(b"main [ printf \"x\" ]\n")
    names = program.names()
    assert {"main", "printf"} <= set(names) and "twice" not in names


def test_a_gibson_program_that_cannot_start_is_one_line_under_trace_and_debug():
    from tinyc.kernel import magics
    from tinyc.kernel.program import CellError
    program, _, _ = make_program([])
    magics.obey("%dialect gibson", program, lambda text: None)
    program.add(b"#include nosuch.tc\nmain [ printf \"x\" ]\n")
    assert program.trace("main").strip().endswith("nosuch.tc")
    with pytest.raises(CellError, match=r"^No such file: nosuch.tc$"):
        program.debug(b"main")


def test_step_shows_the_stepper_of_the_program_in_both_dialects():
    from tinyc.kernel import magics
    program, _, _ = make_program()
    program.add(b"fact int n [\n  if(n<2) return 1\n  return n*fact(n-1)\n]\n")
    said, pages = [], []
    magics.obey("%input 5", program, said.append)
    magics.obey("%step pn fact(gn)", program, said.append, pages.append)
    assert said[-1].endswith(", done\n") and "steps" in said[-1] and len(pages) == 1
    assert pages[0].startswith('<div class="tinyc-step"><iframe') and "TinycStepper" in pages[0]
    trace = program.step("pn fact(3)")
    assert trace.status == "done" and trace.data["output"] == " 6"
    assert max(len(trace.state(n)["frames"]) for n in range(len(trace.steps))) == 3  # fact(3), (2), (1)
    magics.obey("%dialect gibson", program, said.append)
    program.add(b'main [\n  printf("%d", 6*7)\n]\n')
    gibson = program.step("main")
    assert gibson.status == "done" and gibson.data["dialect"] == "gibson" and "42" in gibson.data["output"]
