"""The shell's one command table (issue 25 item 4): every command of ``COMMANDS`` appears in ``.h``,
completes and dispatches to its handler, and nothing outside the table dispatches."""

from __future__ import annotations

import argparse
import io
import string

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from tinyc.cli.options import machine_options
from tinyc.machine.console import Console
from tinyc.cli.options import boot
from tinyc.shell import shell as shell_module
from tinyc.shell.shell import COMMANDS, Shell
from tinyc.shell.terminal import ShellCompleter


def make_shell(interactive: bool = True) -> tuple[Shell, io.BytesIO]:
    """A shell on a pipe console; ``interactive`` as a terminal makes it, with the .e and .debug hooks."""
    p = argparse.ArgumentParser()
    machine_options(p)
    out = io.BytesIO()
    machine, ws = boot(p.parse_args([]), Console(io.BytesIO(b""), out))
    ws.append(b"main [ pn 1 ]\n")
    shell = Shell(machine, ws)
    if interactive:
        shell.interactive = True
        shell.edit_buffer = lambda: None
        shell.debugger = lambda text: None
    return shell, out


def test_the_table_has_one_entry_per_name():
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names)) and all(n.startswith(".") for n in names)


def test_every_command_is_in_the_help(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    shell, out = make_shell()
    shell.dot(b".h")
    shell.console.flush()
    text = out.getvalue().decode()
    for command in COMMANDS:
        assert f"  {command.form} " in text and command.help[:40] in text, command.name


def test_every_command_completes():
    shell, _ = make_shell()
    completer = ShellCompleter(lambda: ["main"], shell.commands)

    def texts(line: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(line), CompleteEvent(True))]
    assert {c.name for c in COMMANDS} <= set(texts("."))
    assert texts(".deb") == [".debug"]


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_every_command_dispatches_to_its_handler(command, monkeypatch):
    seen: list[tuple[str, bytes]] = []
    table = [c._replace(handler=lambda shell, rest, name=c.name: seen.append((name, rest)))
             for c in COMMANDS]
    monkeypatch.setattr(shell_module, "COMMANDS", table)
    shell, _ = make_shell()
    shell.dot(command.name.encode() + b" 3")
    assert seen == [(command.name, b" 3")]


def test_nothing_dispatches_outside_the_table(monkeypatch):
    """With an empty table each former command is unknown (``???``) and ``.x`` does not end the shell;
    statements and line numbers, the line forms, still work."""
    monkeypatch.setattr(shell_module, "COMMANDS", [])
    shell, out = make_shell()
    for command in COMMANDS:
        assert shell.dot(command.name.encode() + b" x") is False
    shell.console.flush()
    assert out.getvalue().count(b"???") == len(COMMANDS) - 1  # .debug x is the statement `debug x`
    shell.dot(b".pn 7")
    shell.console.flush()
    assert b" 7" in out.getvalue()


def test_unknown_characters_are_unknown():
    shell, out = make_shell()
    names = {c.name for c in COMMANDS}
    unknown = [ch for ch in string.punctuation + string.ascii_letters if "." + ch not in names]
    for ch in unknown:
        out.seek(0)
        out.truncate()
        shell.dot(b"." + ch.encode())
        shell.console.flush()
        assert out.getvalue() == b"???\r\n", ch


def test_a_pipe_obeys_only_the_originals_commands():
    shell, out = make_shell(interactive=False)
    assert [c.name for c in shell.commands()] == [".r", ".w", ".p", ".d", ".l", ".c", "./", ".x"]
    shell.dot(b".h")
    shell.console.flush()
    assert out.getvalue() == b"???\r\n"
