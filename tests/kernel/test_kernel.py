"""The tiny-c Jupyter kernel (issue 28 part 2), driven as Jupyter drives it: the kernelspec installed by
``python -m tinyc.kernel install --prefix`` into a temporary prefix, the kernel started from it with
jupyter_client, cells executed and the IOPub, stdin and shell messages read."""

from __future__ import annotations

import base64
import json
import os
import sys
import time

import pytest

pytest.importorskip("ipykernel")
pytest.importorskip("jupyter_client")

from jupyter_client.manager import KernelManager  # noqa: E402
from kernel_client import execute, install, shell_reply, started  # noqa: E402

TWICE = "/* doubles n: the first example */\ntwice int n [ return n*2 ]\n"
ASK = 'ask [ int n; ps "n? "; n = gn; pn n*2 ]\n'


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kernel")
    with started(tmp) as (km, kc):
        yield km, kc, tmp


@pytest.fixture(autouse=True)
def ready(kernel):
    """Each test starts in the PC dialect on the reference engine, with ``twice`` and ``ask`` defined (the
    kernel is shared by the module's tests; a test may leave more in the program)."""
    _, kc, _ = kernel
    for cell in ("%dialect pc\n%engine reference", TWICE, ASK):
        assert execute(kc, cell).status == "ok", cell


def test_the_kernelspec_and_the_language_info(kernel, tmp_path):
    km, kc, _ = kernel
    spec = install(tmp_path).get_kernel_spec("tinyc")
    assert spec.argv[:4] == [sys.executable, "-P", "-m", "tinyc.kernel"] and spec.language == "tinyc"
    assert spec.interrupt_mode == "signal"
    sent = kc.kernel_info()
    info = shell_reply(kc, sent)["content"]["language_info"]
    assert info["pygments_lexer"] == "tinyc" and info["file_extension"] == ".tc"
    from pygments.lexers import get_lexer_by_name
    assert type(get_lexer_by_name(info["pygments_lexer"])).__name__ == "TinyCLexer"
    assert json.loads((tmp_path / "share/jupyter/kernels/tinyc/kernel.json").read_text())["display_name"] == "tiny-c"


def test_definitions_statements_and_a_redefinition(kernel):
    _, kc, _ = kernel
    assert execute(kc, TWICE).status == "ok"
    assert execute(kc, "pn twice 21").stdout == " 42"
    run = execute(kc, "thrice int n [ return n*3 ]\ntwice int n [ return n+n+0 ]\npn thrice twice 1")
    assert run.stdout == "twice: the earlier definition is replaced\n 6"
    assert execute(kc, "twice int n [ return n*2 ]").status == "ok"
    listing = execute(kc, ".1\n.p 1000").stdout
    execute(kc, "%engine reference")
    assert execute(kc, ".1\n.p 1000").stdout == listing  # a cell of magics alone adds nothing
    assert execute(kc, "int total\n").status == "ok"
    assert execute(kc, "total = 5; pn total * 2").stdout == " 10"


def test_an_error_is_the_shells_report_and_the_kernel_goes_on(kernel):
    _, kc, _ = kernel
    run = execute(kc, "pn 2+")
    assert run.status == "error" and run.error == [" 0 --- err  9", "pn 2+", "     <"]
    assert run.reply["content"]["ename"] == "tiny-c error 9"
    run = execute(kc, "boom [ pn nosuch 1 ]\n.boom")
    assert run.status == "error" and run.error[0].endswith("--- err  26")
    assert execute(kc, "pn twice 2").stdout == " 4"


def test_a_definition_the_linker_refuses_is_not_added(kernel):
    _, kc, _ = kernel
    before = execute(kc, ".1\n.p 1000").stdout
    run = execute(kc, "broken int n [ pn n")
    assert run.status == "error" and run.error[0].endswith("--- err  2") and run.error[-1].endswith("<")
    assert execute(kc, ".1\n.p 1000").stdout == before and execute(kc, "pn twice 1").stdout == " 2"


