"""The debugger on the fast engine (issue 27 item 5): functions with nothing to watch run compiled.

Sessions read the same on both engines; a program's output under the debugger is the output of
``tinyc run``; with a breakpoint that is never reached nothing runs on the debug evaluator; an error in
compiled code stops with the call's locals; Ctrl-C (through a pseudo-terminal) pauses a running program
in the debugger, and breakpoints set at that stop take effect in the compiled code that goes on.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tinyc.driver.session import Session
from tinyc.machine.console import Console
from tinyc.debug.debugger import Debugger

HERE = Path(__file__).resolve().parents[1] / "debugger"
ROOT = Path(__file__).resolve().parents[2]


def default_sigint() -> None:
    """In the spawned child: SIGINT back to its default even where the tests run with it ignored (a
    background job of a script), so that Ctrl-C on the pseudo-terminal reaches the debugger."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def debug_session(commands: str, engine: str, files: tuple[str, ...] = ("nest.tc",)) -> tuple[str, Debugger]:
    """The transcript of a session over ``commands`` on ``engine``, and its debugger."""
    out = io.BytesIO()
    console = Console(io.BytesIO(commands.encode()), out)
    session = Session("pc", engine, console=console)
    cwd = os.getcwd()
    os.chdir(HERE)
    try:
        runner = session.debugger(list(files))
        d = Debugger(console, runner)
        d.loop()
    finally:
        os.chdir(cwd)
    return out.getvalue().decode("latin-1"), d


