"""Issue 26's command-line rough edges, as a new user met them: help that lists the commands, suggestions
for a misplaced or mistyped option, an editor-friendly ``tinyc check``, ``compile`` without ``main``,
``tokens`` before a bad character, reports on a terminal, error 16's place, the end of ``boot``."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc.cli import main as cli
from tinyc.machine.console import align_report, for_terminal

ROOT = Path(__file__).resolve().parents[2]


def tinyc(*args, stdin=b""):
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=stdin, capture_output=True, timeout=120)


def on_terminal(*args: str) -> tuple[int, bytes]:
    """Run tinyc with stdin, stdout and stderr on a pseudo-terminal (UTF-8 locale); (status, bytes shown)."""
    master, slave = pty.openpty()
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", TERM="dumb")
    p = subprocess.Popen([sys.executable, "-P", "-m", "tinyc", *args], stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not data:
            break
        out += data
    os.close(master)
    return p.wait(timeout=60), out


# -- 1. help

def test_help_lists_every_command_with_a_line(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for name in [*cli.BUILTIN, *cli.TOOLS]:
        assert f"\n    {name} " in out or f"\n    {name}\n" in out, name  # (a long name: its line below)
    assert "print the token stream" in out


@pytest.mark.parametrize("command", ["check", "compile", "run", "boot", "tokens", "trace"])
def test_every_command_describes_itself_and_its_arguments(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    described = {**cli.BUILTIN, **{k: v[1] for k, v in cli.TOOLS.items()}}[command]
    assert described.split(":")[0] in out
    positional = out.split("positional arguments:")[1].split("\n\n")[0]
    assert all(len(line.split()) > 1 for line in positional.strip().splitlines()[:1]), positional


# -- 2. suggestions

def test_e_before_a_command_says_where_it_belongs(capsys):
    assert cli.main(["-e", "pn 1"]) == 2
    err = capsys.readouterr().err
    assert "tinyc tokens -e 'pn 1'" in err and "unknown command" not in err


def test_a_mistyped_option_gets_a_suggestion(capsys):
    assert cli.main(["run", str(ROOT / "examples/hello.tc"), "--entyr", "main"]) == 2
    assert "did you mean --entry?" in capsys.readouterr().err


# -- 3. check

@pytest.fixture
def two(tmp_path):
    a, b = tmp_path / "a.tc", tmp_path / "b.tc"
    a.write_text("main [ pn 7 ]\n")
    b.write_text("int x, x\nf [ pn 1 ]\nf [ pn 2 ]\nmain [ f; pn nosuch ]\n")
    return a, b


def test_check_writes_file_line_col_lines_to_stdout(two, capsys):
    a, b = two
    assert cli.main(["check", str(b)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{b}:1:9: x is defined again: the first definition, at line 1, is the one used",
        f"{b}:3:2: f is defined again: the first definition, at line 2, is the one used",
        f"{b}:4:20: error 26: undefined symbol: nosuch"]
    assert err == f"{b}: 3 problems\n"


def test_check_json_names_the_file_of_each_problem_across_files(two, capsys):
    a, b = two
    assert cli.main(["check", "--format", "json", str(a), str(b)]) == 1
    rows = json.loads(capsys.readouterr().out)
    main_again = [r for r in rows if r["message"].startswith("main is defined again")]
    assert main_again == [{"file": str(b), "line": 4, "column": 5, "error": None,
                           "message": f"main is defined again: the first definition, at {a}:1:5, is the one used"}]
    assert {"file": str(b), "line": 4, "column": 20, "error": 26, "message": "error 26: undefined symbol: nosuch"} in rows


def test_check_report_to_a_file_is_not_empty(two, tmp_path):
    r = tinyc("check", str(two[1]))
    assert r.returncode == 1 and r.stdout.count(b"\n") == 3


# -- 4. compile without main

def test_compile_without_main_names_the_functions(capsys):
    assert cli.main(["compile", "programs/bc.tc"]) == 2
    err = capsys.readouterr().err
    assert "defines no main" in err and "bullcow" in err and "--entry" in err


# -- 5. tokens

def test_tokens_are_printed_up_to_a_bad_character(tmp_path, capsys):
    (tmp_path / "b.tc").write_text("main [\n  pn 1 @ 2\n]\n")
    assert cli.main(["tokens", str(tmp_path / "b.tc")]) == 1
    out, err = capsys.readouterr()
    assert [line.split()[1:] for line in out.splitlines()] == [["NAME", "main"], ["LSQB", "["], ["NAME", "pn"],
                                                              ["NUMBER", "1"]]
    assert " 2 --- err  9" in err


def test_tokens_layout_has_no_line_0_newline(tmp_path, capsys):
    (tmp_path / "ok.tc").write_text("main [ pn 1 ]\n")
    assert cli.main(["tokens", "--layout", str(tmp_path / "ok.tc")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:2] == ["1:1", "FNAME"] and "   0:" not in out


# -- 6 and 10. bytes on a terminal

def test_a_binary_file_report_is_escaped_and_cut_on_a_terminal(tmp_path):
    path = tmp_path / "bin.tc"
    path.write_bytes(b"\x7fELF\x02\x01\x1b[2J" + bytes(range(1, 32)) * 40 + b"\n")
    status, shown = on_terminal("run", str(path))
    assert status == 1
    assert b"\x1b[2J" not in shown and b"\\x1b[2J" in shown and b"\\x7fELF" in shown
    assert max(len(line) for line in shown.split(b"\r\n")) < 800


def test_the_report_is_unchanged_through_a_pipe(tmp_path):
    path = tmp_path / "bin.tc"
    path.write_bytes(b"\x7fELF\x1b[2J\n")
    assert b"\x7fELF\x1b[2J" in tinyc("run", str(path)).stderr


def test_latin1_text_shows_on_a_utf8_terminal(tmp_path):
    path = tmp_path / "l.tc"
    path.write_bytes(b'main [ pl "caf\xe9"; pn 1+ ]\n')
    status, shown = on_terminal("run", str(path))
    assert status == 1
    assert "caf\u00e9\r\n".encode() in shown  # the program's output
    assert 'pl "caf\u00e9"; pn 1+ ]\r\n                        <'.encode() in shown  # the report, aligned
    assert tinyc("run", str(path)).stdout == b'\r\ncaf\xe9\n'  # a pipe gets the bytes


def test_for_terminal_keeps_utf8_and_tabs():
    assert for_terminal("a\tb\u00c3\u00a9\x01") == "a\tb\u00c3\u00a9\\x01"
    assert align_report(" 1 --- err  9\nx\x01y\n   <\n", terminal=True) == " 1 --- err  9\nx\\x01y\n      <\n"


def test_boot_ends_its_output_with_a_newline_at_the_end_of_input():
    r = tinyc("boot", "system.ipl")
    assert r.returncode == 0 and r.stdout.endswith(b"tc>\r\n")


# -- 7. error 16

@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_error_16_points_into_the_long_expression(tmp_path, engine, capsys):
    path = tmp_path / "sum.tc"
    path.write_text("/* a long sum */\nmain [ pn " + "+".join(["1"] * 2000) + " ]\n")
    assert cli.main(["run", "--engine", engine, str(path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == " 2 --- err  16"
    assert 10 <= lines[2].index("<") <= 12  # in the expression, after `main [ pn `