def test_dot_cells_are_shell_commands(kernel):
    _, kc, tmp = kernel
    program = tmp / "five.tc"  # in the kernel's directory: .r reads within the sandbox (issue 35)
    program.write_text("five [ return 5 ]\n")
    run = execute(kc, f".r {program}\n.pn five")
    assert run.stdout.startswith(" 18\n") and run.stdout.endswith(" 5")
    assert "five [ return 5 ]" in execute(kc, ".1\n.p 100").stdout
    assert ".r file" in execute(kc, ".h").stdout
    assert execute(kc, ".x").stdout == "???\n"  # the kernel stays: .x is not one of its commands


def test_input_by_input_request_and_output_streamed_before_it(kernel):
    _, kc, _ = kernel
    execute(kc, ASK)
    run = execute(kc, 'pl "first"; pl ""; ask', inputs=["21"], patience=5)  # (pl starts a line: ps "n? " follows)
    assert run.status == "ok" and run.stdout == "\nfirst\n 42" and run.prompts == ["n? "]
    assert run.events.index("stream") < run.events.index("answer")  # sent while the program waited


def test_no_input_says_how_to_give_it(kernel):
    _, kc, _ = kernel
    run = execute(kc, ".ask")
    assert run.status == "error" and "%input" in run.error[0]
    assert execute(kc, "%input 4\n.ask").stdout == "n? 4\n 8"


def test_a_long_run_streams_its_lines(kernel):
    # a run that never ends: its lines must come while it runs (at most a second apart), then the stop button
    km, kc, _ = kernel
    execute(kc, 'ticks [ int i; while 1 [ i = 0; while i < 20000 [ i = i + 1 ]; pl "tick" ] ]')
    msg_id = kc.execute(".ticks", allow_stdin=True, stop_on_error=False)  # a front end where someone watches
    streams = []
    while len(streams) < 2:
        msg = kc.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            streams.append(msg["content"]["text"])
    km.interrupt_kernel()
    assert shell_reply(kc, msg_id)["content"]["traceback"] == ["stopped"]
    assert all(text.strip("\n").split("\n") == ["tick"] * text.count("tick") for text in streams), streams


def test_interrupt_stops_the_program_and_keeps_the_buffer(kernel):
    km, kc, _ = kernel
    execute(kc, 'spin [ while 1 [ ] ]')
    before = execute(kc, ".1\n.p 1000").stdout
    msg_id = kc.execute(".spin", allow_stdin=False, stop_on_error=False)
    time.sleep(1.5)
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id)
    assert reply["content"]["status"] == "error" and reply["content"]["traceback"] == ["stopped"]
    assert km.is_alive()
    assert execute(kc, ".1\n.p 1000").stdout == before
    assert execute(kc, "pn twice 8").stdout == " 16"


def test_the_prompt_of_an_input_request_is_the_unfinished_line(kernel):
    _, kc, _ = kernel
    run = execute(kc, ".ask", inputs=["5"])
    assert run.prompts == ["n? "] and run.stdout == " 10"


def test_utf8_output_and_leaving_the_interpreter(kernel):
    _, kc, _ = kernel
    assert execute(kc, 'pl "h\u00e9llo"').stdout == "\nh\u00e9llo"
    assert execute(kc, ".exit").status == "ok"  # the library's exit ends the interpreter: the kernel goes on
    assert execute(kc, "pn twice 3").stdout == " 6"


def test_is_complete_while_a_bracket_is_open(kernel):
    _, kc, _ = kernel
    sent = kc.is_complete("f [ pn 1")
    assert shell_reply(kc, sent)["content"] == {"status": "incomplete", "indent": "  "}
    sent = kc.is_complete("f [ pn 1 ]")
    assert shell_reply(kc, sent)["content"]["status"] == "complete"


def test_an_interrupt_at_an_input_request_or_when_idle(kernel):
    km, kc, _ = kernel
    msg_id = kc.execute(".ask", allow_stdin=True, stop_on_error=False)
    assert kc.get_stdin_msg(timeout=60)["content"]["prompt"] == "n? "
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id)
    assert reply["content"]["status"] == "error" and reply["content"]["traceback"] == ["stopped"]
    km.interrupt_kernel()  # nothing runs: nothing happens
    time.sleep(0.5)
    assert km.is_alive() and execute(kc, "pn twice 5").stdout == " 10"


