"""Shell completion scripts (issue 26, beyond the list): ``tinyc completion SHELL`` and
``tinyc-solver completion SHELL`` print a script that bash accepts and that completes the commands
and a command's own options."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")


def produce(program: str, shell: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / program), "completion", shell], capture_output=True, text=True, timeout=60)


def complete(program: str, words: list[str]) -> list[str]:
    """What bash offers for the last of ``words`` after ``eval "$(PROGRAM completion bash)"``."""
    function = "_shtab_" + program.replace("-", "_")
    line = (f'eval "$({BIN / program} completion bash)"; COMP_WORDS=({" ".join(words)}); '
            f'COMP_CWORD={len(words) - 1}; {function}; printf "%s\\n" "${{COMPREPLY[@]}}"')
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@needs_bash
@pytest.mark.parametrize("program", ["tinyc", "tinyc-solver"])
def test_the_bash_script_is_valid_bash(program):
    done = produce(program, "bash")
    assert done.returncode == 0, done.stderr
    checked = subprocess.run(["bash", "-n"], input=done.stdout, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("program, commands", [
    ("tinyc", ["run", "shell", "boot", "check", "debug", "trace", "completion"]),
    ("tinyc-solver", ["evaluate", "play", "hint", "tree", "score", "completion"]),
])
@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_the_script_names_the_commands(program, commands, shell):
    done = produce(program, shell)
    assert done.returncode == 0, done.stderr
    for name in commands:
        assert name in done.stdout


@needs_bash
def test_bash_completes_commands_and_their_options():
    assert set(complete("tinyc", ["tinyc", "c"])) == {"check", "compile", "completion"}
    assert "--format" in complete("tinyc", ["tinyc", "check", "--f"])  # a tool's own option
    assert complete("tinyc-solver", ["tinyc-solver", "ev"]) == ["evaluate"]


@pytest.mark.parametrize("program", ["tinyc", "tinyc-solver"])
def test_an_unknown_shell_is_a_usage_error(program):
    done = produce(program, "fish")
    assert done.returncode == 2
    assert "fish" in done.stderr and "Traceback" not in done.stderr


def tab(line: str, cwd: Path, program: str = "tinyc", expect: str = "") -> str:
    """What an interactive bash shows after ``eval "$(PROGRAM completion bash)"``, typing ``line`` and Tab
    (twice: a single match completes at once, several are listed at the second), up to ``expect`` once it is
    shown (else what was shown in 5 seconds)."""
    pexpect = pytest.importorskip("pexpect")
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(cwd), "TERM": "dumb", "PS1": "$ ", "INPUTRC": "/dev/null"}
    child = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], cwd=str(cwd), env=env, encoding="utf-8",
                          timeout=30, dimensions=(40, 200))
    try:
        child.expect_exact("$ ")
        child.sendline(f'eval "$({program} completion bash)"; echo ready')
        child.expect_exact("ready\r\n")
        child.expect_exact("$ ")
        child.send(line + "\t\t")
        try:
            child.expect_exact(expect, timeout=5)
        except pexpect.TIMEOUT:
            return child.before
        return child.before + child.after
    finally:
        child.close(force=True)


@needs_bash
def test_a_program_argument_completes_as_a_file_tc_files_first(tmp_path):
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "fact.tc").write_text("main [pl 1]\n")
    (tmp_path / "examples" / "facts.txt").write_text("not a program\n")
    (tmp_path / "notes.txt").write_text("x\n")
    # the .tc file, not facts.txt
    assert "tinyc run examples/fact.tc" in tab("tinyc run examples/fa", tmp_path, expect="fact.tc")
    assert "tinyc debug examples/fact.tc" in tab("tinyc debug examples/fa", tmp_path, expect="fact.tc")
    assert "tinyc run examples/" in tab("tinyc run exa", tmp_path, expect="examples/")  # a directory, with its slash
    # no tiny-c file matches: any file
    assert "tinyc boot notes.txt" in tab("tinyc boot no", tmp_path, expect="notes.txt")


@needs_bash
def test_solver_completes_games_and_strategies(tmp_path):
    assert set(complete("tinyc-solver", ["tinyc-solver", "evaluate", "--game", "bulls"])) == {
        "bulls-cows-1to9", "bulls-cows"}
    games = complete("tinyc-solver", ["tinyc-solver", "play", "--game", ""])
    assert "hex" in games and "mastermind" in games
    assert "knuth" in complete("tinyc-solver", ["tinyc-solver", "evaluate", "--strategy", "kn"])
    assert "phase-fixed" in tab("tinyc-solver hint --strategy phase-f", tmp_path, "tinyc-solver", "phase-fixed")
