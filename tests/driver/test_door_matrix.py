"""The door matrix (issue 36 part 3): every way into tinyc, in both dialects, through the same cases.

Doors: ``tinyc run`` (a process), the shell (tiny-c/PC's ``tc>``, Gibson's small shell), ``tinyc trace``,
``tinyc debug``, the DAP server (``tinyc dap``), the Jupyter kernel (through jupyter_client), the ``%%tinyc`` magics and the web playground's
glue.  Cases: a program that prints UTF-8, one that reads input, one with a tiny-c error, one interrupted in a
loop (on each engine), one that tries to read a file outside the sandbox, and ones past the depth and the
memory limits.  Each door is a function giving ``Seen(text, status)``: all it showed (output and messages,
line ends made LF) and its status (the exit status, or the door's equivalent: None where it has none).
A case's expected bytes are what ``tinyc run`` itself shows (its report: stderr in tiny-c/PC, the end of the
output in Gibson's), so every door must show the same report.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
STOPPED = "stopped"


@dataclass(frozen=True)
class Case:
    name: str
    pc: str       # the program in tiny-c/PC
    gibson: str   # the same in Gibson's dialect (its header line first)
    stdin: str = ""
    shows: str = ""        # text every door shows
    report: bool = False   # a tiny-c report every door shows, the bytes `tinyc run` shows
    interrupt: bool = False


G = "#include library.tc\n"
CASES = [
    Case("utf8", 'main [ pl "h\u00e9llo \u2713" ]\n', G + 'main [ pl "h\u00e9llo \u2713" ]\n',
         shows="h\u00e9llo \u2713"),
    Case("input", "main [ int n; n = gn; pn n*2 ]\n", G + "main [ int n; n = gn(); pn(n*2) ]\n", stdin="21\n",
         shows="42"),
    Case("error", 'main [ int x; pl "a"; x = 1/0 ]\n', G + 'main [ int x; pl "a"; x = 1/0 ]\n', report=True),
    # the loop reads a line first: the read flushes "go", and the command line's test waits for it
    Case("interrupt", 'main [ int i; pl "go"; i = gn; while 1 [ i = i + 1 ] ]\n',
         G + 'main [ int i; pl "go"; i = gn(); while 1 [ i = i + 1 ] ]\n', stdin="1\n", interrupt=True),
    Case("sandbox", 'char b(100)\nmain [ pn readfile("/etc/passwd",b,b+99,1) ]\n',
         G + 'main [ int u; u = fopen("/etc/passwd", "r") ]\n', shows="<refusal>"),
    Case("depth", "f [ f ]\nmain [ f ]\n", G + "f [ f() ]\nmain [ f() ]\n", report=True),
    Case("memory", 'int a(2000000)\nmain [ pl "x" ]\n', G + 'int a(2000000)\nmain [ pl "x" ]\n', report=True),
]
REFUSAL = {"pc": "File not found -1", "gibson": "fopen err  -1"}


@dataclass
class Seen:
    text: str
    status: int | None


def program(case: Case, dialect: str, tmp: Path) -> Path:
    path = tmp / "p.tc"
    path.write_bytes(getattr(case, dialect).encode())
    return path


def lf(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return text.replace("\r\n", "\n")


class Interrupter:
    """Asks the process's interrupt policy to stop the run once it is in progress (the policy interrupts only a
    run: :attr:`~tinyc.driver.outcome.Interrupt.main_thread_run`), once; later runs (the shell's next
    statement) go on."""

    def __init__(self, active: bool, ready=lambda: True):
        self.active, self.ready, self.done = active, ready, threading.Event()

    def __enter__(self):
        if self.active:
            from tinyc.driver.outcome import INTERRUPT
            threading.Thread(target=self._ask, args=(INTERRUPT,), daemon=True).start()
        return self

    def _ask(self, policy) -> None:
        deadline = time.monotonic() + 30
        while not self.done.wait(0.3):
            if policy.main_thread_run and self.ready():
                policy.request()
                return
            if time.monotonic() > deadline:  # a door that never runs under the policy: Ctrl-C, not a hang
                import _thread
                _thread.interrupt_main()
                return

    def __exit__(self, *exc):
        self.done.set()


def tinyc_argv(case: Case, dialect: str, engine: str, path: Path, command: str = "run") -> list[str]:
    quiet = ["-q"] if dialect == "gibson" and command != "trace" else []
    engine_opt = ["--engine", engine] if command != "trace" else []
    return [command, "--dialect", dialect, *engine_opt, *quiet, str(path)]


# ---- the doors

def door_run(case: Case, dialect: str, engine: str, tmp: Path) -> Seen:
    """``tinyc run`` in its own process; the interrupt is SIGINT once the loop has begun."""
    argv = [sys.executable, "-P", "-m", "tinyc", *tinyc_argv(case, dialect, engine, program(case, dialect, tmp))]
    if not case.interrupt:
        done = subprocess.run(argv, input=case.stdin.encode(), capture_output=True, timeout=120, cwd=tmp)
        return Seen(lf(done.stdout) + lf(done.stderr), done.returncode)
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp)
    assert p.stdout is not None and p.stdin is not None
    first = p.stdout.readline()  # "go", flushed by the read that follows it
    p.stdin.write(case.stdin.encode())
    p.stdin.flush()
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return Seen(lf(first + out) + lf(err), p.returncode)


def web_glue():
    """web/glue.py, loaded from its file (it is not part of the package)."""
    import importlib.util
    module = sys.modules.get("tinyc_web_glue")
    if module is None:
        spec = importlib.util.spec_from_file_location("tinyc_web_glue", ROOT / "web" / "glue.py")
        assert spec is not None and spec.loader is not None
        module = sys.modules["tinyc_web_glue"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


def in_process(argv: list[str], stdin: str) -> Seen:
    """The command line's :func:`tinyc.cli.main.main` in this process (the glue's captured streams)."""
    out, err, status, _ = web_glue().call_tinyc(argv, stdin.encode())
    return Seen(lf(out) + lf(err), status)


def door_trace(case: Case, dialect: str, engine: str, tmp: Path) -> Seen:
    """``tinyc trace`` (the reference engine's tracer), in this process."""
    with Interrupter(case.interrupt):
        return in_process(tinyc_argv(case, dialect, engine, program(case, dialect, tmp), "trace"), case.stdin)


def door_debug(case: Case, dialect: str, engine: str, tmp: Path) -> Seen:
    """``tinyc debug``: ``r`` runs the program, its input lines among the commands, ``q`` leaves.  Its status
    is the session's (0 after ``q``), not the program's: None.  The interrupt (the process's policy, as the
    kernel's and the web page's) pauses the program in the debugger where the loop stands, and ``q`` ends it:
    its report is ``paused`` and the loop's line (a second Ctrl-C is ``stopped``: tests/debug/test_pause.py)."""
    start = time.monotonic()  # its output is not seen before the end: a second for the loop to begin
    with Interrupter(case.interrupt, lambda: time.monotonic() > start + 1):
        seen = in_process(tinyc_argv(case, dialect, engine, program(case, dialect, tmp), "debug"),
                          "r\n" + case.stdin + "q\n")
    assert seen.status == 0, seen
    if case.interrupt:
        assert re.search(r"go\n+paused\nline \d+ cursor\(pr\[\d+\]\)->", seen.text), seen.text  # in the loop
    return Seen(seen.text, None)


def door_web(case: Case, dialect: str, engine: str, tmp: Path) -> Seen:
    """The playground's ``run`` (web/glue.py), whose page shows stdout, stderr and the status."""
    glue = web_glue()
    os.chdir(tmp)
    with Interrupter(case.interrupt):
        got = glue.run(getattr(case, dialect), dialect, stdin=case.stdin, engine=engine)
    return Seen(lf(got["stdout"]) + lf(got["stderr"]), got["status"])


def door_shell(case: Case, dialect: str, engine: str, tmp: Path) -> Seen:
    """The dialect's shell on a pipe, in this process: the program read in, run, then one more statement
    (the shell goes on after an interrupt; its status is None)."""
    from tinyc import Session
    from tinyc.machine.console import Console
    from tinyc.machine.sandbox import FileSandbox
    out = io.BytesIO()
    path = program(case, dialect, tmp)
    os.chdir(tmp)
    if dialect == "pc":
        from tinyc.shell.shell import Shell
        commands = f".r {path}\n.main\n{case.stdin}.pn 6*7\n"
        session = Session("pc", engine, console=Console(io.BytesIO(commands.encode()), out))
        with Interrupter(case.interrupt, lambda: b"go" in out.getvalue()):  # its input read: the loop is next
            Shell(*session.boot()).loop()
    else:
        from tinyc.dialects.gibson.shell import GibsonShell
        commands = f".r p.tc\n.main()\n{case.stdin}.pn(6*7)\n"
        session = Session("gibson", engine, console=Console(io.BytesIO(commands.encode()), out), quiet=True,
                          files=FileSandbox(program_dirs=[tmp]))
        with Interrupter(case.interrupt, lambda: b"go" in out.getvalue()):
            GibsonShell(session).loop()
    text = lf(out.getvalue())
    assert "42" in text.split(STOPPED)[-1] if case.interrupt else True, f"the shell goes on after stopped: {text!r}"
    return Seen(text, None)


def door_magics(case: Case, dialect: str, engine: str, tmp: Path, ip=None, capsys=None) -> Seen:
    """``%%tinyc --dialect D --engine E --input STDIN`` in IPython; its status is None."""
    os.chdir(tmp)
    line = f"--dialect {dialect} --engine {engine} --input '{case.stdin.encode('unicode_escape').decode()}'"
    if dialect == "gibson":
        line += " -q"
    capsys.readouterr()
    with Interrupter(case.interrupt):
        ip.run_cell_magic("tinyc", line, getattr(case, dialect))
    got = capsys.readouterr()
    return Seen(lf(got.out) + lf(got.err), None)


def door_kernel(case: Case, dialect: str, engine: str, tmp: Path, kernel=None) -> Seen:
    """The Jupyter kernel: the program as a definitions cell, then ``main`` as a statement cell; input by
    input requests; the interrupt is the kernel manager's.  Its status: 0, or 1 for an error reply."""
    from kernel_client import execute, shell_reply
    km, kc, _ = kernel
    km.restart_kernel(now=True)  # an empty program: the kernel keeps definitions from cell to cell
    kc.wait_for_ready(timeout=120)
    assert execute(kc, f"%dialect {dialect}\n%engine {engine}").status == "ok"
    source = getattr(case, dialect)
    if dialect == "gibson":
        source = source.replace(G, "")  # the kernel's Gibson buffer starts with its #include line
    defined = execute(kc, source)
    if defined.status != "ok":  # the linker refused the cell (the memory case in the PC dialect)
        return Seen("\n".join(defined.error or []) + "\n", 1)
    statement = "main()" if dialect == "gibson" else "main"
    if not case.interrupt:
        run = execute(kc, statement, inputs=[case.stdin.rstrip("\n")] if case.stdin else None)
        text = lf(run.stdout) + "\n".join(run.error or []) + ("\n" if run.error else "")
        return Seen(text, 0 if run.status == "ok" else 1)
    msg_id = kc.execute(statement, allow_stdin=True, stop_on_error=False)
    kc.get_stdin_msg(timeout=60)
    kc.input("1")
    time.sleep(1)
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id)
    return Seen("\n".join(reply["content"].get("traceback", [])) + "\n", 1)


