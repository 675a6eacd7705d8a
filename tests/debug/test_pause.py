"""The one pause (issue 36): Ctrl-C in ``tinyc debug`` and the DAP ``pause`` stop a loop the fast engine runs
compiled (one that calls nothing, so no debug-evaluated statement comes), show where it stands with its
locals, and resume it; a second Ctrl-C before a pause took effect stops the program with ``stopped`` on a
line of its own.  Both dialects (Gibson's debugger runs its program on the reference evaluator)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from test_dap import Client

# the loop is on line 4 of each; it reads a line first, so that a test knows the program is running
PROGRAMS = {
    "pc": "int g\nmain [\n  int i; pl \"go\"; i = gn\n  while 1 [ i = i + 1; g = i ]\n]\n",
    "gibson": "#include library.tc\nmain [\n  int i; pl(\"go\"); i = gn()\n  while 1 [ i = i + 1 ]\n]\n",
}
LOOP_LINE = 4


def write(tmp_path: Path, dialect: str) -> Path:
    path = tmp_path / "loop.tc"
    path.write_text(PROGRAMS[dialect])
    return path


def spawn(tmp_path: Path, dialect: str):
    """``tinyc debug --engine fast`` of the loop on a pseudo-terminal, SIGINT at its default in the child."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    path = write(tmp_path, dialect)
    return pexpect.spawn(sys.executable, ["-P", "-m", "tinyc", "debug", "--dialect", dialect, "--engine", "fast",
                                          str(path)], cwd=str(tmp_path), env=env, timeout=60, encoding="utf-8",
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def quits(child) -> None:
    """At the debugger's prompt, ``q`` ends the session: the process exits (its status is checked after close)."""
    child.expect_exact("(tc-db) ")
    child.sendline("q")
    child.expect(pytest.importorskip("pexpect").EOF)


@pytest.mark.parametrize("dialect", ["pc", "gibson"])
def test_ctrl_c_pauses_a_compiled_loop_and_c_resumes_it(tmp_path, dialect) -> None:
    child = spawn(tmp_path, dialect)
    try:
        child.expect_exact("(tc-db) ")
        child.sendline("r")
        child.expect_exact("go")
        child.sendline("1")
        values = []
        for _ in range(2):
            time.sleep(0.5)
            child.sendintr()
            child.expect_exact("paused")
            child.expect(r"line (\d+) cursor\(pr\[\d+\]\)->")
            assert int(child.match.group(1)) == LOOP_LINE
            child.expect_exact("(tc-db) ")
            child.sendline("p i")
            child.expect(r"i:  (\d+)\r?\n")
            values.append(int(child.match.group(1)))
            child.expect_exact("(tc-db) ")
            child.sendline("bt")
            child.expect(r"\*#0  main\(\) at line (\d+)")
            assert int(child.match.group(1)) == LOOP_LINE
            child.expect_exact("(tc-db) ")
            child.sendline("c")
        assert 1 < values[0] < values[1]  # it ran on between the two pauses
        time.sleep(0.3)
        child.sendintr()
        child.expect_exact("paused")
        quits(child)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.parametrize("dialect", ["pc", "gibson"])
def test_a_second_ctrl_c_before_the_pause_stops_the_program(tmp_path, dialect) -> None:
    child = spawn(tmp_path, dialect)
    try:
        child.expect_exact("(tc-db) ")
        child.sendline("r")
        child.expect_exact("go")  # it waits for its line: no statement comes to pause at
        time.sleep(0.3)
        child.sendintr()
        time.sleep(0.3)
        child.sendintr()
        child.expect(r"\r?\nstopped\r?\n")  # on a line of its own, the same word as `tinyc run`'s
        quits(child)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.parametrize("dialect", ["pc", "gibson"])
def test_dap_pause_stops_a_compiled_loop_with_its_frame_and_continue_resumes_it(tmp_path, dialect) -> None:
    path = write(tmp_path, dialect)
    c = Client("--engine", "fast", "--dialect", dialect, cwd=tmp_path)
    c.request("initialize")
    assert c.request("launch", program=str(path), input="1\n")["success"]
    c.event("initialized")
    c.request("configurationDone")
    values = []
    for _ in range(2):
        time.sleep(0.5)
        assert c.request("pause", threadId=1)["success"]
        assert c.event("stopped")["body"]["reason"] == "pause"
        frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
        assert [(f["name"], f["line"]) for f in frames] == [("main", LOOP_LINE), ("(entry)", 0)]
        assert frames[0]["source"]["path"] == str(path.resolve())
        local = c.request("scopes", frameId=frames[0]["id"])["body"]["scopes"][0]["variablesReference"]
        shown = {v["name"]: v for v in c.request("variables", variablesReference=local)["body"]["variables"]}
        assert "memoryReference" in shown["i"]  # a frame in the value space, as the debug evaluator's
        # an expression over the compiled call's locals, in its frame
        doubled = int(c.request("evaluate", expression="i*2", frameId=frames[0]["id"])["body"]["result"])
        assert doubled == 2 * int(shown["i"]["value"])
        values.append(int(shown["i"]["value"]))
        assert c.request("continue", threadId=1)["success"]
    assert 1 < values[0] < values[1]
    time.sleep(0.3)
    assert c.request("terminate")["success"]
    c.event("terminated")
    assert c.request("disconnect")["success"]
    code, err = c.close()
    assert code == 0 and b"Traceback" not in err


def test_dap_pause_in_a_compiled_callee_shows_its_frame_in_the_value_space(tmp_path) -> None:
    # main and f both run compiled (f has no CallInfo of its own); f's frame is laid out where the reference
    # evaluator lays it out, its array read from the value space
    path = tmp_path / "callee.tc"
    path.write_text("int g\nf [\n  int j, a(3)\n  while 1 [ j = j + 1; a(1) = j ]\n]\nmain [ int i; i = gn; f ]\n")
    c = Client("--engine", "fast", cwd=tmp_path)
    c.request("initialize")
    c.request("launch", program=str(path), input="1\n")
    c.event("initialized")
    c.request("configurationDone")
    time.sleep(0.5)
    assert c.request("pause", threadId=1)["success"]
    assert c.event("stopped")["body"]["reason"] == "pause"
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert [(f["name"], f["line"]) for f in frames] == [("f", 4), ("main", 6), ("(entry)", 0)]
    assert c.request("evaluate", expression="a(1) - j", frameId=frames[0]["id"])["body"]["result"] == "0"
    local = c.request("scopes", frameId=frames[0]["id"])["body"]["scopes"][0]["variablesReference"]
    shown = {v["name"]: v for v in c.request("variables", variablesReference=local)["body"]["variables"]}
    assert int(shown["a"]["memoryReference"]) == int(shown["j"]["memoryReference"]) + 4  # as the reference lays it
    assert c.request("terminate")["success"]
    assert c.event("exited")["body"]["exitCode"] == 130
    assert c.request("disconnect")["success"]
    code, err = c.close()
    assert code == 0 and b"Traceback" not in err
