"""The program's console in the Jupyter kernel: output sent as stream messages while the program runs,
input lines taken from the lines a cell queued (``%input``, a ``%debug`` cell's body) and then asked of
the front end with Jupyter's input request.

Output is buffered as in :class:`~tinyc.machine.console.Console` (one byte at a time from ``ps``) and
coalesced: a cell's output is one stream message, sent when the program asks for input (before the input
request) and when the run ends, so a notebook run twice saves the same outputs (nbclient keeps each stream
message as an output of its own). For a front end that takes input (JupyterLab, jupyter console: someone
watches) output that has waited :data:`INTERVAL` seconds is sent before that: a flusher thread looks every
:data:`TICK` seconds and then sends the whole lines buffered (an unfinished line once it has waited alone),
so a long run still shows its progress; a front end that takes none runs the notebook as a batch (nbclient,
``jupyter execute``, papermill), and a long run's output stays one message there too
(:attr:`KernelConsole.progress`). The flusher and the program's thread share the buffer: the program only
appends to its end (atomic under the GIL), and a flush takes the bytes it has copied from the front under a
lock, so no byte is sent twice or lost.
"""

from __future__ import annotations

import codecs
import threading
import time
from typing import Callable

from ..machine.console import Console

INTERVAL = 1.0  # seconds output waits before it is sent while a program runs (a shorter run: one send)
TICK = 0.1      # seconds between two looks of the flusher at the buffer
LIMIT = 1 << 20  # bytes buffered before they are sent whatever the time (the base console's is 8 KiB)


class NoInput(Exception):
    """The front end sends no input (a notebook run by a tool, or ``allow_stdin`` false)."""


class KernelConsole(Console):
    """A console whose output goes to ``send(text)`` (a stream message) and whose input lines come from
    ``queued`` and then from ``ask(prompt)`` (Jupyter's input request: the program's unfinished
    output line is its prompt; raises :class:`NoInput` when the front end has no input to give, EOFError
    at the end of input).  CR bytes are dropped from the output, as a notebook shows lines."""

    def __init__(self, send: Callable[[str], None], ask: Callable[[str], str]):
        import io
        super().__init__(io.BytesIO(), io.BytesIO(), strip_cr=True)
        self.send = send
        self.ask = ask
        self.queued: list[bytes] = []   # input lines given before the run (%input, a %debug cell's body)
        self.no_input = False           # the program read past its input, and the front end had none
        self.interrupted = False        # the stop button ended an input request: no more input this cell
        self.progress = True            # a long run's output is sent as it waits (False: a batch run's cell)
        self._chars = b""               # the rest of a line that read_char hands out
        self._lock = threading.RLock()
        self._answered = False          # the front end answered an input request; no output since
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    # -- output
    def flush(self, final: bool = True) -> None:
        """Send what is buffered; ``final`` False (the base console's full buffer): only past :data:`LIMIT`
        bytes, and the bytes that start a UTF-8 character wait for the rest."""
        if not final and len(self._buf) < LIMIT:
            return  # the run's output stays one message
        with self._lock:
            self._send(len(self._buf), final)

    def flush_lines(self) -> None:
        """The flusher's send, of output that has waited :data:`INTERVAL`: the whole lines buffered, else
        the unfinished line (a prompt that the program's input read follows at once is taken before, to
        become the input request's prompt)."""
        with self._lock:
            n = len(self._buf)
            cut = self._buf.rfind(b"\n", 0, n) + 1
            self._send(cut or n, False)

    def _send(self, n: int, final: bool) -> None:
        """Send the first ``n`` bytes buffered (the caller holds the lock)."""
        if not n:
            return
        data = bytes(self._buf[:n])
        del self._buf[:n]
        if self._answered:
            # the front end shows the answered prompt as a line of its own: the line end that tiny-c's
            # pl writes first (pl "..." is newline, then the text) would make a blank line after it
            self._answered = False
            for end in (b"\r\n", b"\n"):
                if data.startswith(end):
                    data = data[len(end):]
                    break
            if not data:
                return
        self._last = data[-1:]
        text = self._decoder.decode(data.replace(b"\r", b""), final)
        if text:
            self.send(text)

    def streaming(self) -> _Streaming:
        """A context in which a thread sends the output that has waited :data:`INTERVAL` seconds."""
        return _Streaming(self)

    # -- input
    def _line(self) -> bytes | None:
        """The next input line: a queued one, else one asked of the front end (None: none comes)."""
        if self.queued:
            line = self.queued.pop(0)
            self.write(line + b"\n")  # shown in the output, as a terminal echoes what is typed
            return line
        with self._lock:  # the program's unfinished line becomes the prompt, not a line of its own
            cut = self._buf.rfind(b"\n") + 1
            self._send(cut, True)
            prompt = bytes(self._buf)
            self._buf.clear()
        if self.interrupted:
            return None
        try:
            text = self.ask(prompt.replace(b"\r", b"").decode("utf-8", "replace"))
        except KeyboardInterrupt:
            # a program stops here; the debugger, which takes Ctrl-C at its prompt as "clear the line",
            # reads again and gets the end of its input, so it quits
            self.interrupted = True
            raise
        except NoInput:
            self.no_input = True
            return None
        except EOFError:
            return None
        self._last = b"\n"
        self._answered = True
        return text.encode("utf-8", "surrogateescape")

    def read_line(self) -> bytes | None:
        """A line for the running program (MC 15), or None at the end of input."""
        if self._chars:
            rest, self._chars = self._chars.rstrip(b"\n"), b""
            return rest
        line = self._line()
        if line is None:
            self.at_eof = True
        return line

    def read_char(self) -> int | None:
        """A byte for the running program (MC 2): lines are read whole, then handed out byte by byte."""
        if not self._chars:
            line = self._line()
            if line is None:
                self.at_eof = True
                return None
            self._chars = line + b"\n"
        c, self._chars = self._chars[0], self._chars[1:]
        return c

    def key_ready(self) -> int:
        """MC 12: no key is ever waiting in a notebook."""
        return 0

    def reset(self) -> None:
        """Before a cell: no queued input or half-read line left from the last one."""
        self.queued.clear()
        self._chars = b""
        self.no_input = False
        self.interrupted = False
        self.at_eof = False
        self._answered = False


class _Streaming:
    """The flusher thread's life: started on entry (unless the console shows no progress), stopped (and the
    rest sent) on exit."""

    def __init__(self, console: KernelConsole):
        self.console = console
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tinyc-output", daemon=True)

    def _run(self) -> None:
        since: float | None = None  # when the flusher first saw the output it holds now
        while not self.stop.wait(TICK):
            if not self.console._buf:
                since = None
                continue
            now = time.monotonic()
            if since is None:
                since = now
            elif now - since >= INTERVAL:
                self.console.flush_lines()
                since = now if self.console._buf else None

    def __enter__(self) -> KernelConsole:
        if self.console.progress:
            self.thread.start()
        return self.console

    def __exit__(self, *exc) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()
        self.console.flush()