SCRIPTS = {
    "error": "b never\nr\nbt\np k\np total\nq\n",
    "finish": "b leaf\nr\nbt\nfinish\nbt\nn\nn\nn\nbt\nc\ndelete 1\nc\nq\n",
    "step": "b mid if x==3\nr\nbt\ns\ns\ns\ns\ns\ns\ns\nbt\nup\np k\nq\n",
    "watch": "b 12\nr\nwatch total\nc\nc\nbt\ndelete 1\nc\nc\nc\nq\n",
    "line": "b 4\nr\nbt\ndisable 1\nn\nn\nn\nb leaf\nc\nbt\ninfo frames\nq\n",
    "rerun": "b top\nr\nc\nrun\nbt\ndelete 1\nc\nbt\np k\nr\nq\n",
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_sessions_read_the_same_on_both_engines(name: str) -> None:
    fast, d = debug_session(SCRIPTS[name], "fast")
    reference, _ = debug_session(SCRIPTS[name], "reference")
    assert d.fast is not None  # the run was on the fast engine
    assert fast == reference
    assert "Traceback" not in fast


def test_an_unreached_breakpoint_leaves_every_call_compiled() -> None:
    text, d = debug_session("b never\nr\nq\n", "fast")
    assert d.fast is not None and d.hot == {"never"}
    assert d.fast.fallbacks == 0
    assert {"main", "top", "mid", "leaf"} <= set(d.fast.made)


def test_a_breakpoint_makes_its_callers_debug_evaluated() -> None:
    text, d = debug_session("b leaf\nr\nbt\nq\n", "fast")
    assert d.hot == {"leaf", "mid", "top", "main"}
    assert "*#0  leaf(x=0) at line 3\n #1  mid(x=0) at line 8\n #2  top(k=0) at line 12\n #3  main() at line 21\n" in text


def test_an_error_in_compiled_code_stops_with_the_locals() -> None:
    text, _ = debug_session(SCRIPTS["error"], "fast")
    assert "--- err  30" in text and "*#0  main() at line 25" in text and "k:  5" in text


PROGRAMS = [("examples/fact.tc", ""), ("examples/sieve.tc", ""), ("examples/strings.tc", ""),
            ("examples/mandel.tc", ""), ("programs/bca.tc", "3141\n20\n")]


@pytest.mark.parametrize("program,typed", PROGRAMS)
def test_a_programs_output_under_the_debugger_is_that_of_tinyc_run(program: str, typed: str) -> None:
    entry = ["--entry", "bca"] if "bca" in program else []
    run = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", program, *entry], input=typed.encode(),
                         capture_output=True, cwd=ROOT, timeout=120)
    debug = subprocess.run([sys.executable, "-P", "-m", "tinyc", "debug", program, *entry],
                           input=f"b nothere9\nr\n{typed}q\n".encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0 and debug.returncode == 0, debug.stderr
    shown = debug.stdout.decode("latin-1").replace("(tc-db) ", "").replace("nothere9 is not a function: no breakpoint set\n", "")
    assert shown.rstrip("\n") == run.stdout.decode("latin-1").rstrip("\n")


def test_ctrl_c_pauses_the_running_program_in_the_debugger() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    child = pexpect.spawn(sys.executable, ["-P", "-m", "tinyc", "debug", "loop.tc"], cwd=str(HERE), env=env,
                          timeout=60, encoding="latin-1", preexec_fn=default_sigint)
    try:
        child.expect_exact("(tc-db) ")
        child.sendline("r")
        time.sleep(0.5)
        child.sendintr()
        child.expect_exact("paused")
        child.expect_exact("(tc-db) ")
        child.sendline("bt")  # tick was called from main, which runs compiled
        child.expect(r"\*#0  tick\(\) at line \d+\r?\n #1  main\(\) compiled, called at line 0")
        child.sendline("n")
        child.expect_exact("(tc-db) ")
        child.sendline("n")  # out of tick into the compiled main: the next call stops
        child.expect_exact("tick returns 0 to main, which runs compiled: stepping stops at its next call")
        child.expect_exact("(tc-db) ")
        child.sendline("b tock")  # set at the stop: the compiled main's next call of tock stops
        child.expect_exact("(tc-db) ")
        child.sendline("c")
        child.expect_exact("break at line 6 cursor pr[")  # its [: the compiled call site is not known
        child.expect_exact("(tc-db) ")
        child.sendline("p n % 1000")
        child.expect_exact("n % 1000:  0")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_an_error_deep_in_compiled_calls_stops_in_the_failing_call() -> None:
    text, d = debug_session("r\nbt\np n\np k\nq\n", "fast", ("bad.tc",))
    reference, _ = debug_session("r\nbt\np n\np k\nq\n", "reference", ("bad.tc",))
    assert d.fast is not None and d.fast.fallbacks == 0  # half and main ran compiled
    assert "*#0  half(n=2) at line 4\n #1  main() at line 10 (compiled)\n(tc-db) n:  2\n(tc-db) k:  0\n" in text
    assert text == reference.replace(" #1  main() at line 10\n", " #1  main() at line 10 (compiled)\n")


PROMPT = r"\(tc-db\)"  # prompt_toolkit draws it with escape sequences around the blank


def test_the_terminal_prompt_completes_and_keeps_a_history(tmp_path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "PROMPT_TOOLKIT_NO_CPR": "1",
           "XDG_STATE_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    env.pop("PYTHONPATH", None)
    child = pexpect.spawn(sys.executable, ["-P", "-m", "tinyc", "debug", str(HERE / "fact.tc")], cwd=str(tmp_path),
                          env=env, timeout=60, dimensions=(24, 80), preexec_fn=default_sigint)
    try:
        child.expect(PROMPT)
        # a command, then a function's name, completed: Tab picks the first completion offered
        for typed, shown in (("tbre", "tbreak"), (" fa", "fact")):
            child.send(typed)
            child.expect_exact(shown)  # offered while typing
            child.send("\t")
            child.expect_exact(shown)  # inserted
        child.send("\r")
        child.expect(PROMPT)
        child.send("r\r")
        child.expect_exact("break at line")
        child.expect(PROMPT)
        child.send("p n*100\r")
        child.expect_exact("n*100:  100")
        child.expect(PROMPT)
        child.send("\x1b[A\r")  # Up: the last command again
        child.expect_exact("n*100:  100")
        child.expect(PROMPT)
        child.send("i\r")  # the temporary breakpoint is gone: it was set (on fact) and hit
        child.expect_exact("no breakpoints set")
        child.expect(PROMPT)  # a Ctrl-D typed before the next prompt reads can be lost between two prompts
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert "p n*100" in (tmp_path / "tinyc" / "debug-history").read_text()