def dap_client(*options: str, cwd: Path):
    """tests/debug/test_dap.py's client of a ``tinyc dap`` process."""
    sys.path.insert(0, str(ROOT / "tests" / "debug"))
    from test_dap import Client
    return Client(*options, cwd=cwd)


def door_dap(case: Case, dialect: str, engine: str, tmp: Path) -> Seen:
    """``tinyc dap`` (a process) driven by a client: ``launch`` with the case's input as its ``input``,
    ``configurationDone`` runs it, a stop at an error is continued; all the ``output`` events, in order, and
    the ``exited`` event's code.  The interrupt is the adapter's ``pause`` once the loop runs (it must stop
    in ``main``, with a line), then ``terminate``."""
    path = program(case, dialect, tmp)
    c = dap_client("--engine", engine, "--dialect", dialect, cwd=tmp)
    c.request("initialize")
    launched = c.request("launch", program=str(path), input=case.stdin)
    assert launched["success"], launched
    c.event("initialized")
    c.request("configurationDone")
    if case.interrupt:
        while "go" not in c.output():
            c.events.append(c.receive())
        time.sleep(0.5)
        assert c.request("pause", threadId=1)["success"]
        assert c.event("stopped")["body"]["reason"] == "pause"
        top = c.request("stackTrace", threadId=1)["body"]["stackFrames"][0]
        assert top["name"] == "main" and top["line"] > 0, top
        assert c.request("terminate")["success"]
    else:
        while not any(e.get("event") == "exited" for e in c.events):
            message = c.receive()
            if message.get("event") == "stopped":  # an error stops the program there: on to its end
                c.send({"seq": 999, "type": "request", "command": "continue", "arguments": {"threadId": 1}})
            c.events.append(message)
    status = c.event("exited")["body"]["exitCode"]
    c.event("terminated")
    text = "".join(e["body"]["output"] for e in c.events if e.get("event") == "output")
    assert c.request("disconnect")["success"]
    code, err = c.close()
    assert code == 0 and not err, err
    return Seen(lf(text), status)


