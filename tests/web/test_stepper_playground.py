"""The playground's Step tab (issue 37, docs/stepper.md): web/glue.py's record in CPython, then
``window.tinyc.record`` and ``stepTo`` on the built site in headless Chromium (the fixtures of test_web.py:
they build the site with npm and skip, saying what to install, without chromium, chromium-driver or npm)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_web import INPUT_PROGRAM, call, glue, page, site  # noqa: F401  (fixtures)
import pytest

# Chromium and Pyodide: each page load is seconds of CPU: .ci/run runs it, the README's test command leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FACT = (ROOT / "examples" / "fact.tc").read_text()


def test_glue_records_the_editors_program(glue):  # noqa: F811
    trace = json.loads(glue.record(FACT))
    assert trace["status"] == "done" and trace["output"].endswith("12! = 479001600\n")
    gibson = json.loads(glue.record((ROOT / "examples" / "gibson" / "fib.tc").read_text()))
    assert gibson["dialect"] == "gibson" and gibson["status"] == "done"  # its #include line chose the dialect
    short = json.loads(glue.record(FACT, limit=100))
    assert short["status"] == "limit" and len(short["steps"]) == 100


def test_the_step_tab_records_and_steps(page):  # noqa: F811
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", FACT)
    result = call(page, "return tinyc.record({})")
    assert isinstance(result, dict), result
    assert result["status"] == "done" and result["output"].endswith("12! = 479001600\n") and result["steps"] > 1000
    assert page.find_element("id", "pane-step").is_displayed()
    first = call(page, "return tinyc.stepTo(0)")
    assert first["line"] == 13 and first["frames"] == [{"function": "main", "line": 13, "locals": {}}]
    shown = page.find_elements("css selector", ".CodeMirror .cm-step-statement")
    assert "".join(e.get_attribute("textContent") for e in shown).strip() == "int n"  # the editor marks it
    state = call(page, "let best = 0, deep = 0; const go = async () => { for (let n = 0; n < arguments[0]; n += 7) {"
                       " const s = await tinyc.stepTo(n); if (s.frames.length > deep) { deep = s.frames.length; best = n; } }"
                       " return tinyc.stepTo(best); }; return go();", result["steps"])
    assert [f["function"] for f in state["frames"]][:2] == ["main", "fact"] and len(state["frames"]) >= 12
    call(page, "return tinyc.stepTo(5)")
    assert page.find_elements("css selector", ".CodeMirror .cm-step-expression")  # a small step: the operand
    assert call(page, "return tinyc.stepTo(0)") == first
    page.find_element("id", "step-into").click()
    page.find_element("id", "step-prev").click()
    assert call(page, "return tinyc.stepTo(Number(document.getElementById('step-slider').value))") == first


def test_the_step_tab_reads_the_input_box(page):  # noqa: F811
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: '21\\n'})", INPUT_PROGRAM)
    result = call(page, "return tinyc.record({})")
    assert result["status"] == "done" and result["output"].endswith("42")


def test_a_breakpoint_from_the_editors_gutter(page):  # noqa: F811
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", FACT)
    assert call(page, "return tinyc.record({})")["status"] == "done"
    gutters = page.find_elements("css selector", ".CodeMirror-gutter-wrapper .CodeMirror-linenumber")
    [line8] = [g for g in gutters if g.text == "8"]  # if(n<2) in fact
    line8.click()
    assert page.find_elements("css selector", ".cm-step-breakpoint")
    assert "breakpoint" in page.find_element("css selector", '#stepper .line[data-line="8"]').get_attribute("class")
    page.find_element("id", "step-continue").click()
    state = call(page, "return tinyc.stepTo(Number(document.getElementById('step-slider').value))")
    assert state["line"] == 8 and state["frames"][-1]["function"] == "fact"


def test_a_line_of_the_tokens_or_ast_view_selects_its_span(page):  # noqa: F811
    from test_web import wait_text
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", FACT)
    page.find_element("id", "tab-views").click()
    for name, line, wanted in (("tokens", 0, "fact"), ("ast", 5, "if(n<2) return 1")):
        page.find_element("id", f"view-{name}").click()
        wait_text(page, "#view", lambda t: len(t) > 100 and page.find_element("id", "view").get_attribute("data-view"))
        # a click at the start of the line: the caret there, then the click
        call(page, "const view = document.getElementById('view'), text = view.firstChild;"
                   "const at = view.textContent.split('\\n').slice(0, arguments[0]).join('\\n').length + (arguments[0] ? 1 : 0);"
                   "const r = document.createRange(); r.setStart(text, at); r.collapse(true);"
                   "getSelection().removeAllRanges(); getSelection().addRange(r); view.click();", line)
        assert call(page, "return editor.getSelection()") == wanted


SYNTAX_ERRORS = (  # a run reaches the bad line after pl "a" (section 14 item 16); the Step tab refuses the text
    ('main [\n  pl "a"\n  pn (1+\n]\n', 3, "err  9"),
    ('#include pps/library.tc\nmain [\n  int x\n  pl "a"\n  x = (3 +\n  pn x\n]\n', 6, "RPARERR"),
)


def test_a_syntax_error_shows_the_report_instead_of_a_stepper(page):  # noqa: F811
    for source, line, said in SYNTAX_ERRORS:
        call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", source)
        assert call(page, "return tinyc.record({})") == {"steps": 0, "status": "syntax", "output": ""}
        report = page.find_element("id", "step-report")
        assert report.is_displayed() and said in report.text and "pn" in report.text
        assert not page.find_elements("id", "step-slider") and not page.find_elements("id", "memory-map")
        assert "syntax error" in page.find_element("id", "step-state").text
        marked = page.find_elements("css selector", ".CodeMirror .error-line")
        assert "".join(e.get_attribute("textContent") for e in marked).strip() == source.split("\n")[line - 1].strip()


def show_view(page, name: str) -> None:
    from test_web import wait_text
    page.find_element("id", "tab-views").click()
    page.find_element("id", f"view-{name}").click()
    wait_text(page, "#view", lambda t: page.find_element("id", "view").get_attribute("data-spans"))


def cursor_at(page, line: int, ch: int) -> dict:
    """Place the editor's cursor at (line, ch), from 0; the view line it selected and what is highlighted."""
    return call(page, "editor.focus(); editor.setCursor({line: arguments[0], ch: arguments[1]});"
                      "const h = CSS.highlights.get('view-current'), s = tinyc.viewSelection();"
                      "return s && {...s, span: linked.spans[s.index], marked: h ? [...h][0].toString() : null,"
                      " scrolled: document.getElementById('view').scrollTop};", line, ch)


