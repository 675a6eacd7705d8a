"""The playground (issue 28, docs/web.md): web/glue.py in plain CPython, then the site that web/build.py
builds, served on 127.0.0.1 and driven in Debian's headless Chromium through Selenium.

The browser tests need npm (to build), chromium and chromium-driver (.ci/run installs them).  Where one is
missing they are skipped, saying what to install (tests/system_tools.py); with TINYC_REQUIRE_SYSTEM=1, as
.ci/run sets it, they fail instead.  npm and pip downloads are kept in ~/.cache/tinyc-web (or $TINYC_WEB_CACHE),
so a second run builds without the network.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from system_tools import need

# Chromium and Pyodide: each page load is seconds of CPU: .ci/run runs it, the README's test command leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ERROR_PROGRAM = "main [\n  int a(3)\n  pn a(7)\n]\n"
INPUT_PROGRAM = 'main [\n  int n\n  ps "number? "\n  n = gn\n  pn n * 2\n]\n'


def load_glue():
    spec = importlib.util.spec_from_file_location("tinyc_web_glue", ROOT / "web" / "glue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tinyc_run(tmp: Path, source: str, *options: str, stdin: bytes = b"") -> dict:
    """`tinyc run program.tc OPTIONS` in ``tmp``, as the page's result dict (text as the page decodes it)."""
    (tmp / "program.tc").write_bytes(source.encode())
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "program.tc", *options], cwd=tmp,
                          input=stdin, capture_output=True)
    return {"stdout": done.stdout.decode(), "stderr": done.stderr.decode(), "status": done.returncode}


# ---- the glue, in CPython -----------------------------------------------------------------------------

@pytest.fixture
def glue(tmp_path):
    module = load_glue()
    here = os.getcwd()
    module.setup(str(tmp_path / "home"), disk_cache=True)  # (off would set TINYC_NO_CACHE for every later test)
    yield module
    os.chdir(here)


@pytest.mark.parametrize("source,stdin,options", [
    ((ROOT / "examples/hello.tc").read_text(), "", {}),
    (ERROR_PROGRAM, "", {}),
    (INPUT_PROGRAM, "21\n", {"engine": "fast"}),
    ((ROOT / "examples/gibson/hello.tc").read_text(), "", {"dialect": "gibson"}),
])
def test_glue_runs_as_tinyc_run(glue, tmp_path, source, stdin, options):
    argv = [a for k, v in options.items() for a in (f"--{k}", v)]
    assert glue.run(source, stdin=stdin, **options) == tinyc_run(tmp_path, source, *argv, stdin=stdin.encode())


def test_glue_caps_endless_output_and_refuses_binary_and_huge_programs(glue):
    r = glue.run('main [ while 1 [ pl "endless" ] ]\n')
    assert r["status"] == 141 and len(r["stdout"].encode()) == glue.MAX_OUTPUT
    assert "the page stopped the program: its output passed 1048576 bytes" in r["stderr"]
    r = glue.run('main [\n pl "x\0y"\n]\n')
    assert r["status"] == 2 and "binary data (character U+0000 in line 2)" in r["stderr"]
    r = glue.run("/* x\n" * 300_000)
    assert r["status"] == 2 and "the program is too large" in r["stderr"]


def test_glue_play_stops_where_the_program_waits_for_a_line(glue):
    source = INPUT_PROGRAM.replace("pn n * 2", "pn n * 2\n  n = gn")
    r = glue.play(source)
    assert r == {"stdout": "number? ", "stderr": "", "status": 1, "waiting": True}
    r = glue.play(source, stdin="21\n")
    assert r["waiting"] and r["stdout"] == "number? 21\n 42"  # the line typed, echoed; then the next read
    assert glue.play(INPUT_PROGRAM, stdin="21\n") == {"stdout": "number? 21\n 42\n", "stderr": "", "status": 0,
                                                      "waiting": False}


