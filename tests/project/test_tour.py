"""The docs stay true: docs/architecture.md's embedded outputs are current, docs/language.md's examples
print what the page says, and each example program says what it teaches."""

import importlib.util
import io
import re
from pathlib import Path

import pytest

from tinyc.machine.console import Console
from tinyc import Session
from tinyc.driver.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


def _make_tour():
    spec = importlib.util.spec_from_file_location("make_tour", ROOT / "docs" / "make_tour.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_architecture_tour_is_current():
    tour = _make_tour()
    text = tour.DOC.read_text()
    assert tour.BLOCK.search(text), "no tour blocks found"
    fresh = tour.render(text)
    assert fresh == text, "docs/architecture.md is stale: run python docs/make_tour.py and review the diff"


def test_tour_shows_a_syntax_error_report():
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert " 3 --- err  9\n  pn 2+\n       <\n[exit status 1]" in text


EXAMPLE = re.compile(r"<!-- example -->\n```c\n(?P<code>.*?)```\n```text\n(?P<out>.*?)```", re.S)
EXAMPLES = EXAMPLE.findall((ROOT / "docs" / "language.md").read_text())


def _run(code: str) -> str:
    out = io.BytesIO()
    m, ws = Session(console=Console(io.BytesIO(), out, strip_cr=True)).boot()
    assert ws.append(code.encode())
    err, cursor = ws.run(b"main")
    m.console.flush()
    assert err == 0, ws.report(err, cursor)
    return out.getvalue().decode()


def test_language_page_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("code,expected", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_language_examples_print_what_the_page_says(code, expected):
    assert _run(code).lstrip("\n") == expected


def test_differences_match_reference_section_14():
    """One numbered difference per decision of section 14 of the reference."""
    spec = Path("/work/shared/spec/tinyc-reference.md")
    page = (ROOT / "docs" / "language.md").read_text().split("## Differences from the original")[1]
    count = len(re.findall(r"^\d+\. ", page, re.M))
    if spec.exists():
        decisions = spec.read_text().split("## 14.")[1]
        assert count == len(re.findall(r"^\d+\. \*\*", decisions, re.M))
    assert count == 21


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.tc")), ids=lambda p: p.name)
def test_each_example_says_what_it_teaches(path):
    first = path.read_text().splitlines()[0]
    assert first.startswith("/*") and "teaches" in first
