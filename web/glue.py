"""The playground's Python side: what the page's Web Worker calls inside Pyodide (docs/web.md).

Every call goes through the ``tinyc`` command line (:func:`tinyc.cli.main.main`) with captured standard
streams, so ``run`` gives exactly the bytes and exit status of ``tinyc run`` on the same program file; the
stage views are the ``tinyc tokens|parse|ast|link|trace|compile`` commands.  The ``tc>`` shell is the
package's :class:`~tinyc.shell.shell.Shell` fed one line at a time (no prompt_toolkit in a browser).

Bytes cross to JavaScript as text: UTF-8, with bytes that are not UTF-8 shown as Latin-1 characters (as
tinyc shows them on a UTF-8 terminal).  The module imports nothing of the browser, so the tests also run it
in plain CPython (tests/web/test_web.py).
"""

from __future__ import annotations

import io
import json
import os
import sys

PROGRAM = "program.tc"     # the editor's program, written to the (in-memory) working directory
MAX_SOURCE = 1 << 20       # bytes: a larger program is refused before tinyc reads it
MAX_OUTPUT = 1 << 20       # bytes of standard output kept; past it the program is stopped
VIEWS = {"tokens": "tokens", "parse": "parse", "ast": "ast", "link": "link", "trace": "trace",
         "python": "compile"}  # the page's view names -> tinyc commands


class CappedOutput(io.BytesIO):
    """Standard output that holds at most ``limit`` bytes: a write past it keeps what fits and raises
    BrokenPipeError, which tinyc treats as a reader that went away (``tinyc run | head -c``): the program
    stops and the run ends with status 141."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit
        self.capped = False

    def write(self, data) -> int:
        room = self.limit - self.tell()
        if len(data) > room:
            super().write(bytes(data[:max(room, 0)]))
            self.capped = True
            raise BrokenPipeError("the page's output limit")
        return super().write(data)


class StreamedOutput(CappedOutput):
    """CappedOutput that also hands each write to ``emit(text)`` (text as :func:`text` decodes it; a UTF-8
    character split between writes is held back until it is whole): the page shows the output of a
    program while it runs, and keeps it when Stop ends the worker."""

    def __init__(self, limit: int, emit):
        super().__init__(limit)
        self.emit = emit
        import codecs
        import tinyc.machine.console  # noqa: F401  (registers the "tinyc.latin1" error handler)
        self.decoder = codecs.getincrementaldecoder("utf-8")("tinyc.latin1")

    def write(self, data) -> int:
        start = self.tell()
        try:
            return super().write(data)
        finally:  # what was kept, also when the cap was reached
            kept = self.getbuffer()[start:self.tell()].tobytes()
            shown = self.decoder.decode(kept, self.capped)
            if shown:
                self.emit(shown)


STREAM_BURST = 20          # writes handed on at once in each STREAM_INTERVAL
STREAM_INTERVAL = 0.05     # seconds: past the burst, output is handed on at most this often


def streaming_console():
    """The :class:`~tinyc.machine.console.Console` subclass a streamed run uses.  A Console keeps 8 KiB
    before it writes; this one writes (to a StreamedOutput) at each write while writes are few, so a
    line printed before a long loop shows at once, and past STREAM_BURST writes in STREAM_INTERVAL at
    most every STREAM_INTERVAL (or when 8 KiB wait), so a print loop does not flood the page with
    messages.  (The worker runs no timer while Python runs: what a burst leaves in the buffer shows at
    the next write or at the end; Stop loses at most that.)"""
    from time import monotonic

    from tinyc.machine.console import Console

    class StreamingConsole(Console):
        left = STREAM_BURST  # writes this window may still hand on at once
        window = 0.0         # when the window began (time.monotonic seconds)

        def _due(self) -> None:
            if self.left:
                self.left -= 1
            else:
                now = monotonic()
                if now - self.window >= STREAM_INTERVAL:  # a new window
                    self.window, self.left = now, STREAM_BURST - 1
                elif len(self._buf) <= 8192:  # (a full buffer is written, as a Console writes it)
                    return
            self.flush()

        def write(self, data: bytes) -> None:
            self._buf += data
            self._due()

        def put(self, c: int) -> None:  # once per character (the library's ps and pl): kept short
            self._buf.append(c)
            if self.left or monotonic() - self.window >= STREAM_INTERVAL or len(self._buf) > 8192:
                self._due()

    return StreamingConsole


class NotingInput(io.BytesIO):
    """Standard input that notes how much output had been written (``ended_at``) when a read first found
    the end of the input: where a program played in the page waits for the next line."""

    def __init__(self, data: bytes, out: io.BytesIO):
        super().__init__(data)
        self.out = out
        self.ended_at: int | None = None

    def _noted(self, got: bytes) -> bytes:
        if not got and self.ended_at is None:
            self.ended_at = self.out.tell()
        return got

    def read(self, size: int | None = -1) -> bytes:
        return self._noted(super().read(size)) if size != 0 else b""

    def readline(self, size: int | None = -1) -> bytes:
        return self._noted(super().readline(size))


def text(data: bytes) -> str:
    """``data`` as the page shows it: UTF-8, a byte that is not UTF-8 as its Latin-1 character."""
    import tinyc.machine.console  # noqa: F401  (registers the "tinyc.latin1" error handler)
    return data.decode("utf-8", "tinyc.latin1")


def source_problem(source: str) -> str | None:
    """Why ``source`` is not a program the page will run (None when it is): too large, or binary data."""
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_SOURCE:
        return f"the program is too large: {size} bytes (the playground takes at most {MAX_SOURCE})"
    for line_no, line in enumerate(source.split("\n"), 1):
        bad = next((c for c in line if c in "\ufffd" or (ord(c) < 32 and c not in "\t\r\f\v\x1a\x1b")), None)
        if bad is not None:
            return (f"the program holds binary data (character U+{ord(bad):04X} in line {line_no}): "
                    "tiny-c programs are text; paste the source, not a compiled or binary file")
    return None


def call_tinyc(argv: list[str], stdin: bytes = b"", limit: int = MAX_OUTPUT,
               emit=None) -> tuple[bytes, bytes, int, int | None]:
    """``tinyc ARGV`` with ``stdin`` as standard input: ``(stdout, stderr, status, ended_at)``, ``ended_at``
    the length of stdout when a read first found the end of the input (None: it never did).  Output past
    ``limit`` bytes stops the program, and a line saying so ends stderr.  ``emit``, when given, is called
    with the standard output's text while the program runs (see :func:`streaming_console`)."""
    from tinyc.cli.main import main
    from tinyc.driver import session
    out, err = (StreamedOutput(limit, emit) if emit else CappedOutput(limit)), io.BytesIO()
    console_class = session.Console
    if emit:  # the sessions this call makes write their output as it comes
        session.Console = streaming_console()
    inp = NotingInput(stdin, out)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(inp)
    sys.stdout = io.TextIOWrapper(out, write_through=True)
    sys.stderr = io.TextIOWrapper(err, write_through=True)
    try:
        try:
            status = main(argv)
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (BrokenPipeError, ValueError):
                pass
        result = out.getvalue(), err.getvalue(), status, inp.ended_at
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        session.Console = console_class
    if out.capped:
        note = b"\n[the page stopped the program: its output passed %d bytes]\n" % limit
        result = result[0], result[1] + note, result[2], result[3]
    return result


