"""Packaging (issue 14): SPDX licence with its file, the version in one place, the Pygments entry point,
shipped programs found by name, user directories from platformdirs, and an sdist that holds its tests."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import tinyc
from tinyc import dirs
from tinyc.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_licence_is_an_spdx_expression_with_its_file():
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_version_is_written_in_one_place():
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tinyc.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", tinyc.__version__)


def test_pygments_finds_the_tiny_c_lexer_by_entry_point():
    from importlib.metadata import entry_points
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    assert any(ep.value == "tinyc.shell.highlight:TinyCLexer" for ep in entry_points(group="pygments.lexers"))
    assert get_lexer_for_filename("bc.tc").name == "tiny-c"
    assert get_lexer_by_name("tinyc").name == "tiny-c"


def test_programs_and_examples_are_package_data():
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"tinyc.programs": "programs", "tinyc.examples": "examples"}
    assert {"tinyc.programs", "tinyc.examples"} <= set(setuptools["packages"])
    assert "*.tc" in setuptools["package-data"]["tinyc.programs"]


def test_shipped_programs_are_found_by_their_name_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = cli.find_program("bc.tc")  # the checkout's, or the installed package data's copy
    assert found.is_absolute() and found.read_bytes() == (ROOT / "programs/bc.tc").read_bytes()
    assert {"bc.tc", "bca.tc", "hello.tc", "gibson/hello.tc"} <= set(cli.shipped_programs())
    assert cli.find_program("gibson/hello.tc").is_absolute()  # a Gibson example by its relative name
    (tmp_path / "bc.tc").write_text("main [ ]\n")  # a file of the same name here comes first
    assert cli.find_program("bc.tc") == Path("bc.tc")


def test_help_says_how_to_reach_the_shipped_programs(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "tinyc run bc.tc --entry bullcow" in capsys.readouterr().out


def test_user_directories_come_from_platformdirs_and_tests_keep_out_of_the_real_ones():
    home = Path.home()
    for d in (dirs.cache_dir(), dirs.state_dir()):
        assert not d.is_relative_to(home / ".cache") and not d.is_relative_to(home / ".local")
        assert d.name == "tinyc"
    assert dirs.history_file().parent == dirs.state_dir()


def test_prune_removes_old_cache_files_only(tmp_path):
    import os
    import time
    old, new, kept = tmp_path / "ast-old.pickle", tmp_path / "ast-new.pickle", tmp_path / "ast-kept.pickle"
    for p in (old, new, kept):
        p.write_bytes(b"x")
    past = time.time() - 90 * 86400
    os.utime(old, (past, past))
    os.utime(kept, (past, past))
    assert dirs.prune(tmp_path, keep={"ast-kept.pickle"}, pattern="ast-*.pickle") == [old]
    assert not old.exists() and new.exists() and kept.exists()


def test_the_sdist_manifest_takes_the_tests_and_what_they_read():
    manifest = (ROOT / "MANIFEST.in").read_text().split()
    for part in ("tests", "docs", "programs", "examples", "benchmarks", "web", "editors"):
        assert part in manifest