def test_glue_views_and_shell(glue, tmp_path):
    (tmp_path / "program.tc").write_text(ERROR_PROGRAM)
    tokens = subprocess.run([sys.executable, "-P", "-m", "tinyc", "tokens", "program.tc"], cwd=tmp_path,
                            capture_output=True, text=True).stdout
    assert glue.view(ERROR_PROGRAM, "tokens") == tokens
    assert "no view 'nope'" in glue.view(ERROR_PROGRAM, "nope")
    shell = glue.WebShell()
    assert shell.start().endswith("\r\ntc>")
    assert shell.line(".r hello.tc").endswith("tc>")
    assert "Hello, world!" in shell.line(".main")
    assert shell.line(".x") == "\r\n" and shell.exited


def test_the_glue_keeps_the_default_sandbox(glue, tmp_path):
    # issue 35: a share link is someone else's program.  The playground gives no --allow-... option: its
    # runs and its tc> shell keep the default sandbox (the worker's home), code files included.
    (tmp_path / "secret.txt").write_text("SECRET\n")
    peek = f'char b(100)\nmain [ pn readfile("{tmp_path}/secret.txt",b,b+99,1); pn writefile("evil.py",b,b+2,1) ]\n'
    done = glue.run(peek)
    assert done["status"] == 0 and "SECRET" not in done["stdout"] and done["stdout"].split()[-1] == "-1"
    assert "--allow-write-code allows it" in done["stderr"]
    assert not (tmp_path / "home" / "evil.py").exists()
    shell = glue.WebShell()
    shell.start()
    assert "Not allowed: outside the sandbox" in shell.line(f".r {tmp_path}/secret.txt")
    assert "Not allowed: a program may not create" in shell.line(".w evil.py")