def test_completion(kernel):
    _, kc, _ = kernel
    sent = kc.complete("pn tw", 5)
    reply = shell_reply(kc, sent)["content"]
    assert reply["matches"] == ["twice"] and reply["cursor_start"] == 3
    sent = kc.complete("p", 1)
    assert {"pl", "pn", "ps"} <= set(shell_reply(kc, sent)["content"]["matches"])  # the library's
    sent = kc.complete("%eng", 4)
    assert shell_reply(kc, sent)["content"]["matches"] == ["%engine"]
    sent = kc.complete(".", 1)
    matches = shell_reply(kc, sent)["content"]["matches"]
    assert {".r", ".p", ".h", ".twice"} <= set(matches) and ".x" not in matches


def test_inspection_shows_parameters_and_leading_comment(kernel):
    _, kc, _ = kernel
    execute(kc, "/* adds a and b */\nadd int a, b [ return a+b ]")
    sent = kc.inspect("pn add 1, 2", 4)
    reply = shell_reply(kc, sent)["content"]
    assert reply["found"] and reply["data"]["text/plain"] == "add int a, b\n\nadds a and b"
    sent = kc.inspect("ps", 1)
    assert shell_reply(kc, sent)["content"]["data"]["text/plain"].startswith("ps char")
    sent = kc.inspect("nosuch", 2)
    assert not shell_reply(kc, sent)["content"]["found"]


def test_views_trace_and_engine(kernel):
    _, kc, _ = kernel
    assert "Call twice" in execute(kc, "%ast pn twice 3").stdout
    assert "FNAME" in execute(kc, "%tokens pn twice 3").stdout
    assert "twice" in execute(kc, "%link").stdout
    assert "call twice(3)" in execute(kc, "%trace pn twice 3").stdout
    assert execute(kc, "%engine fast\npn twice 50").stdout == "engine fast\n 100"
    assert execute(kc, "pn 2+").error == [" 0 --- err  9", "pn 2+", "     <"]  # the same on both engines
    assert execute(kc, "%engine reference").stdout == "engine reference\n"


def test_debug_reads_its_commands_from_input_lines(kernel):
    _, kc, _ = kernel
    run = execute(kc, "%input b twice\n%input r\n%input bt\n%input c\n%debug pn twice 4")
    assert "break at line" in run.stdout and "twice(n=4)" in run.stdout and " 8" in run.stdout


def test_the_gibson_dialect(kernel):
    _, kc, _ = kernel
    assert execute(kc, "%dialect gibson").stdout == "dialect gibson\n"
    assert execute(kc, 'main [ printf "g %d%c", 6*7, 10 ]').status == "ok"
    assert execute(kc, ".main").stdout.startswith("g 42\n")
    assert execute(kc, "%dialect pc\npn twice 1").stdout == "dialect pc\n 2"


def test_gibson_trace_and_debug(kernel):
    _, kc, _ = kernel
    execute(kc, "%dialect gibson")
    execute(kc, 'half int n [ return n/2 ]\nmain [ printf "%d%c", half(84), 10 ]')
    traced = execute(kc, "%trace").stdout
    assert "call half(84)" in traced and "half(84) returns 42" in traced and "\n42\n" in traced
    assert "call half(10)" in execute(kc, "%trace half(10)").stdout
    run = execute(kc, "%input b half\n%input r\n%input bt\n%input p n+1\n%input c\n%debug")
    assert run.status == "ok" and "break at line" in run.stdout
    assert "half(n=84)" in run.stdout and "n+1:  85" in run.stdout and "\n42\n" in run.stdout
    execute(kc, "%dialect pc")


def test_a_gibson_picture_is_shown_in_the_cell(kernel):
    _, kc, tmp = kernel
    execute(kc, "%dialect gibson")
    execute(kc, '#include pps/pyGraphicsLib.tc\npic [ start "kpic", 40, 30; rectangle 5, 5, 20, 10; show ]')
    run = execute(kc, ".pic")
    shown = [m["content"]["data"] for m in run.messages if m["msg_type"] == "display_data"]
    assert run.status == "ok" and len(shown) == 1
    assert base64.b64decode(shown[0]["image/png"]).startswith(b"\x89PNG")


