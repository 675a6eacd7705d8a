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
