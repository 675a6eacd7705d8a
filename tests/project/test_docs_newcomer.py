"""Issue 26's documentation items: figures that say how to rerun them, no links to files outside the
repository, the project's words explained, extras installed the way the README installs, benchmarks that
say what they need, and bca.tc's random numbers where bca users look."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks/README.md"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_no_link_to_the_spec_outside_the_repository(path):
    assert "shared/spec" not in path.read_text()


def test_the_readme_says_what_issue_seed_and_reference_mean():
    text = (ROOT / "README.md").read_text()
    words = text.split("## Words these docs use")[1].split("\n## ")[0]
    assert "**issue N**" in words and "**seed NNN**" in words and "004" in words and "**the reference**" in words


def test_programs_md_is_not_a_draft_and_names_the_numbers_that_stop_bca():
    text = (ROOT / "docs/programs.md").read_text()
    assert "draft" not in text
    assert "error 6" in text and "2026" in text and "3141" in text
    assert "pip install -e ." not in text


def test_the_hex_phase_figures_are_the_measured_ones_and_say_how_to_rerun():
    for name in ("README.md", "docs/solver.md"):
        text = (ROOT / name).read_text()
        assert "14.40" not in text and "| 36 | 9.7 |" not in text and "| 0 | 9.7 |" not in text
        assert "benchmarks/bench_solver.py --table" in text


def test_extras_are_installed_as_the_readme_installs():
    for path in DOCS:
        for command in re.findall(r"pip install ([^`\n]*)", path.read_text()):
            if "[" in command and "-e" not in command:
                assert "test" in command, (path.name, command)  # with the set-up's extra, not a bare '.[plot]'
    from tinyc.solver.plot import _MISSING
    assert "pip install '.[test,plot]'" in _MISSING


@pytest.mark.parametrize("script", ["shell_buffer.py", "whole.py", "parse_scaling.py"])
def test_a_benchmark_without_pyperf_says_what_it_needs(script, tmp_path):
    (tmp_path / "pyperf.py").write_text("raise ImportError('no pyperf here')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script)], capture_output=True, text=True,
                       env=env, timeout=120, cwd=ROOT)
    assert r.returncode == 1 and "Traceback" not in r.stderr and ".[test,bench]" in r.stderr