def _program_argv(source: str, dialect: str | None) -> list[str] | dict:
    """The file argument (the source written to PROGRAM) and the dialect option, or a refusal result."""
    problem = source_problem(source)
    if problem:
        return {"stdout": "", "stderr": f"tinyc: {problem}\n", "status": 2}
    with open(PROGRAM, "wb") as f:
        f.write(source.encode("utf-8", "surrogatepass"))
    return (["--dialect", dialect] if dialect in ("pc", "gibson") else []) + [PROGRAM]


def run(source: str, dialect: str | None = None, entry: str = "main", stdin: str = "",
        engine: str | None = None, emit=None) -> dict:
    """``tinyc run PROGRAM [--dialect D] [--entry ENTRY] [--engine E]`` with ``stdin``: a dict of
    ``stdout``, ``stderr`` (str) and ``status`` (int), as that command gives them.  ``emit(text)``, when
    given, receives the standard output while the program runs, in pieces that add up to ``stdout``."""
    argv = _program_argv(source, dialect)
    if isinstance(argv, dict):
        return argv
    options = ["--engine", engine] if engine in ("reference", "fast") else []
    out, err, status, _ = call_tinyc(["run", *options, *argv, "--entry", entry or "main"], stdin.encode(),
                                     emit=emit)
    return {"stdout": text(out), "stderr": text(err), "status": status}


