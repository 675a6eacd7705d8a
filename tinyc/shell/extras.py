"""What the ``tc>`` shell adds on a terminal for users of today's REPLs (issue 26): numbered listings
(``.n``), undo (``.u``), a fresh buffer (``.k``, ``.o FILE``), an expression's value (``.= EXPR``), hints for
the words other shells leave with, a warning for a binary file read, and ``.h`` at any width.

None of it is seen through a pipe, where the shell stays byte for byte the original's (``.n`` and the
others print ``???`` there, as any unknown letter did)."""

from __future__ import annotations

import shutil
import textwrap

from ..machine.shipped import looks_binary  # noqa: F401  (.r's warning: the same test as tinyc run's)

UNDO_DEPTH = 50  # edits kept for .u; each is a copy of the buffer (at most 90000 bytes)

# the words other shells and REPLs leave or ask for help with, typed as a statement or a program line
LEAVE_WORDS = frozenset({b"quit", b"exit", b"q", b"bye", b"logout", b"help", b"h", b"?"})
LEAVE_HINT = b"  .x leaves the shell, .h lists the commands"

def numbered(lines: bytes, first: int) -> bytes:
    """Program ``lines`` (each ending in LF) with their numbers, from ``first``, right-aligned in 5 columns."""
    return b"".join(b"%5d  %s" % (first + i, line) for i, line in enumerate(lines.splitlines(keepends=True)))


# what other shells and REPLs take: typed at tc> they are program lines like any other
OTHER_SHELLS = frozenset({b"clear", b"cls", b"ls", b"dir", b"pwd", b"cd", b"exit()", b"quit()", b"help()"})


def leave_word(text: bytes) -> bool:
    """Whether ``text`` is a word a user types to leave or for help (``quit``, ``exit``, ``help``...)."""
    return text.strip().lower() in LEAVE_WORDS


def other_shell_word(text: bytes) -> bool:
    """Whether ``text`` is a word to leave, for help or of another shell (``exit()``, ``clear``, ``ls``)."""
    word = text.strip().lower()
    return word in LEAVE_WORDS or word in OTHER_SHELLS


def help_lines(forms: list[tuple[str, str]], codes: list[bytes], width: int | None = None) -> list[bytes]:
    """``.h``: each command with its description, then the error numbers; in two columns where the terminal
    is at least 80 columns wide, else one, and each description wrapped to the width (``width`` None: the
    terminal's)."""
    width = width or shutil.get_terminal_size((80, 24)).columns
    out = [b"", b"commands:"]
    for form, text in forms:
        wrapped = textwrap.wrap(text, max(20, width - 16)) or [""]
        out.append(b"  %-12s %s" % (form.encode(), wrapped[0].encode()))
        out += [b" " * 15 + more.encode() for more in wrapped[1:]]
    out.append(b"errors ( N --- err  E, then the line and a < under the point):")
    per_row = 2 if width >= 80 else 1
    for i in range(0, len(codes), per_row):
        out.append(b"  " + b"  ".join(b"%-34s" % c for c in codes[i:i + per_row]).rstrip())
    return out
