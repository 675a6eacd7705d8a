"""Issue 39, the command line: what ``tinyc`` says about files that are not tiny-c text, a byte-order
mark, ``boot`` of a file that is not a system file, and the options and help each command shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def tinyc(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ}
    env.pop("PYTHONPATH", None)
    return subprocess.run([str(BIN / "tinyc"), *args], cwd=str(cwd), input=stdin.encode(), capture_output=True,
                          env=env, timeout=120)


@pytest.mark.parametrize("command", [["run"], ["boot"], ["tokens"], ["check"], ["debug"]])
def test_every_command_that_reads_a_program_warns_of_a_binary_file(tmp_path, command):
    (tmp_path / "bin.tc").write_bytes(bytes(range(256)) * 4)
    done = tinyc(*command, "bin.tc", cwd=tmp_path, stdin="q\n")
    err = done.stderr.decode("latin-1")
    assert err.count("tinyc: warning: bin.tc looks binary, not tiny-c text") == 1, err
    assert "Traceback" not in err


def test_a_text_file_gets_no_warning(tmp_path):
    (tmp_path / "ok.tc").write_text('main [pl "ok"]\n')
    done = tinyc("run", "ok.tc", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == b""


@pytest.mark.parametrize("command", [["run"], ["check"]])
def test_a_utf8_byte_order_mark_is_skipped(tmp_path, command):
    (tmp_path / "bom.tc").write_bytes(b'\xef\xbb\xbfmain [pl "hi"]\n')
    done = tinyc(*command, "bom.tc", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"err" not in done.stdout + done.stderr
    if command == ["run"]:
        assert done.stdout.strip() == b"hi"


def test_boot_of_a_program_says_it_is_not_a_system_file(tmp_path):
    (tmp_path / "hello.tc").write_text('main [pl "hi"]\n')
    done = tinyc("boot", "hello.tc", cwd=tmp_path)
    assert done.returncode == 2
    assert b"hello.tc is not a system file (IPL)" in done.stderr and b"tinyc run hello.tc" in done.stderr


def test_boot_ends_the_system_shells_last_line(tmp_path):
    done = tinyc("boot", "system.ipl", cwd=tmp_path, stdin=".x\n")
    assert done.returncode == 0
    assert done.stdout.endswith(b"tc>\r\n"), done.stdout[-20:]


@pytest.mark.parametrize("value", ["5", "40000"])
def test_a_bad_memory_size_is_one_line(tmp_path, value):
    done = tinyc("run", "--memory", value, "x.tc", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "--memory" in lines[0] and "--no-" not in lines[0], lines


@pytest.mark.parametrize("command", ["fmt", "draw", "completion"])
def test_commands_that_run_no_program_list_no_machine_options(tmp_path, command):
    out = tinyc(command, "--help", cwd=tmp_path).stdout.decode()
    assert "--memory" not in out and "--int-bits" not in out and "--engine" not in out


def test_boot_help_lists_no_gibson_run_options_and_the_top_help_names_the_machine_options(tmp_path):
    boot = tinyc("boot", "--help", cwd=tmp_path).stdout.decode()
    assert "--quiet" not in boot and "-r CODE" not in boot and "--memory" in boot
    top = tinyc("--help", cwd=tmp_path).stdout.decode()
    assert "machine options" in top and "--memory" in top


def test_fmt_still_works_without_the_machine_options(tmp_path):
    (tmp_path / "p.tc").write_text("main [\npl 1\n]\n")
    done = tinyc("fmt", "p.tc", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "  pl 1" in (tmp_path / "p.tc").read_text()  # re-indented in place


def test_the_debugger_says_where_each_breakpoint_is(tmp_path):
    program = (Path(__file__).resolve().parents[2] / "examples" / "fact.tc").read_text()
    (tmp_path / "fact.tc").write_text(program)
    lines = len(program.rstrip("\n").split("\n"))
    done = tinyc("debug", "fact.tc", cwd=tmp_path, stdin="b fact\nb main\nb 999\nr\nq\n")
    out = done.stdout.decode()
    assert "breakpoint 1 at fact, line 7\n" in out
    assert "breakpoint 2 at main, line 12\n" in out
    assert f"line 999 is past the end: the program has {lines} lines\n" in out
    assert "break at line 12 cursor pr[" in out and "cursor pr[-" not in out  # main's own [, not line 0


def test_the_examples_readme_boot_command_works_from_anywhere(tmp_path):
    import re
    text = (Path(__file__).resolve().parents[2] / "examples" / "README.md").read_text()
    command = re.search(r"`(tinyc [^`]*\.ipl)` boots it", text).group(1).split()
    done = tinyc(*command[1:], cwd=tmp_path, stdin=".x\n")
    assert done.returncode == 0 and b"tc>" in done.stdout, done.stderr


def test_the_debugger_docs_programs_are_formatted():
    docs = Path(__file__).resolve().parents[2] / "docs" / "debug"
    done = tinyc("fmt", "--check", *sorted(str(p) for p in docs.glob("*.tc")), cwd=docs)
    assert done.returncode == 0, done.stdout + done.stderr