def play(source: str, dialect: str | None = None, entry: str = "main", stdin: str = "",
         engine: str | None = None, emit=None) -> dict:
    """``run`` with ``--echo`` (the lines read appear in the output, as typed), for playing a program one
    input line at a time: when the program read past the end of ``stdin``, the result is ``waiting`` True
    and ``stdout`` ends where that read began (the page asks for the next line and runs it again with all
    the lines: the same lines give the same game).  ``emit(text)`` as for :func:`run`: the pieces add up
    to all the program wrote, from its start (a replay writes the game so far again)."""
    argv = _program_argv(source, dialect)
    if isinstance(argv, dict):
        return {**argv, "waiting": False}
    options = ["--engine", engine] if engine in ("reference", "fast") else []
    out, err, status, ended_at = call_tinyc(["run", "--echo", *options, *argv, "--entry", entry or "main"],
                                            stdin.encode(), emit=emit)
    if ended_at is not None:
        return {"stdout": text(out[:ended_at]), "stderr": "", "status": status, "waiting": True}
    return {"stdout": text(out), "stderr": text(err), "status": status, "waiting": False}


def optimisation_switch(switch: str) -> str | None:
    """Why ``switch`` is not one the Generated Python view takes (None when it is): ``-O0`` (no optimisation)
    or ``--no-NAME``, NAME one of tinyc.engines.options.NAMES (``tinyc compile``'s switches)."""
    from tinyc.engines.options import NAMES
    if switch == "-O0" or (switch.startswith("--no-") and switch[5:] in NAMES):
        return None
    return f"no optimisation switch {switch!r}: -O0, or --no-NAME with NAME one of {', '.join(NAMES)}"


def view(source: str, name: str, dialect: str | None = None, entry: str = "main", stdin: str = "") -> str:
    """The stage view ``name`` (a key of VIEWS) of ``source``: the tinyc command's output, then its errors.
    ``python`` may be followed by optimisation switches (``python -O0``, ``python --no-scans``): the code the
    fast engine generates with those optimisations off, as ``tinyc compile -O0`` shows it."""
    name, *switches = name.split() or [""]
    command = VIEWS.get(name)
    if command is None:
        return f"tinyc: no view {name!r}: the views are {', '.join(VIEWS)}\n"
    if switches and command != "compile":
        return f"tinyc: the {name} view takes no switches (only python: -O0, --no-NAME)\n"
    for switch in switches:
        if optimisation_switch(switch):
            return f"tinyc: {optimisation_switch(switch)}\n"
    argv = _program_argv(source, dialect)
    if isinstance(argv, dict):
        return argv["stderr"]
    extra = ["--entry", entry or "main"] if command in ("trace", "compile") else []
    out, err, _, _ = call_tinyc([command, *switches, *argv, *extra], stdin.encode())
    return text(out + err)


def explain(stderr: str) -> dict:
    """What the page adds to a run's error report (``  3 --- err  6``, tiny-c/PC's first line): the
    error's meaning, as the terminal shell's dim line gives it, and the program line to mark (1-based; 0:
    none, such as the entry statement).  An empty dict for a report of another form."""
    import re
    from tinyc.errors import ErrorCode
    found = re.search(r"^\s*(\d+) --- err\s+(\d+)", stderr, re.MULTILINE)
    if not found:
        return {}
    line, code = int(found.group(1)), int(found.group(2))
    try:
        meaning = f"err {code}: {ErrorCode(code).text}"
    except ValueError:
        meaning = f"err {code}"
    return {"meaning": meaning, "line": line}


STEP_LIMIT = 500_000  # steps the Step tab records by default: Pyodide is slower, and a page must stay quick


def record(source: str, dialect: str | None = None, entry: str = "main", stdin: str = "",
           limit: int | None = None) -> str:
    """The Step tab's recorded run of ``source`` (tinyc.debug.stepper, docs/stepper.md) as JSON text, at most
    ``limit`` steps (None: STEP_LIMIT); a program refused before it runs gives a trace with its report only."""
    from tinyc.driver.dialect import detect
    from tinyc.driver.session import Session
    problem = source_problem(source)
    if problem:
        return json.dumps({"schema": 1, "status": "error", "report": f"tinyc: {problem}\n", "steps": [],
                           "message": "", "output": ""})
    data = source.encode("utf-8", "surrogatepass")
    with open(PROGRAM, "wb") as f:
        f.write(data)
    found = detect(data[:16]) if dialect not in ("pc", "gibson") else None
    session = Session(dialect if dialect in ("pc", "gibson") else found.name if found else "pc")
    trace = session.record(PROGRAM, None if entry in ("", "main") else entry, stdin.encode(),
                           STEP_LIMIT if limit is None else int(limit))
    return trace.json()


