"""``tinyc boot FILE`` (or ``tinyc FILE.ipl``): boot a system file (IPL) as the original did (reference
section 9): its first statement is the program, usually a shell written in tiny-c."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from ..driver.dialect import DEFAULT
from ..machine.console import align_report
from ..machine.shipped import read_source
from .options import chosen_dialect, session_of


def cmd_boot(args: argparse.Namespace) -> int:
    """``tinyc boot FILE`` (or ``tinyc FILE.ipl``): boot a system file; no library unless it holds one."""
    from ..driver.outcome import outcome_of
    from ..errors import ErrorCode, error_report
    dialect = chosen_dialect(args, args.file)
    session = session_of(args, dialect=dialect)
    if dialect != DEFAULT:  # a system file is tiny-c/PC's; another dialect runs the file as its program
        return session.execute([args.file], None, args.code).render()
    text = read_source(args.file, limit=args.memory)
    m = session.machine()
    answered = _note_reads(m.console)
    booted = [True]

    def boot() -> None:
        booted[0] = m.boot_ipl(text)

    def report(code: int, address: int) -> str:
        return align_report(error_report(code, b"\n" + text, address + 1), sys.stderr.isatty())
    try:
        outcome = outcome_of(boot, report, interrupt=session.interrupt)
    finally:
        m.console.flush()
    if not booted[0]:
        print(f"tinyc: {args.file} is not a system file (IPL): it has no first statement to boot; "
              f"`tinyc run {args.file}` runs a program", file=sys.stderr)
        return 2
    if outcome.failed and outcome.code == ErrorCode.KILL and m.console.at_eof:
        if m.console.last != b"\n":  # end the prompt's line, as the shell does at the end of input
            m.console.write(b"\r\n")
            m.console.flush()
        return 0  # end of input at the IPL's own prompt: exit, as the shell does (14 item 10)
    if not outcome.failed and not outcome.interrupted and answered() and m.console.last != b"\n":
        # the system's shell read its last command (.x) after its prompt and wrote nothing more: without a
        # terminal's echo of that line the OS prompt would follow tc> on its line; end it, as tinyc's does
        m.console.write(b"\r\n")
        m.console.flush()
    return outcome.render()


def _note_reads(console: Any) -> Callable[[], bool]:
    """Wrap ``console``'s reads and writes; the function returned tells whether the last thing the program
    did with it was to read input (what it wrote last was a prompt, answered)."""
    state = {"read": False}

    def wrap(name: str, read: bool) -> None:
        original = getattr(console, name)

        def call(*args, **kw):
            result = original(*args, **kw)
            state["read"] = read
            return result
        setattr(console, name, call)
    for name in ("read_line", "read_char"):
        wrap(name, True)
    for name in ("write", "put"):
        wrap(name, False)
    return lambda: state["read"]