DOORS = {"run": door_run, "shell": door_shell, "trace": door_trace, "debug": door_debug,
         "kernel": door_kernel, "magics": door_magics, "web": door_web, "dap": door_dap}


# ---- the expectations

_RUN_SEEN: dict[tuple[str, str, str], tuple[str, str, int]] = {}


def cli_run(case: Case, dialect: str, engine: str, tmp: Path) -> tuple[str, str, int]:
    """``(stdout, stderr, status)`` of ``tinyc run`` of the case, the reference every door is held to."""
    key = (case.name, dialect, engine)
    if key not in _RUN_SEEN:
        argv = [sys.executable, "-P", "-m", "tinyc", *tinyc_argv(case, dialect, engine, program(case, dialect, tmp))]
        done = subprocess.run(argv, input=case.stdin.encode(), capture_output=True, timeout=120, cwd=tmp)
        _RUN_SEEN[key] = lf(done.stdout), lf(done.stderr), done.returncode
    return _RUN_SEEN[key]


def the_report(case: Case, dialect: str, engine: str, tmp: Path) -> str:
    """The report ``tinyc run`` shows: its stderr (tiny-c/PC), the last three lines of its output (Gibson's)."""
    out, err, _ = cli_run(case, dialect, engine, tmp)
    if dialect == "pc":
        assert err.count("\n") == 3, err
        return err
    lines = out.rstrip("\n").split("\n")
    return "\n".join(lines[-3:]) + "\n"