class WebShell:
    """The ``tc>`` shell one line at a time: ``line(text, stdin)`` obeys a command and returns what the
    shell wrote; a statement that reads input reads ``stdin`` (the page's input box).  ``dialect`` "pc":
    tiny-c/PC's shell (:class:`~tinyc.shell.shell.Shell`); "gibson": the Gibson dialect's small shell
    (a buffer, and ``.STATEMENT`` runs it as ``tc -r STATEMENT``; :mod:`tinyc.dialects.gibson.shell`)."""

    def __init__(self, dialect: str = "pc") -> None:
        from tinyc import Session
        from tinyc.driver.options import MachineOptions
        from tinyc.machine.console import Console
        self.out = CappedOutput(MAX_OUTPUT)
        self.console = Console(io.BytesIO(), self.out)
        if dialect == "gibson":
            from tinyc.dialects.gibson.machine import BANNER
            from tinyc.dialects.gibson.shell import GibsonShell
            session = Session.from_options(MachineOptions(quiet=True), "gibson", self.console)
            self.shell = GibsonShell(session)
            self.console.write(BANNER)
        else:
            from tinyc.shell.shell import Shell, banner
            machine, workspace = Session.from_options(MachineOptions(), "pc", self.console).boot()
            self.shell = Shell(machine, workspace)
            self.console.write(banner())
        self.exited = False

    def take(self) -> str:
        """What the shell wrote since the last call."""
        from tinyc.machine.console import OutputClosed
        try:
            self.console.flush()
        except OutputClosed:  # past the cap: what fitted is kept, the rest is dropped
            pass
        data = self.out.getvalue()
        if self.out.capped:
            data += b"\r\n[the page stopped the statement: its output passed %d bytes]\r\n" % MAX_OUTPUT
        self.out.seek(0)
        self.out.truncate()
        self.out.capped = False
        return text(data)

    def line(self, command: str, stdin: str = "") -> str:
        """Obey one command line; the text written, ending with the next prompt (none after ``.x``)."""
        from tinyc.machine.console import OutputClosed
        self.console.inp = io.BytesIO(stdin.encode())
        self.console.at_eof = False
        try:
            self.exited = bool(self.shell.command(command.encode("utf-8", "surrogatepass"))
                               or getattr(self.shell, "exited", False))
        except KeyboardInterrupt:
            self.console.write(b"stopped\r\n")
        except OutputClosed:
            pass  # take() says so
        if self.exited:
            self.console.write(b"\r\n")
        return self.take() + ("" if self.exited else "tc>")

    def start(self) -> str:
        """The banner and the first prompt."""
        return self.take() + "tc>"

    def complete(self, line: str) -> list[str]:
        """Tab at ``line`` (the text before the cursor): the lines it may become, sorted, as the terminal
        shell completes them: after the dot the commands and the program's and library's functions, and
        later in a statement the name being typed (none in a comment or a string)."""
        import re
        if not line.startswith("."):
            return []
        shell = self.shell
        word = re.search(r"\w*$", line).group()
        head = line[:len(line) - len(word)]
        found = set()
        if len(word) == len(line) - 1:  # the first word after the dot: a command or a function
            commands = shell.commands() if hasattr(shell, "commands") else []
            found.update(c.name for c in commands if c.name.startswith(line) and c.name != line)
        names = shell.function_names() if hasattr(shell, "function_names") else []
        can_start = (line == ".") if not word else (not word[0].isdigit() and "/*" not in head
                                                    and head.count('"') % 2 == 0 and head.count("'") % 2 == 0)
        if can_start:
            found.update(head + n for n in names if n.startswith(word) and n != word)
        return sorted(found)


def setup(home: str | None = None, disk_cache: bool = False, cache_seed: str | None = None) -> None:
    """Work in ``home`` (the worker's in-memory directory), where PROGRAM is written.  tinyc's disk cache is
    off unless ``disk_cache``: in the browser the file system is memory that lives as long as the worker,
    and tinyc keeps what it parsed in the process anyway.  ``cache_seed``: a folder whose files (the key
    and Lark's sealed grammar analyses that web/precompile.mjs made at build time) start tinyc's cache
    directory, so that the page does not analyse the grammars on every load; a file already there stays."""
    if not disk_cache:
        os.environ["TINYC_NO_CACHE"] = "1"
    if home:
        os.makedirs(home, exist_ok=True)
        os.chdir(home)
    if cache_seed and os.path.isdir(cache_seed):
        import shutil
        from tinyc.dirs import cache_path
        folder = cache_path()
        os.makedirs(folder, mode=0o700, exist_ok=True)
        for name in os.listdir(cache_seed):
            target = os.path.join(folder, name)
            if not os.path.exists(target):
                shutil.copyfile(os.path.join(cache_seed, name), target)
                os.chmod(target, 0o600)  # tinyc trusts only a private key and entries
