"""A jupyter_client front end for the tiny-c kernel's tests (tests/kernel, tests/driver/test_door_matrix.py):
the kernelspec installed by ``python -m tinyc.kernel install --prefix`` into a temporary prefix, a kernel
started from it, and cells executed with their IOPub, stdin and shell messages read as Jupyter reads them."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager


def install(prefix) -> KernelSpecManager:
    """Install the kernelspec under ``prefix``; a manager that sees only it."""
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc.kernel", "install", "--prefix", str(prefix)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    kernels = prefix / "share" / "jupyter" / "kernels"
    return KernelSpecManager(kernel_dirs=[str(kernels)], ensure_native_kernel=False)


class Run:
    """One executed cell: its IOPub messages (before idle), the prompts it asked, its reply."""

    def __init__(self, messages, prompts, reply, events):
        self.messages, self.prompts, self.reply, self.events = messages, prompts, reply, events

    @property
    def stdout(self) -> str:
        return "".join(m["content"]["text"] for m in self.messages
                       if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")

    @property
    def streams(self) -> list[str]:
        return [m["content"]["text"] for m in self.messages if m["msg_type"] == "stream"]

    @property
    def error(self) -> list[str] | None:
        errors = [m["content"]["traceback"] for m in self.messages if m["msg_type"] == "error"]
        return errors[-1] if errors else None

    @property
    def status(self) -> str:
        return self.reply["content"]["status"]


def execute(kc, code: str, inputs: list[str] | None = None, timeout: float = 60, patience: float = 0) -> Run:
    """Execute ``code``; ``inputs`` answer its input requests in turn (None: the front end takes no
    input).  ``events`` records "stream", "input" (a request came) and "answer" in order: before it
    answers, it waits (at most ``patience`` seconds) for the output the program has written so far to
    arrive, which it can only do while the program runs (IOPub and stdin are two sockets)."""
    msg_id = kc.execute(code, allow_stdin=inputs is not None, stop_on_error=False)  # (else the next is aborted)
    messages, prompts, events = [], [], []

    def iopub(wait: float) -> bool:
        """Read one message of this cell; True at its idle status."""
        try:
            msg = kc.get_iopub_msg(timeout=wait)
        except queue.Empty:
            return False
        if msg["parent_header"].get("msg_id") != msg_id:
            return False
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return True
        if msg["msg_type"] == "stream":
            events.append("stream")
        messages.append(msg)
        return False
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if inputs is not None:
            try:
                request = kc.get_stdin_msg(timeout=0.01)
            except queue.Empty:
                pass
            else:
                prompts.append(request["content"]["prompt"])
                events.append("input")
                patience_ends = time.monotonic() + patience
                while "stream" not in events and time.monotonic() < patience_ends:
                    iopub(0.05)
                events.append("answer")
                kc.input(inputs.pop(0))
        if iopub(0.05):
            break
    else:
        raise AssertionError(f"no idle status for {code!r}")
    return Run(messages, prompts, shell_reply(kc, msg_id, timeout), events)


def shell_reply(kc, msg_id: str, timeout: float = 60) -> dict:
    """The reply to request ``msg_id`` (replies to earlier requests, wait_for_ready's, are passed over)."""
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply


@contextlib.contextmanager
def started(tmp: Path, env: dict[str, str] | None = None, ready: bool = True,
            **popen) -> Iterator[tuple[KernelManager, object]]:
    """A kernel of the kernelspec installed under ``tmp/prefix``, run in ``tmp`` with ``env`` (default: this
    process's environment) and ``popen``'s arguments (``stderr=FILE``), and its started client; ``ready``:
    after wait_for_ready (which sends kernel_info requests and drops the IOPub messages before their reply).
    Shut down on exit."""
    km = KernelManager(kernel_name="tinyc", kernel_spec_manager=install(tmp / "prefix"))
    km.start_kernel(cwd=str(tmp), env={**(os.environ if env is None else env), "JUPYTER_PLATFORM_DIRS": "1"},
                    **popen)
    kc = km.client()
    kc.start_channels()
    try:
        if ready:
            kc.wait_for_ready(timeout=120)
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
