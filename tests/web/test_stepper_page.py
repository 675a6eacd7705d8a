"""The stepper page that ``tinyc step -o`` writes (issue 37, docs/stepper.md), opened from a file in headless
Chromium (no server, no network): fact.tc, bc.tc with a few guesses, a Gibson program; the middle of a
recursion; stepping back to step 0; a breakpoint; an error at its step; screenshots of each pane.

Needs chromium and chromium-driver (skipped, saying so, where they are missing: tests/system_tools.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from system_tools import need
from test_web import CHROMEDRIVER, CHROMIUM, call

# Chromium: each page load is seconds of CPU: .ci/run runs it, the README's test command leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "stepper"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    need(CHROMIUM, CHROMEDRIVER, install="apt-get install chromium chromium-driver")
    assert importlib.util.find_spec("selenium"), "selenium comes with the test extra: pip install '.[test]'"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1400,1000",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(120)
    yield driver
    driver.quit()


def open_page(driver, tmp: Path, program: str, *options: str) -> None:
    out = tmp / (Path(program).stem + ".html")
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "step", program, "-o", str(out), *options],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    driver.get(out.as_uri())
    assert call(driver, "return window.tinyc.stepTo(0).then(s => s.step)") == 0


def step_to(driver, n: int) -> dict:
    return call(driver, "return window.tinyc.stepTo(arguments[0])", n)


def steps(driver) -> int:
    return call(driver, "return window.tinyc.trace.steps.length")


def text(driver, css: str) -> str:
    return driver.find_element("css selector", css).get_attribute("textContent")


def click(driver, element_id: str) -> None:
    driver.find_element("id", element_id).click()


def shown_state(driver) -> dict:
    """What the panes show now: the step counter, highlighted lines and expression, frames, output, memory map."""
    return call(driver, """
      const q = (s) => [...document.querySelectorAll(s)].map(e => e.textContent);
      return {counter: q('#step-counter')[0], lines: q('.line.current, .line.current-statement'), expr: q('mark.expr'),
              frames: q('#frames .frame'), changed: q('#frames tr.changed'), output: q('#step-output')[0],
              memory: q('#memory-map .cell'), now: q('#step-now')[0]};""")


def test_fact_frames_in_the_middle_of_the_recursion_and_back_to_step_0(browser, tmp_path):
    open_page(browser, tmp_path, str(ROOT / "examples" / "fact.tc"))
    start = shown_state(browser)
    assert start["counter"].startswith("step 0 of")
    depths = call(browser, "const r = new TinycStepper.Replay(tinyc.trace);"
                           "return tinyc.trace.steps.map((s, i) => r.depth(i));")
    deepest = depths.index(max(depths))
    state = step_to(browser, deepest)
    assert [f["function"] for f in state["frames"]] == ["main"] + ["fact"] * 12
    assert [f["locals"]["n"]["value"] for f in state["frames"][1:]] == list(range(12, 0, -1))
    assert len(browser.find_elements("css selector", "#frames .frame")) == 13
    middle = shown_state(browser)
    assert middle["changed"] == [] or all(r.startswith("n") for r in middle["changed"])
    stored = call(browser, "return tinyc.trace.steps.findIndex((s, i) => i > 0 && s.m && s.k === 'e')")
    step_to(browser, stored)  # n=1: the for's init stored into main's n
    assert [r[:2] for r in shown_state(browser)["changed"]] == ["n1"]  # n, now 1, marked
    step_to(browser, deepest)
    # small steps back and forward show the same state as going there directly
    for _ in range(5):
        click(browser, "step-prev")
    for _ in range(5):
        click(browser, "step-into")
    assert shown_state(browser) == middle
    # back to step 0 by the slider's key and by stepping: the state first shown
    assert step_to(browser, 0)["frames"] == [{"function": "main", "line": 13, "locals": {}}]
    assert shown_state(browser) == start
    click(browser, "step-next")
    click(browser, "step-prev-statement")
    assert shown_state(browser) == start


def test_statements_over_calls_and_a_breakpoint(browser, tmp_path):
    open_page(browser, tmp_path, str(ROOT / "examples" / "fact.tc"))
    click(browser, "step-next")  # the for header, line 14
    assert step_line(browser) == 14
    for _ in range(4):
        click(browser, "step-over")
    assert step_line(browser) == 18  # pn fact(n): over the calls of pl, pn and ps
    click(browser, "step-over")  # over fact(n): on to the for header again
    assert step_line(browser) == 14
    browser.find_element("css selector", '.line[data-line="8"] .gutter').click()  # if(n<2) in fact
    click(browser, "step-continue")
    state = call(browser, "return window.tinyc.stepTo(Number(document.getElementById('step-slider').value))")
    assert state["line"] == 8 and state["frames"][-1]["function"] == "fact"
    assert "breakpoint" in browser.find_element("css selector", '.line[data-line="8"]').get_attribute("class")


def step_line(driver) -> int:
    return call(driver, "return window.tinyc.stepTo(Number(document.getElementById('step-slider').value)).then(s => s.line)")


def test_bc_with_a_few_guesses(browser, tmp_path):
    open_page(browser, tmp_path, "bc.tc", "--entry", "bullcow", "--input", "1234\\n9\\n9\\n")
    n = steps(browser)
    assert n > 130_000
    last = step_to(browser, n - 1)
    assert "Guess 1" in last["output"] and "Guess 2" in last["output"]
    assert call(browser, "return window.tinyc.status") == "stopped"  # the input ran out
    cells = browser.find_elements("css selector", "#memory-map .cell")
    assert any(c.get_attribute("data-name") == "c" for c in cells)  # the global array of the 3024 codes
    assert "… 3008 more" in text(browser, '#memory-map .cell[data-name="c"]')
    assert len(browser.find_elements("css selector", "#memory-map .element")) < 2000  # by region, not 1 MiB
    first = step_to(browser, 0)
    assert first["output"] == "" and first["line"] == 13


def test_a_gibson_program(browser, tmp_path):
    open_page(browser, tmp_path, str(ROOT / "examples" / "gibson" / "fib.tc"))
    n = steps(browser)
    state = step_to(browser, n // 2)
    assert state["frames"][0]["function"] == "main" and state["frames"][-1]["function"] in ("fib", "fib2")
    assert step_to(browser, n - 1)["output"].startswith("return n:     0 1 0 1 1 2 3 5 8 13")


def test_an_error_shows_its_report_at_its_step(browser, tmp_path):
    program = tmp_path / "div.tc"
    program.write_text('div int a, b [\n  return a/b\n]\nmain [\n  pl "before"\n  pn div(6, 0)\n]\n')
    open_page(browser, tmp_path, str(program))
    assert not browser.find_element("id", "step-error").is_displayed()
    last = steps(browser) - 1
    step_to(browser, last)
    report = browser.find_element("id", "step-error")
    assert report.is_displayed() and "err" in report.text and "return a/b" in report.text


@pytest.mark.parametrize("source, said", [
    ("#include pps/library.tc\nmain() {\n}\n", "LBRCERR"),                   # Gibson: its bracket check
    ('#include pps/library.tc\nmain [\n  pl "a"\n  pn (1+\n]\n', "SYNXERR"),  # Gibson: a statement
    ('main [\n  pl "a"\n  pn (1+\n]\n', "err  9"),                             # tiny-c/PC: a statement
])
def test_a_syntax_error_shows_the_report_instead_of_a_stepper(browser, tmp_path, source, said):
    # a run would reach the bad statement after pl "a" (section 14 item 16): the page refuses the whole text
    program = tmp_path / "bad.tc"
    program.write_text(source)
    open_page_any(browser, tmp_path, str(program))
    assert browser.find_elements("id", "step-slider") == []
    assert said in text(browser, "#step-report")


def open_page_any(driver, tmp: Path, program: str) -> None:
    out = tmp / "bad.html"
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "step", program, "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "syntax error" in done.stderr, done.stderr  # and the page shows why
    driver.get(out.as_uri())


def test_screenshots_of_each_pane(browser, tmp_path):
    """Each pane is on screen with what it must show; with TINYC_SCREENSHOTS=1 the pictures go to docs/stepper/
    (the README's)."""
    open_page(browser, tmp_path, str(DOCS / "pointer.tc"))
    target = call(browser, "const t = tinyc.trace; return t.steps.findIndex((s, i) => s.k === 'e' "
                           "&& t.spans[s.n][0] === 6 && s.v === 9 && t.spans[s.n][1] > 20)")
    assert target > 0
    state = step_to(browser, target)
    assert state["expression"] == "k*k" and [f["function"] for f in state["frames"]] == ["main", "fill"]
    for css in ("#stepper", "#step-slider", "#step-into", "#step-over", "#frames", "#memory-map", "#step-output",
                "#step-source", "mark.expr", "#memory-map .cell[data-name='sq'] .element"):
        assert browser.find_element("css selector", css).is_displayed(), css
    arrows = browser.find_elements("css selector", "#memory-map path.arrow")
    assert sorted(a.get_attribute("data-from") for a in arrows) == ["p", "v"]
    for pane, name in (("#stepper", "stepper.png"), ("#memory-map", "memory-map.png")):
        picture = browser.find_element("css selector", pane).screenshot_as_png
        assert picture[:8] == b"\x89PNG\r\n\x1a\n" and len(picture) > 5000
        if os.environ.get("TINYC_SCREENSHOTS"):
            (DOCS / name).write_bytes(picture)
