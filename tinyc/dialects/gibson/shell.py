"""``tinyc --dialect gibson``: a small shell for the Gibson dialect (the dialect's ``shell`` hook).

Gibson's ``tc`` has no shell of its own: it runs one application file (``tc [-r CODE] FILE``).  This shell
keeps an application in a buffer and runs statements against it the way ``tc -r CODE`` does, each run laid
out and linked afresh (gibson-dialect.md 1.3).  A line typed at ``tc>`` is:

* ``.r FILE`` read FILE into the buffer (replacing it); ``.p`` print the buffer; ``.n`` empty it;
* ``.x`` leave (so does the end of the input);
* ``.STATEMENT`` run STATEMENT (``.main()``, ``.pn 6*7``) with the buffer as the application: its
  ``#include`` lines are found beside the current directory, then in the dialect's library;
* any other line is added to the end of the buffer.
"""

from __future__ import annotations

import os
import tempfile

from .machine import BANNER

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from ...driver.session import Session


class GibsonShell:
    """The buffer and the commands; ``session`` gives the console (commands and program I/O share it)."""

    def __init__(self, session: Session):
        self.session, self.console = session, session.console
        self.buffer = bytearray()

    def say(self, text: str) -> None:
        self.console.write(text.encode("latin-1", "replace") + b"\n")

    def command(self, line: bytes) -> bool:
        """Obey one typed line; True to leave."""
        text = line.rstrip(b"\r\n")
        if not text.startswith(b"."):
            self.buffer += text + b"\n"
            return False
        word, _, rest = text[1:].decode("latin-1").partition(" ")
        if word == "x" and not rest.strip():
            return True
        if word == "p" and not rest.strip():
            self.console.write(bytes(self.buffer))
        elif word == "n" and not rest.strip():
            self.buffer.clear()
        elif word == "r" and rest.strip():
            self.read(rest.strip())
        else:
            self.run(text[1:].decode("latin-1"))
        return False

    def read(self, name: str) -> None:
        try:
            with self.session.files.open(name, "rb") as f:
                self.buffer[:] = f.read().replace(b"\r", b"")
        except OSError as e:
            self.say(f"{name}: {e.strerror or 'cannot be read'}")

    def run(self, statement: str) -> None:
        """Run ``statement`` against the buffer as ``tc -q -r STATEMENT`` runs it."""
        with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
            path = os.path.join(tmp, "shell.tc")
            with open(path, "wb") as f:
                f.write(bytes(self.buffer))
            outcome = self.session.execute([path], None, statement)
        if outcome.report:  # stopped, or why the program cannot start: in the shell's own output
            self.console.write(outcome.report.encode("latin-1", "replace"))
        self.console.flush()

    def loop(self) -> int:
        """The banner, then prompt and obey lines until ``.x`` or the end of input; exit status 0."""
        self.console.write(BANNER)
        while True:
            self.console.write(b"tc> ")
            self.console.flush()
            line = self.console.read_line()
            if line is None or self.command(line):
                break
        self.console.write(b"\n")
        self.console.flush()
        return 0


def shell(session: Session, args=None) -> int:
    """The dialect's ``shell`` hook: a :class:`GibsonShell` over ``session`` (quiet runs: no banner each);
    ``args``, the command line's options, are the session's already."""
    session.quiet = True
    return GibsonShell(session).loop()