# ---- the site in Chromium ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    need(CHROMIUM, CHROMEDRIVER, "npm", install="apt-get install chromium chromium-driver npm")
    assert importlib.util.find_spec("selenium"), "selenium comes with the test extra: pip install '.[test]'"
    folder = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, str(ROOT / "web" / "build.py"), str(folder)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def page(site, tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(150)
    driver.get(site)
    wait_ready(driver)
    yield driver
    driver.quit()


def call(driver, script: str, *args):
    """Run ``script`` in the page; it gives its result by resolving a Promise (the last expression)."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"Promise.resolve((() => {{ {script} }})()).then(done, e => done('JS error: ' + e));", *args)


def wait_ready(driver) -> None:
    assert call(driver, "return tinyc.ready.then(() => true)") is True


def page_run(driver, source: str, **options):
    options = {"dialect": "", "entry": "main", "stdin": "", **options}
    return call(driver, "tinyc.load(arguments[0], arguments[1]); return tinyc.run(arguments[1]);", source, options)


def wait_text(driver, css: str, predicate, timeout: float = 60) -> str:
    from selenium.webdriver.support.ui import WebDriverWait
    found: list[str] = []

    def check(d):
        found[:] = [d.find_element("css selector", css).get_attribute("textContent")]
        return predicate(found[0])
    WebDriverWait(driver, timeout).until(check)
    return found[0]


def test_the_page_runs_hello_as_tinyc_run(page, tmp_path):
    source = (ROOT / "examples/hello.tc").read_text()
    assert page_run(page, source) == tinyc_run(tmp_path, source)
    page.find_element("id", "run").click()
    assert "Hello, world!" in wait_text(page, "#output", lambda t: "Hello" in t)


def test_a_program_reads_the_input_box(page, tmp_path):
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", INPUT_PROGRAM)
    box = page.find_element("id", "stdin")
    box.clear()
    box.send_keys("21\n")
    page.find_element("id", "run").click()
    assert wait_text(page, "#output", lambda t: "42" in t) == tinyc_run(tmp_path, INPUT_PROGRAM, stdin=b"21\n")["stdout"]


def test_an_error_is_reported_with_its_caret(page, tmp_path):
    expected = tinyc_run(tmp_path, ERROR_PROGRAM)
    assert expected["stderr"] == " 3 --- err  6\n  pn a(7)\n         <\n" and expected["status"] == 1
    assert page_run(page, ERROR_PROGRAM) == expected
    page.find_element("id", "run").click()
    shown = wait_text(page, "#error", lambda t: "subscript out of range" in t)  # (its meaning follows)
    assert shown == expected["stderr"] + "err 6: subscript out of range"


def test_each_stage_view(page, tmp_path):
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", INPUT_PROGRAM)
    page.find_element("id", "tab-views").click()
    marks = {"tokens": "FNAME", "parse": "funcdef", "ast": "Function", "link": "main",
             "trace": "call main()", "python": "def f_main"}
    for name, mark in marks.items():
        page.find_element("id", f"view-{name}").click()
        text = wait_text(page, f'#view[data-view="{name}"]', lambda t: t != "…")
        assert mark in text, (name, text[:300])
    (tmp_path / "program.tc").write_text(INPUT_PROGRAM)
    ast = subprocess.run([sys.executable, "-P", "-m", "tinyc", "ast", "program.tc"], cwd=tmp_path,
                         capture_output=True, text=True).stdout
    assert call(page, "return tinyc.view('ast')") == ast


def test_a_share_link_opens_the_program(page, site):
    source = 'main [\n  pl "shared é"\n]\n'
    call(page, "tinyc.load(arguments[0], {dialect: 'pc', entry: 'main', stdin: 'typed'})", source)
    page.find_element("id", "share").click()
    link = page.find_element("id", "share-link").get_attribute("value")
    assert link.startswith(site + "#code=")
    page.get("about:blank")
    page.get(link)
    wait_ready(page)
    assert page.find_element("id", "source").get_attribute("value") == source
    assert page.find_element("id", "stdin").get_attribute("value") == "typed"
    assert "shared é" in call(page, "return tinyc.run().then(r => r.stdout)")


def choose_example(driver, name: str) -> None:
    from selenium.webdriver.support.ui import Select
    menu = Select(driver.find_element("id", "examples"))
    menu.select_by_visible_text(next(o.text for o in menu.options if o.text.split(" ")[0] == name))


def test_bc_is_played_through_two_guesses(page):
    sys.path.insert(0, str(ROOT / "tests" / "programs"))
    from test_programs import SHOWN, code_of
    choose_example(page, "bc.tc")
    page.find_element("id", "stdin").clear()
    page.find_element("id", "play").click()
    secret, typed = "5831", "11"
    for guess_no in (1, 2, 3):
        wait_text(page, "#status", lambda t: t == "waiting for a line of input")
        page.find_element("id", "play-input").send_keys(typed + "\n")
        out = wait_text(page, "#output", lambda t: f"Guess {guess_no}: " in t).encode()
        shown = SHOWN.findall(out)
        assert [int(n) for n, _ in shown] == list(range(1, guess_no + 1))
        typed = code_of(shown[-1][1], secret).decode()
    # the lines typed are echoed into the game's transcript, as --echo shows them
    assert re.search(rb"Type a random number: 11\n\r\nGuess 1: \d{4}   score\? \d+\n", out)
    assert out.rstrip().endswith(b"score?")


def test_bca_plays_300_games_and_prints_seed_004s_table(page):
    recorded = (ROOT / "examples/bca-run.txt").read_text()
    table = recorded[recorded.index(" 296 1925"):recorded.index("tc>.x")].rstrip("\n") + "\n"
    choose_example(page, "bca.tc")
    assert page.find_element("id", "stdin").get_attribute("value") == "3141\n300\n"
    page.find_element("id", "run").click()
    wait_text(page, "#status", lambda t: t.startswith("exit status 0"), timeout=120)
    out = page.find_element("id", "output").get_attribute("textContent")
    assert out.replace("\r", "").endswith("(1-3024)? \n" + table)
    print("bca.tc, 300 games in the page:", call(page, "return tinyc.timings"))


def test_stop_ends_an_endless_program_and_the_page_goes_on(page):
    call(page, "tinyc.load('main [ while 1 [ ] ]', {dialect: '', entry: 'main', stdin: ''})")
    page.find_element("id", "run").click()
    wait_text(page, "#status", lambda t: t == "running…")
    page.find_element("id", "stop").click()
    assert wait_text(page, "#status", lambda t: "Stop" in t) == "stopped by the Stop button"
    wait_ready(page)
    assert page_run(page, 'main [ pl "again" ]')["stdout"] == "\r\nagain\n"


def test_bad_input_gets_a_clear_message(page):
    r = page_run(page, 'main [ while 1 [ pl "endless" ] ]')
    assert r["status"] == 141 and "output passed 1048576 bytes" in r["stderr"]
    r = page_run(page, "main [ pl \"\u0000\u0001\ufffd\" ]")
    assert r["status"] == 2 and "binary data" in r["stderr"]
    r = call(page, "tinyc.load('/*'.repeat(600000)); return tinyc.run({})")
    assert r["status"] == 2 and "too large" in r["stderr"]


def test_a_recursion_too_deep_for_the_browser_is_reported_and_the_page_goes_on(page):
    # the reference engine takes dozens of Python frames per tiny-c call: the browser's stack runs out
    # before tinyc's --max-depth (error 17) is reached, which leaves Pyodide unusable; the page replaces it
    deep = "f int n [ if (n) return f(n-1)\n return 0 ]\nmain [ pn f(5000) ]\n"
    r = page_run(page, deep, engine="reference")
    assert r["status"] == 1 and ("the browser's stack ran out" in r["stderr"] or "err  17" in r["stderr"]), r
    wait_ready(page)
    assert page_run(page, 'main [ pl "still here" ]', engine="")["stdout"] == "\r\nstill here\n"


def typed_in_terminal(page, keys: str, shown: str) -> str:
    """Type ``keys`` into the terminal at once, then its text once ``shown`` is in it (or after 10 s)."""
    page.find_element("css selector", "#terminal .xterm-helper-textarea").send_keys(keys)
    text = ""
    for _ in range(50):
        text = call(page, "return tinyc.terminalText()")
        if shown in text:
            break
        call(page, "return new Promise(r => setTimeout(r, 200))")
    return text


def test_the_tc_shell_in_the_terminal(page):
    page.find_element("id", "tab-terminal").click()
    wait_text(page, "#terminal", lambda t: "tc>" in t)
    text = typed_in_terminal(page, ".r hello.tc\n.main\n", "Hello, world!")  # the second line waits
    assert re.search(r"tc>\.main\s+Hello, world!", text), text
    page.find_element("id", "tab-output").click()


def test_the_gibson_dialects_shell_in_the_terminal(page):
    from selenium.webdriver.support.ui import Select
    page.find_element("id", "tab-terminal").click()
    wait_text(page, "#terminal", lambda t: "tc>" in t)
    dialect = Select(page.find_element("id", "dialect"))
    before = dialect.first_selected_option.get_attribute("value")
    dialect.select_by_value("gibson")
    wait_text(page, "#terminal", lambda t: "dialect gibson: a new shell starts" in t)
    text = typed_in_terminal(page, 'main [ printf "g%d%c", 6*7, 10 ]\n.main()\n', "g42")
    assert re.search(r"tc>\.main\(\)\s+g42", text), text
    dialect.select_by_value(before)             # "" (from the file) or "pc": tiny-c/PC's shell again
    wait_text(page, "#terminal", lambda t: "dialect pc: a new shell starts" in t)
    page.find_element("id", "tab-output").click()


def test_gibson_example_runs_in_its_dialect(page, tmp_path):
    source = (ROOT / "examples/gibson/hello.tc").read_text()
    r = page_run(page, source, dialect="gibson")
    assert r == tinyc_run(tmp_path, source, "--dialect", "gibson") and r["status"] == 0


def test_glue_completes_shell_lines_as_the_terminal_does(glue):
    """Issue 39: Tab in the playground's terminal asks the shell, as the terminal shell's completer does."""
    shell = glue.WebShell("pc")
    shell.start()
    shell.line(".r hello.tc")
    assert ".r" in shell.complete(".") and ".main" in shell.complete(".")
    assert shell.complete(".mai") == [".main"] and shell.complete(".pn strl") == [".pn strlen"]
    assert shell.complete(".pl \"mai") == []  # in a string: nothing
    assert shell.complete("mai") == []  # a program line: nothing


def test_terminal_line_editing_keys_edit_the_line_not_the_program(page):
    """Issue 39: arrows, Home, Delete, the history and Tab edit the terminal's line; no escape text gets
    into the program buffer (it did: `[A` became a program line, and every statement after failed, err 2)."""
    from selenium.webdriver.common.keys import Keys
    page.find_element("id", "tab-terminal").click()
    wait_text(page, "#terminal", lambda t: "tc>" in t)
    start = len(call(page, "return tinyc.terminalText()"))
    typed_in_terminal(page, ".p42" + Keys.ARROW_LEFT + Keys.ARROW_LEFT + "n \n", " 42")  # .pn 42
    typed_in_terminal(page, "x.pn 7" + Keys.HOME + Keys.DELETE + "\n", " 7")  # .pn 7
    text = typed_in_terminal(page, Keys.ARROW_UP + Keys.ARROW_UP + Keys.ARROW_DOWN + Keys.ARROW_UP + "\n", "")
    for _ in range(25):
        text = call(page, "return tinyc.terminalText()")[start:]
        if text.count("\n 42\n") >= 2:
            break
        call(page, "return new Promise(r => setTimeout(r, 200))")
    assert text.count("\n 42\n") == 2 and "\n 7\n" in text, text  # the history brought .pn 42 back
    text = typed_in_terminal(page, ".strl\t", ".strlen")[start:]
    assert ".strlen" in text  # Tab completed the library's function
    text = typed_in_terminal(page, Keys.CONTROL + "u" + ".pn 5\n", " 5")[start:]
    for escape in ("[A", "[B", "[C", "[D", "[H", "[3~"):
        assert escape not in text, text
    assert "err" not in text, text


def test_load_resets_the_entry_and_an_edit_unsets_the_example_and_the_share_link(page):
    """Issue 39: tinyc.load(source) kept the last program's entry (bc.tc's bullcow: error 26 next); the
    Example menu and the share link went on naming a program the editor no longer held."""
    chosen = call(page, """
        const select = document.getElementById("examples");
        const option = [...select.options].find((o) => o.textContent.includes("bullcow"));
        select.value = option.value; select.onchange();
        document.getElementById("share").click();
        return [document.getElementById("entry").value, document.getElementById("share-link").value];""")
    assert chosen[0] == "bullcow" and chosen[1]
    call(page, "document.querySelector('.CodeMirror').CodeMirror.replaceRange('/* mine */\\\\n', {line: 0, ch: 0})")
    assert call(page, "return [document.getElementById('examples').value, "
                      "document.getElementById('share-link').value]") == ["", ""]
    r = call(page, "tinyc.load('main [ pl \"ok\" ]'); return tinyc.run({})")
    assert r["status"] == 0 and r["stdout"].strip() == "ok", r
    assert call(page, "return document.getElementById('entry').value") == "main"


def test_a_narrow_screen_stacks_the_editor_above_the_output(page):
    size = page.get_window_size()
    try:
        page.set_window_size(760, 1000)
        left, right = call(page, "return [...document.querySelectorAll('main > .left, main > .right')]"
                                 ".map((e) => e.getBoundingClientRect().toJSON())")
        assert right["top"] >= left["bottom"] - 1 and right["width"] > 600, (left, right)
    finally:
        page.set_window_size(size["width"], size["height"])


def test_glue_explains_an_error_report(glue):
    r = glue.run(ERROR_PROGRAM)
    assert glue.explain(r["stderr"]) == {"meaning": "err 6: subscript out of range", "line": 3}
    assert glue.explain("tinyc: something else\n") == {}


def test_an_error_shows_its_meaning_and_marks_its_line(page):
    """Issue 39: the report was only `err 6`; now its meaning follows, and the editor marks line 3."""
    call(page, "tinyc.load(arguments[0])", ERROR_PROGRAM)
    page.find_element("id", "run").click()
    text = wait_text(page, "#error", lambda t: "subscript out of range" in t)
    assert "err 6: subscript out of range" in text
    marked = call(page, "return [...document.querySelectorAll('.CodeMirror .error-line')].length")
    assert marked == 1
    line = call(page, "return document.querySelector('.CodeMirror .error-line').parentNode.textContent")
    assert line.replace(" ", "") == "3pna(7)", line  # line 3 (its number in the gutter), the one that failed


def test_run_with_an_empty_input_box_says_the_program_waits_for_input(page):
    call(page, "tinyc.load(arguments[0])", INPUT_PROGRAM)
    page.find_element("id", "run").click()
    text = wait_text(page, "#error", lambda t: "waits for input" in t)
    assert text.startswith("stopped") and "standard input box" in text and "Play" in text


LOOP_AFTER_A_LINE = 'main [\n  pl "before the loop"\n  while 1 [ ]\n]\n'


def test_glue_hands_on_the_output_while_the_program_runs(glue):
    """Issue 39: a streamed run gives its output in pieces that add up to stdout; a line written before a
    long computation is handed on at once (not kept in the console's 8 KiB buffer), and a print loop is
    handed on in at most STREAM_BURST pieces per STREAM_INTERVAL, and one per 8 KiB (so it cannot flood the
    page)."""
    import time
    pieces: list[str] = []
    r = glue.run('main [\n  pl "one"\n  pl "two é"\n]\n', emit=pieces.append)
    assert r["status"] == 0 and "".join(pieces) == r["stdout"] == "\r\none\r\ntwo é\n"
    pieces.clear()
    source = 'main [\n  int i\n  pl "first"\n  while i < 3000 [ i = i + 1 ]\n  pl "last"\n]\n'
    glue.run(source, emit=pieces.append)
    so_far = ["".join(pieces[:n + 1]) for n in range(len(pieces))]
    first = next(n for n, text in enumerate(so_far) if "first" in text)
    assert "last" not in so_far[first], pieces  # "first" was handed on before the loop, not at the run's end
    pieces.clear()
    began = time.monotonic()
    r = glue.run('main [ while 1 [ pl "endless" ] ]\n', emit=pieces.append)
    took = time.monotonic() - began
    assert r["status"] == 141 and "".join(pieces) == r["stdout"]
    lines = r["stdout"].count("\n")
    most = glue.STREAM_BURST * (took / glue.STREAM_INTERVAL + 2) + len(r["stdout"]) / 8192  # + full buffers
    assert len(pieces) <= most < lines, (len(pieces), most, lines)


def test_output_shows_while_the_program_runs_and_stop_keeps_it(page):
    """Issue 39: the output showed only when a run ended, and Stop threw it away."""
    call(page, "tinyc.load(arguments[0])", LOOP_AFTER_A_LINE)
    page.find_element("id", "run").click()
    wait_text(page, "#output", lambda t: "before the loop" in t)
    assert page.find_element("id", "status").get_attribute("textContent") == "running…"  # still running
    page.find_element("id", "stop").click()
    wait_text(page, "#status", lambda t: t == "stopped by the Stop button")
    assert "before the loop" in page.find_element("id", "output").get_attribute("textContent")
    assert page.find_element("id", "error").get_attribute("textContent").startswith("stopped")
    wait_ready(page)
    # through the API: onOutput sees the line while the program runs, and the result keeps it after Stop
    r = call(page, """
        let seen = "";
        const run = tinyc.run({onOutput: (text) => { seen += text; if (seen.includes("loop")) tinyc.stop(); }});
        return run.then((r) => ({...r, seen}));""")
    assert r["status"] == 130 and "before the loop" in r["seen"] and "before the loop" in r["stdout"], r
    wait_ready(page)


def test_glue_play_hands_on_the_output_while_the_program_runs(glue):
    """Issue 39: Play streams through the same console as Run; the pieces add up to what the run wrote,
    which the result cuts where the program waits for a line."""
    pieces: list[str] = []
    source = INPUT_PROGRAM.replace("pn n * 2", "pn n * 2\n  n = gn")
    r = glue.play(source, stdin="21\n", emit=pieces.append)
    assert r["waiting"] and r["stdout"] == "number? 21\n 42" and "".join(pieces).startswith(r["stdout"])


def test_play_shows_the_output_while_the_program_runs_and_stop_keeps_it(page):
    """Issue 39: Play showed a program's output only when it waited for a line or ended; Stop threw it away.
    The second game replays the line typed: the transcript so far is not shown twice."""
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", LOOP_AFTER_A_LINE)
    page.find_element("id", "play").click()
    wait_text(page, "#output", lambda t: "before the loop" in t)
    assert page.find_element("id", "status").get_attribute("textContent") == "running…"  # still running
    page.find_element("id", "stop").click()
    wait_text(page, "#status", lambda t: t == "stopped by the Stop button")
    assert "before the loop" in page.find_element("id", "output").get_attribute("textContent")
    wait_ready(page)
    asks = 'main [\n  int n\n  ps "number? "\n  n = gn\n  pl "got"\n  pn n * 2\n  while 1 [ ]\n]\n'
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", asks)
    page.find_element("id", "play").click()
    wait_text(page, "#status", lambda t: t == "waiting for a line of input")
    page.find_element("id", "play-input").send_keys("21\n")
    out = wait_text(page, "#output", lambda t: "42" in t)
    assert page.find_element("id", "status").get_attribute("textContent") == "running…"  # still running
    assert out.count("number? ") == 1 and out.endswith("21\n\r\ngot 42"), repr(out)
    page.find_element("id", "stop").click()
    wait_text(page, "#status", lambda t: t == "stopped by the Stop button")
    assert page.find_element("id", "output").get_attribute("textContent") == out
    wait_ready(page)


def test_the_page_load_milestones_are_recorded_in_order(page):
    """Issue 39: where the page load's time goes (docs/web.md, benchmarks/web_load.py) is measured in the
    page and the worker; the milestones are all there, in their order (their durations are not tested).
    The worker starts first (boot.js) and loads while the page's scripts load, so "page-script" has no
    fixed place among the worker's milestones."""
    milestones = call(page, "return tinyc.timings.milestones")
    names = [name for name, _ in milestones]
    loading = ["worker-created", "worker-started", "pyodide-loaded", "packages-unpacked", "glue-imported",
               "first-run-done", "ready"]
    assert [name for name in names if name != "page-script"] == loading, milestones
    assert "page-script" in names and names[-1] == "ready"
    times = [ms for _, ms in milestones]
    assert times == sorted(times) and times[0] >= 0, milestones
    measures = call(page, "return performance.getEntriesByType('measure').map((m) => m.name)")
    assert "pyodide-loaded → packages-unpacked" in measures, measures


def test_glue_setup_seeds_the_cache_directory_without_overwriting(tmp_path, monkeypatch):
    """Issue 39: the page starts tinyc's cache directory with the key and Lark's analyses made at build time
    (web/precompile.mjs), private as tinyc wants them; a file already there is kept."""
    module = load_glue()
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "key").write_bytes(b"k" * 32)
    (seed / "lark-lexer-0.sealed").write_bytes(b"analysis")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cache" / "tinyc").mkdir(parents=True)
    (tmp_path / "cache" / "tinyc" / "key").write_bytes(b"mine" * 8)
    module.setup(str(tmp_path / "home"), disk_cache=True, cache_seed=str(seed))
    folder = tmp_path / "cache" / "tinyc"
    assert (folder / "key").read_bytes() == b"mine" * 8
    assert (folder / "lark-lexer-0.sealed").read_bytes() == b"analysis"
    assert (folder / "lark-lexer-0.sealed").stat().st_mode & 0o777 == 0o600


