"""Issue 39's kernel items, driven through jupyter_client as Jupyter drives the kernel (and through
``jupyter console`` in a pseudo-terminal): no blank line after an answered input request, a lone ] is not
complete, ``python -m tinyc.kernel --help`` is tinyc's, the stop button ends a ``%debug`` cell, a cell's
output is one stream output, and debugpy's frozen-modules warning is not shown."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("ipykernel")
pytest.importorskip("jupyter_client")

from kernel_client import execute, shell_reply, started  # noqa: E402


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kernel39")
    with started(tmp) as (km, kc):
        yield km, kc


def test_no_blank_line_after_an_answered_input_request(kernel):
    _, kc = kernel
    assert execute(kc, 'sc [ int n; ps "score? "; n = gn; pl "you said"; pn n ]').status == "ok"
    run = execute(kc, ".sc", inputs=["5"])
    assert run.prompts == ["score? "]
    assert run.stdout == "you said 5", run.streams  # not "\nyou said 5": the front end ended the line


def test_a_lone_closing_bracket_is_invalid_not_complete(kernel):
    _, kc = kernel
    for code, status in (("]", "invalid"), ("f [ pl 1 ] ]", "invalid"), ("f [", "incomplete"), ("f [ ]", "complete")):
        reply = shell_reply(kc, kc.is_complete(code))
        assert reply["content"]["status"] == status, code


def test_the_kernel_module_help_is_tinycs():
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc.kernel", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m tinyc.kernel install") and "IPython" not in done.stdout


@pytest.mark.parametrize("cell", ["%debug pn twice 4", "%input b twice\n%input r\n%debug pn twice 4"],
                         ids=["at-the-first-prompt", "at-a-breakpoint"])
def test_the_stop_button_ends_a_debug_cell_waiting_for_a_command(kernel, cell):
    km, kc = kernel
    assert execute(kc, "twice int n [ return n*2 ]").status == "ok"
    msg_id = kc.execute(cell, allow_stdin=True, stop_on_error=False)
    assert kc.get_stdin_msg(timeout=60)["content"]["prompt"] == "(tc-db) "
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=30)
    assert reply["content"]["status"] == "error" and reply["content"]["traceback"] == ["stopped"]
    assert execute(kc, "pn twice 5").stdout == " 10"  # the kernel takes the next cell


LINES = 'lines int n [ int i; while i < n [ pl "line "; pn i; i = i + 1 ] ]\n'
NOTEBOOK = {  # a cell's source: what its one stream output starts with
    "%engine reference\n" + LINES + "lines 300": "engine reference\n\nline  0\nline  1\n",
    "%input 3\nask [ int n; ps \"n? \"; n = gn; lines n ]\n.ask": "n? 3\n\nline  0",
    # a long run (seconds): where nobody watches (nbclient takes no input), its output is one message too
    "%engine fast\nslow [ int i, k; while k < 4 [ i = 0; while i < 2000000 [ i = i + 1 ]; k = k + 1; "
    "pl \"tick\" ] ]\n.slow": "engine fast\n\ntick\ntick\ntick\ntick",
}


def run_notebook(nb, tmp, nbclient):
    """A copy of notebook ``nb`` as a fresh nbclient run leaves it (a kernel of its own; no timings)."""
    import copy

    from jupyter_client.manager import KernelManager
    from kernel_client import install
    nb = copy.deepcopy(nb)
    km = KernelManager(kernel_name="tinyc", kernel_spec_manager=install(tmp / "prefix"))
    nbclient.NotebookClient(nb, km=km, timeout=120, startup_timeout=120, record_timing=False,
                            resources={"metadata": {"path": str(tmp)}}).execute()
    return nb


def test_a_cells_output_is_one_stream_output_and_a_rerun_saves_the_same(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "tinyc", "display_name": "tiny-c"}})
    nb.cells = [nbformat.v4.new_code_cell(source) for source in NOTEBOOK]
    first, second = (run_notebook(nb, tmp_path, nbclient) for _ in range(2))
    for cell, starts in zip(first.cells, NOTEBOOK.values()):
        assert [o["output_type"] for o in cell.outputs] == ["stream"], cell.outputs
        assert cell.outputs[0]["text"].startswith(starts)
    assert first.cells[0].outputs[0]["text"].endswith("\nline  299")
    assert nbformat.writes(first) == nbformat.writes(second)  # the .ipynb is not rewritten


def first_cells_in_jupyter_console(tmp) -> str:
    """What ``jupyter console --simple-prompt`` shows for the first two cells (``pn 6*7``, ``pn 1``) on the
    tiny-c kernel, with ``PYDEVD_DISABLE_FILE_VALIDATION`` unset.  ipykernel imports debugpy lazily (for its
    first kernel_info reply), once the kernel's stderr goes to IOPub; the console shows the warning with the
    first cells' output, where a plain jupyter_client front end (tests/kernel/kernel_client.py) did not see
    it, in the kernel's stderr or on IOPub."""
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("jupyter_console")
    from kernel_client import install
    install(tmp / "prefix")
    env = {k: v for k, v in os.environ.items() if k != "PYDEVD_DISABLE_FILE_VALIDATION"}
    env.update(JUPYTER_PATH=str(tmp / "prefix/share/jupyter"), JUPYTER_PLATFORM_DIRS="1")
    console = pexpect.spawn(sys.executable, ["-m", "jupyter_console", "--simple-prompt", "--kernel", "tinyc"],
                            env=env, cwd=str(tmp), encoding="utf-8", timeout=120)
    try:
        console.expect(r"In \[1\]: ")
        console.sendline("pn 6*7")
        console.expect(r"In \[2\]: ")
        shown = console.before
        # the warning is a stderr stream message that a loaded machine may flush after the first cell's reply;
        # the console prints such late output with the next cell, so a second cell collects it
        console.sendline("pn 1")
        console.expect(r"In \[3\]: ")
        shown += console.before
        console.sendeof()
        if console.expect([pexpect.EOF, r"exit \(\[y\]/n\)\? "]):
            console.sendline("y")  # the console shuts its kernel down
            console.expect(pexpect.EOF)
    finally:
        console.close(force=True)
    assert " 42" in shown
    return shown


def test_jupyter_console_shows_no_frozen_modules_warning(tmp_path):
    # the kernel switches pydevd's file validation off (tinyc/kernel/__main__.py): the warning is not shown
    assert "frozen modules" not in first_cells_in_jupyter_console(tmp_path)


QUIET = "from tinyc.kernel.__main__ import quiet_debugger; quiet_debugger(); "  # the kernel's start-up step
DEBUGPY = "import debugpy.server.api"  # what ipykernel imports for its first kernel_info reply


@pytest.mark.parametrize("step, validation, warned", [
    (QUIET, None, False),  # the kernel's start: no warning
    ("", None, True),      # the control: without the step, the same import warns
    (QUIET, "0", True),    # a setting the user gives is kept
], ids=["kernel-start", "without-it", "user-setting-kept"])
def test_the_kernel_start_silences_debugpys_frozen_modules_warning(step, validation, warned):
    # the console shows the warning only when its IOPub subscription is up in time (not on a loaded machine),
    # so the control is this: the same import, with and without the kernel's start-up step before it
    env = {k: v for k, v in os.environ.items() if k != "PYDEVD_DISABLE_FILE_VALIDATION"}
    if validation is not None:
        env["PYDEVD_DISABLE_FILE_VALIDATION"] = validation
    done = subprocess.run([sys.executable, "-P", "-c", step + DEBUGPY], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert ("frozen modules are being used" in done.stderr) is warned, done.stderr