def check(door: str, case: Case, dialect: str, engine: str, seen: Seen, tmp: Path) -> None:
    assert "Traceback" not in seen.text and "internal error" not in seen.text, seen.text
    assert seen.status not in (70, 120), seen.text
    if case.interrupt:
        lines = [line.rsplit("\r", 1)[-1] for line in seen.text.split("\n")]
        word = "paused" if door == "debug" else STOPPED  # the debugger's Ctrl-C pauses the program
        assert word in lines, f"{door}: no line {word!r} in {seen.text!r}"
        if seen.status is not None and door != "kernel":  # the kernel's is the cell's error reply
            assert seen.status == 130, seen
        return
    if case.shows:
        shows = REFUSAL[dialect] if case.shows == "<refusal>" else case.shows
        assert shows in seen.text, f"{door}: {shows!r} not in {seen.text!r}"
    if case.report:
        report, text = the_report(case, dialect, engine, tmp), seen.text
        if door == "kernel":  # a statement cell runs as `tc -r main()`: a longer seed moves Gibson's pr[N]
            report, text = (re.sub(r"pr\[\d+\]", "pr[N]", t) for t in (report, text))
        assert report in text, f"{door}: the report {report!r} not in {seen.text!r}"
        if seen.status is not None and door != "kernel":
            assert seen.status == cli_run(case, dialect, engine, tmp)[2]


@pytest.fixture
def home(tmp_path):
    here = os.getcwd()
    yield tmp_path
    os.chdir(here)


def matrix(doors, engines=("reference", "fast")):
    return [pytest.param(door, case, dialect, engine, id=f"{door}-{case.name}-{dialect}-{engine}")
            for door in doors for case in CASES for dialect in ("pc", "gibson")
            for engine in door_engines(door, case, engines)]


def door_engines(door: str, case: Case, engines: tuple[str, ...]) -> tuple[str, ...]:
    """The engines a door is tried on: the tracer has only the reference evaluator; an interrupt and the
    plain run are tried on every engine, the rest on the default one."""
    if door == "trace":
        return ("reference",)
    return engines if case.interrupt or door == "run" else engines[-1:]


@pytest.mark.parametrize("door, case, dialect, engine", matrix(["run", "shell", "trace", "debug", "web", "dap"]))
def test_door(door, case, dialect, engine, home):
    seen = DOORS[door](case, dialect, engine, home)
    check(door, case, dialect, engine, seen, home)


@pytest.mark.parametrize("door, case, dialect, engine", matrix(["magics"]))
def test_magics_door(door, case, dialect, engine, home, ip, capsys):
    seen = door_magics(case, dialect, engine, home, ip=ip, capsys=capsys)
    check(door, case, dialect, engine, seen, home)