def test_the_editor_cursor_selects_the_innermost_node_of_the_open_view(page):  # noqa: F811
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", FACT)
    n_of_if = {"line": 7, "ch": 5}  # the n of if(n<2), line 8 column 6
    for name, wanted in (("tokens", r"^\s*8:6\s+NAME\s+n\b"), ("ast", r"^\s*left: Var n\s+8:6-8:7"),
                         ("parse", r"^\s*NAME 'n'$")):
        show_view(page, name)
        got = cursor_at(page, 7, 5)  # the cursor just before n (after the "(": the innermost is the later)
        assert got and re.search(wanted, got["text"]), (name, got)
        assert got["marked"] == got["text"] and got["span"]["from"] == n_of_if
    got = cursor_at(page, 7, 7)  # just before the 2 of n<2 (after <): the parse tree's NUMBER, its rule number around it
    assert got["text"].strip() == "NUMBER '2'"
    show_view(page, "link")
    assert "fact" in cursor_at(page, 8, 4)["text"] and "main" in cursor_at(page, 15, 4)["text"]
    # the view scrolls to the node: the last lines of bc.tc are far down its AST
    bc = (ROOT / "programs" / "bc.tc").read_text()
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'bullcow', stdin: ''})", bc)
    show_view(page, "ast")
    last = len(bc.rstrip("\n").split("\n")) - 2
    got = cursor_at(page, last, 3)
    assert got and got["scrolled"] > 0 and got["span"]["from"]["line"] <= last <= got["span"]["to"]["line"]


COUNTED = "main [\n  int k, s\n  for(k=0;k<10;++k) s=s+k\n  pn s\n]\n"
SCAN = 'f char s(0) [\n  int k\n  while(s(k)) ++k\n  return k\n]\nmain [ pn f("abc") ]\n'


def test_glue_shows_the_generated_python_without_an_optimisation(glue):  # noqa: F811
    every = glue.view(COUNTED, "python")
    assert "for v_k in range(" in every and "# for(k=0;k<10;++k) s=s+k" in every  # the tiny-c it came from
    plain, loops = glue.view(COUNTED, "python -O0"), glue.view(COUNTED, "python --no-counted-loops")
    for code in (plain, loops):
        assert "range(" not in code and "while (v_k < 10):" in code and "# for(k=0;k<10;++k) s=s+k" in code
    assert "(optimisations: none)" in plain and "(optimisations: bounds," in loops
    scan, walk = glue.view(SCAN, "python"), glue.view(SCAN, "python --no-scans")
    assert "# a scan: one bytes search" in scan and "# a scan:" not in walk and "# a walk:" in walk
    assert "no optimisation switch '--no-speed'" in glue.view(COUNTED, "python --no-speed")
    assert "takes no switches" in glue.view(COUNTED, "ast -O0")


def test_the_pages_optimisation_switch_names_each_optimisation():
    from tinyc.engines.options import NAMES
    html = (ROOT / "web" / "index.html").read_text()
    menu = html[html.index('<select id="view-optimise"'):]
    menu = menu[:menu.index("</select>")]
    assert re.findall(r'<option value="([^"]*)"', menu) == ["", "-O0"] + [f"--no-{n}" for n in NAMES]


def test_the_optimisation_switch_shows_what_it_changes(page):  # noqa: F811
    from selenium.webdriver.support.ui import Select
    from test_web import wait_text
    call(page, "tinyc.load(arguments[0], {dialect: '', entry: 'main', stdin: ''})", COUNTED)
    page.find_element("id", "tab-views").click()
    menu = Select(page.find_element("id", "view-optimise"))
    menu.select_by_value("")
    page.find_element("id", "view-python").click()
    every = wait_text(page, "#view", lambda t: "for v_k in range(" in t)
    menu.select_by_value("--no-counted-loops")  # the view follows the switch
    loops = wait_text(page, "#view", lambda t: "while (v_k < 10):" in t
                      and page.find_element("id", "view").get_attribute("data-changed"))
    assert "range(" not in loops and loops != every
    marked = call(page, "return [...CSS.highlights.get('view-changed')].map(r => r.toString())")
    assert any("while (v_k < 10):" in m for m in marked) and not any("# for(k=0;k<10;++k)" in m for m in marked)
    menu.select_by_value("--no-scans")  # scans: nothing here to change
    wait_text(page, "#view", lambda t: "optimisations: bounds" in t
              and page.find_element("id", "view").get_attribute("data-changed") == "0")
    menu.select_by_value("")