def test_the_site_ships_its_packages_compiled_with_lark_s_analyses(site):
    """Issue 39: the page load no longer compiles tinyc and Lark nor analyses the grammars: packages.zip
    holds Pyodide's bytecode of every module and tinyc's cache directory with both dialects' analyses."""
    import io
    import json
    import urllib.request
    import zipfile
    manifest = json.loads(urllib.request.urlopen(site + "manifest.json").read())
    names = zipfile.ZipFile(io.BytesIO(urllib.request.urlopen(site + manifest["packages"]).read())).namelist()
    assert "tinyc/cli/__pycache__/main.cpython-313.pyc" in names and "lark/__pycache__/lark.cpython-313.pyc" in names
    sources = [n for n in names if n.endswith(".py")]
    compiled = {n for n in names if n.endswith(".pyc")}
    missing = [n for n in sources if f"{n.rpartition('/')[0]}/__pycache__/{n.rpartition('/')[2][:-3]}.cpython-313.pyc"
               .lstrip("/") not in compiled]
    assert not missing, missing[:5]
    cache = sorted(n.split("/")[1].rsplit("-", 1)[0] for n in names if n.startswith("tinyc-web-cache/lark-"))
    assert cache == ["lark-gibson-lexer", "lark-gibson-parser", "lark-lexer", "lark-parser"]
    assert "tinyc-web-cache/key" in names