@pytest.mark.parametrize("cell, says", [
    ("%nosuch", "unknown magic %nosuch: the kernel's magics are %dialect pc|gibson"),
    ("%engine turbo", "%engine turbo: accepted: %engine reference|fast"),
    ("%dialect c", "%dialect c: accepted: %dialect pc|gibson"),
    ("%link main", "%link takes no statement"),
    ("pn 1" + " + 1" * 40, "a statement cell is one line of at most 133 bytes"),
])
def test_bad_cells_say_what_is_accepted(kernel, cell, says):
    _, kc, _ = kernel
    run = execute(kc, cell)
    assert run.status == "error" and run.error[0].startswith(says)
    assert execute(kc, "pn 1").stdout == " 1"


# ---- issue 35: a shared notebook's cells keep the sandbox; %allow asks the person at the front end

def test_dot_r_and_w_keep_the_sandbox_until_the_front_end_allows(kernel, tmp_path):
    _, kc, _ = kernel
    (tmp_path / "seven.tc").write_text("seven [ return 7 ]\n")
    run = execute(kc, f".r {tmp_path}/seven.tc\n.w {tmp_path}/copy.tc\n.w {kernel[2]}/evil.py")
    assert "Not allowed: outside the sandbox (--allow-read PATH) -3" in run.stdout
    assert "Not allowed: outside the sandbox (--allow-write PATH) -1" in run.stdout
    assert "--allow-write-code allows it -1" in run.stdout
    assert not (tmp_path / "copy.tc").exists() and not (kernel[2] / "evil.py").exists()
    asked = f"%allow read {tmp_path}"
    refused = execute(kc, asked)  # a front end that sends no input (nbclient, papermill) cannot say yes
    assert refused.status == "error" and "not allowed: this front end sends no input" in refused.error[0]
    said_no = execute(kc, asked, inputs=["n"])
    assert said_no.status == "error" and said_no.prompts == [
        f"this notebook asks for --allow-read {tmp_path} (docs/security.md): allow it? [y/N] "]
    queued = execute(kc, f"%input y\n{asked}")  # the notebook cannot answer its own question
    assert queued.status == "error"
    assert execute(kc, "%allow").stdout.startswith("allowed: the default sandbox")
    assert "Not allowed" in execute(kc, f".r {tmp_path}/seven.tc").stdout
    said_yes = execute(kc, asked, inputs=["y"])
    assert said_yes.status == "ok" and said_yes.stdout == f"allowed: --allow-read {tmp_path}\n"
    assert execute(kc, f".r {tmp_path}/seven.tc\n.pn seven").stdout.endswith(" 7")
    assert execute(kc, "%allow").stdout == f"allowed: --allow-read {tmp_path}\n"
    bad = execute(kc, "%allow everything")
    assert bad.status == "error" and bad.error[0].startswith("%allow everything: accepted: %allow [read PATH|")


def test_files_in_the_notebooks_directory_are_not_imported_by_the_kernel(tmp_path):
    # issue 35 item 2: Jupyter starts the kernel in the notebook's directory; modules a program wrote there
    # (or found there) are imported neither at the start nor by the lazy cairocffi import of a drawing
    marker = tmp_path / "imported.txt"
    work = tmp_path / "work"
    work.mkdir()
    for name in ("cairocffi", "lark", "tinyc", "prompt_toolkit"):
        (work / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n")
    (work / "evil.pth").write_text(f"import os; open({str(marker)!r}, 'a').write('pth\\n')\n")
    km = KernelManager(kernel_name="tinyc", kernel_spec_manager=install(tmp_path / "prefix"))
    km.start_kernel(cwd=str(work), env={**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "TINYC_NO_CACHE": "1"})
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        execute(kc, "%dialect gibson")
        execute(kc, '#include pps/pyGraphicsLib.tc\npic [ start "kpic", 40, 30; rectangle 5, 5, 20, 10; show ]')
        run = execute(kc, ".pic")
        assert run.status == "ok" and any(m["msg_type"] == "display_data" for m in run.messages)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert not marker.exists(), marker.read_text()
