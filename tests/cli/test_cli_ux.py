"""Issue 14's command-line defects, each as a user met it: no tracebacks, one text rule, commands that
say what they mean, one message for a directory, bounded options, the recursion limit restored."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]


def tinyc(*args, stdin=b"", env=None, cwd=None):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=stdin, capture_output=True,
                          timeout=120, env=e, cwd=cwd)


@pytest.fixture
def utf8(tmp_path):
    path = tmp_path / "u.tc"
    path.write_bytes('main [ pl "h\u00e9llo" ]\n'.encode())
    return path


# -- 1. tracebacks

def test_huge_memory_is_a_usage_error_not_memoryerror():
    r = tinyc("run", str(ROOT / "examples/hello.tc"), "--memory", "99999999999")
    assert r.returncode == 2
    assert b"Traceback" not in r.stderr and b"--memory must be at most 1073741824" in r.stderr


@pytest.mark.parametrize("memory, int_bits, least", [("5", "32", 200000), ("40000", "32", 200000), ("-1", "16", 32768)])
def test_a_small_memory_is_one_line_with_the_least_for_the_int_size(memory, int_bits, least):
    # the lower bound depends on --int-bits: one check, one message, whether the value is 5 or 40000
    r = tinyc("run", str(ROOT / "examples/hello.tc"), "--memory", memory, "--int-bits", int_bits)
    assert r.returncode == 2
    assert r.stderr.decode() == f"tinyc: --memory must be at least {least} bytes (the shell's buffers live there)\n"


def test_ascii_stdout_encoding_does_not_break_a_latin1_file(tmp_path):
    path = tmp_path / "l.tc"
    path.write_bytes(b'main [ pl "caf\xe9" ]\n')
    r = tinyc("tokens", str(path), env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0 and b"Traceback" not in r.stderr
    assert b'"caf\xe9"' in r.stdout  # the byte as the file has it


# -- 2. one rule: program text is bytes, written as they are

@pytest.mark.parametrize("command", ["tokens", "parse", "trace"])
def test_utf8_source_is_not_mojibake_in_any_view(command, utf8):
    r = tinyc(command, str(utf8))
    assert r.returncode == 0, r.stderr
    assert "h\u00e9llo".encode() in r.stdout
    assert "\u00c3".encode() not in r.stdout  # no mojibake (the UTF-8 of the Latin-1 reading of the bytes)


def test_compile_escapes_the_bytes_of_utf8_source(utf8):
    # the exception to the rule: comments of program text in generated Python are printable ASCII, every
    # other byte \xNN (docs/security.md, "Program bytes never become code"), so no mojibake either
    r = tinyc("compile", str(utf8))
    assert r.returncode == 0, r.stderr
    assert b"h\\xc3\\xa9llo" in r.stdout and "\u00c3".encode() not in r.stdout


def test_utf8_in_the_error_report_of_run(tmp_path):
    ascii_, utf = tmp_path / "a.tc", tmp_path / "u.tc"
    ascii_.write_bytes(b'main [ ps "ete" ; pn 2+ ]\n')
    utf.write_bytes('main [ ps "\u00e9t\u00e9" ; pn 2+ ]\n'.encode())
    plain, r = tinyc("run", str(ascii_)), tinyc("run", str(utf))
    assert r.returncode == plain.returncode == 1
    lines = r.stderr.decode().splitlines()
    assert lines[1] == 'main [ ps "\u00e9t\u00e9" ; pn 2+ ]'
    # the < stands under the same character on a UTF-8 terminal as in the same line in ASCII
    assert lines[2] == plain.stderr.decode().splitlines()[2]


def test_statement_given_with_e_is_bytes_too():
    r = tinyc("tokens", "-e", 'pl "\u00e9"')
    assert '"\u00e9"'.encode() in r.stdout


# -- 4. commands

def test_a_tc_file_is_not_booted_as_a_system_file():
    r = tinyc(str(ROOT / "examples/hello.tc"))
    assert r.returncode == 2
    assert b"tinyc run" in r.stderr and b"tinyc boot" in r.stderr


def test_boot_is_explicit_and_ipl_names_still_boot(tmp_path):
    path = tmp_path / "a.sys"
    path.write_bytes(b"[main();]\nmain [ MC 65,1 ]\n")
    assert tinyc("boot", str(path)).stdout == b"A"
    ipl = tmp_path / "a.ipl"
    ipl.write_bytes(path.read_bytes())
    assert tinyc(str(ipl)).stdout == b"A"


def test_a_mistyped_command_gets_a_suggestion(capsys):
    assert cli.main(["trce", "x.tc"]) == 2
    assert "did you mean 'trace'?" in capsys.readouterr().err
    assert cli.main(["bogus"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'bogus'" in err and "No such file" not in err


def test_a_bad_option_value_names_the_command_not_a_probe(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["run", "x.tc", "--int-bits", "8"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("tinyc run: argument --int-bits: invalid choice: 8") and len(err.splitlines()) == 1


@pytest.mark.parametrize("command", ["tokens", "parse", "ast", "link", "trace", "compile", "run"])
def test_every_command_takes_every_machine_option(command, capsys):
    # --memory 60000: 16-bit ints address at most 65536 bytes (reference 14 item 21)
    args = [command, str(ROOT / "examples/hello.tc"), "--strip-cr", "--echo", "--int-bits", "16",
            "--memory", "60000", "--random-divisor", "7", "--max-depth", "50", "--engine", "reference"]
    assert cli.main(args) == 0, capsys.readouterr().err


def test_options_before_the_command_still_work(capsys):
    assert cli.main(["--memory", "300000", "--strip-cr", "run", str(ROOT / "examples/hello.tc")]) == 0
    assert "Hello" in capsys.readouterr().out


# -- 5. a directory given as a file

@pytest.mark.parametrize("command", [["run"], ["tokens"], ["trace"], ["boot"], ["compile"], ["link"]])
def test_a_directory_gives_one_message_naming_it(command, tmp_path, capsys):
    d = tmp_path / "adir"
    d.mkdir()
    assert cli.main([*command, str(d)]) == 2
    assert capsys.readouterr().err == f"tinyc: {d}: is a directory, not a tiny-c program\n"


def test_a_missing_file_names_it(tmp_path, capsys):
    assert cli.main(["run", str(tmp_path / "none.tc")]) == 2
    assert capsys.readouterr().err == f"tinyc: {tmp_path / 'none.tc'}: No such file or directory\n"


# -- 8. --max-depth and the recursion limit

@pytest.mark.parametrize("value", ["-1", "0", "10000000", "ten"])
def test_max_depth_is_validated(value, capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", str(ROOT / "examples/hello.tc"), "--max-depth", value])
    assert "--max-depth" in capsys.readouterr().err


def test_the_recursion_limit_is_restored_after_a_run(capsys):
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1500)
    try:
        assert cli.main(["run", str(ROOT / "examples/hello.tc"), "--max-depth", "5000"]) == 0
        assert sys.getrecursionlimit() == 1500
    finally:
        sys.setrecursionlimit(before)


# -- run -

def test_run_dash_reads_the_program_from_stdin():
    r = tinyc("run", "-", "--strip-cr", stdin=b'main [ pl "from stdin" ]\n')
    assert (r.returncode, r.stdout) == (0, b"\nfrom stdin\n")


def test_run_finds_a_shipped_program_from_another_directory(tmp_path):
    r = tinyc("run", "hello.tc", "--strip-cr", cwd=tmp_path)
    assert r.returncode == 0 and b"Hello" in r.stdout
