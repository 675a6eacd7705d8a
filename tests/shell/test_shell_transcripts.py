"""Golden transcripts: the tc> shell driven through a pipe, as `printf ... | tinyc --echo` would.

Each tests/transcripts/NAME.in is fed to ``python -m tinyc --echo`` on stdin, in a scratch directory
holding a copy of tests/transcripts/files/; stdout must equal NAME.out byte for byte (CR LF included).
To refresh a golden file after a deliberate change: ``TINYC_REGOLD=1 .venv/bin/pytest tests/shell/test_shell_transcripts.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1] / "transcripts"
ROOT = Path(__file__).resolve().parents[2]
CASES = sorted(p.stem for p in HERE.glob("*.in"))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    for f in (HERE / "files").iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def run_tinyc(cwd: Path, stdin: bytes, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *options], input=stdin, cwd=cwd, env=_env(),
                          capture_output=True, timeout=60)


@pytest.mark.parametrize("name", CASES)
def test_transcript(name: str, scratch: Path):
    result = run_tinyc(scratch, (HERE / f"{name}.in").read_bytes(), "--echo")
    assert result.stderr == b""
    assert result.returncode == 0
    golden = HERE / f"{name}.out"
    if os.environ.get("TINYC_REGOLD"):
        golden.write_bytes(result.stdout)
    assert result.stdout == golden.read_bytes()


def test_edit_session_writes_the_edited_program(scratch: Path):
    """The file .w wrote in edit.in holds the edits, and running it gives the edited output."""
    run_tinyc(scratch, (HERE / "edit.in").read_bytes())
    written = (scratch / "counted.tc").read_bytes()
    assert b"while(i<5) [" in written
    assert b'  ps " i="\n  pn i\n' in written
    assert b"  /* prints 0 1 2\n" in written
    assert b"    pn i\n" not in written
    assert b"\0" not in written  # the NULs a run leaves in string literals are written back as quotes


def test_strip_cr_option_applies_to_the_shell(scratch: Path):
    result = run_tinyc(scratch, b".r hello.tc\n.hello\n", "--strip-cr")
    assert b"\r" not in result.stdout
    assert result.stdout.endswith(b"tc> 31\n 0 4 31 89969\ntc>Hello world\ntc>\n")


def wait_for_cpu(pid: int, seconds: float, timeout: float = 60) -> None:
    """Wait until the process ``pid`` has used ``seconds`` more CPU time (user + system, from /proc)."""
    def used() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    start, deadline = used(), time.monotonic() + timeout
    while used() - start < seconds and time.monotonic() < deadline:
        time.sleep(0.05)


def test_ctrl_c_stops_an_endless_loop_and_keeps_the_buffer(scratch: Path):
    """SIGINT while a statement runs: `stopped`, then the shell goes on with the program intact."""
    (scratch / "loop.tc").write_bytes(b"loop [\n  int n\n  while(1) ++n\n]\n")
    proc = subprocess.Popen([sys.executable, "-P", "-m", "tinyc", "--echo"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, cwd=scratch, env=_env())
    try:  # a failed check must not leave the endless loop running (one spun for an hour here)
        proc.stdin.write(b".r loop.tc\n.loop\n")
        proc.stdin.flush()
        seen, deadline = b"", time.monotonic() + 30
        while b"tc>.loop\n" not in seen and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], 0.1)[0]:
                seen += os.read(proc.stdout.fileno(), 4096)
        assert b"tc>.loop\n" in seen
        wait_for_cpu(proc.pid, 0.5)  # past the statement's link (a few ms of CPU), whatever the machine's load
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(b"./\n.p 9\n", timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert out == (b"\r\nstopped\r\n"
                   b"tc>./\n 3 4 32 89968\r\n"
                   b"tc>.p 9\n  while(1) ++n\n]\n"
                   b"tc>\r\n")


def test_sample_session_in_docs_is_current(tmp_path: Path):
    """docs/shell.md shows a session (two shell commands, then the output); it must be what tinyc prints."""
    block = (ROOT / "docs" / "shell.md").read_text().split("```\n")[1]
    make_file, session, expected = block.split("\n", 2)
    tinyc = f"{sys.executable} -P -m tinyc"
    for command in (make_file, session):
        assert command.startswith("$ ")
    result = subprocess.run(make_file[2:] + "; " + session[2:].replace("| tinyc", "| " + tinyc),
                            shell=True, cwd=tmp_path, env=_env(), capture_output=True, timeout=60,
                            executable="/bin/bash")
    assert result.stdout.decode() == expected
