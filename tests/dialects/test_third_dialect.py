"""A third dialect is one new package and no edit under ``tinyc/`` (issue 36).

``tests/dialects/toy/tinyc_toy`` is tiny-c/PC plus ``MC 99`` (prints ``toy!``, gives 42).  A fake installed
distribution -- ``toy-0.dist-info`` with ``METADATA`` and an ``entry_points.txt`` naming it in the group
``tinyc.dialects`` -- is written to a temporary folder put on ``PYTHONPATH`` with the package's folder, and
``python -P -m tinyc`` finds the dialect by its name: ``run``, a stage command, ``--help`` and completion, the
Session API.  Without the distribution, ``--dialect toy`` is a usage error.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOY = Path(__file__).resolve().parent / "toy"
PROGRAM = "main [\n  int x\n  x = MC 99\n  pl \"\"\n  pn x\n  pl \"\"\n]\n"


@pytest.fixture
def installed(tmp_path):
    """The environment of a Python that sees the toy dialect installed; the program file ``t.tc`` beside."""
    info = tmp_path / "site" / "toy-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[tinyc.dialects]\ntoy = tinyc_toy:DIALECT\n")
    (tmp_path / "t.tc").write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), str(TOY)]))
    return tmp_path, env


def tinyc(env, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], capture_output=True, env=env, cwd=cwd,
                          timeout=120)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_tinyc_run_finds_an_installed_dialect_by_its_name(installed, engine):
    folder, env = installed
    done = tinyc(env, "run", "--dialect", "toy", "--engine", engine, "t.tc", cwd=folder)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"toy!\r\n 42\r\n", b"")  # pl: CR LF, as tiny-c/PC
    pc = tinyc(env, "run", "--engine", engine, "t.tc", cwd=folder)  # the default dialect has no MC 99
    assert pc.returncode == 1 and b"err  24" in pc.stderr


def test_a_stage_command_runs_in_the_installed_dialect(installed):
    folder, env = installed
    done = tinyc(env, "trace", "--dialect", "toy", "t.tc", cwd=folder)
    assert done.returncode == 0 and done.stdout.startswith(b"toy!")
    assert b"x=42" in done.stderr
    ast_view = tinyc(env, "ast", "--dialect", "toy", "t.tc", cwd=folder)
    assert ast_view.returncode == 0 and b"MachineCall" in ast_view.stdout


def test_help_and_completion_list_the_installed_dialect(installed):
    folder, env = installed
    helped = tinyc(env, "run", "--help", cwd=folder)
    assert b"pc, gibson, toy" in b" ".join(helped.stdout.split())
    script = tinyc(env, "completion", "bash", cwd=folder)
    assert script.returncode == 0 and b"toy" in script.stdout


def test_the_session_api_runs_the_installed_dialect(installed):
    folder, env = installed
    code = ("import tinyc.driver.dialect as d; from tinyc.driver.session import Session\n"
            "s = Session('toy', 'fast')\n"
            "print(sorted(d.names()), s.dialect.title, flush=True)\n"
            "print(s.execute(['t.tc']).status)\n")
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, env=env, cwd=folder, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [b"['gibson', 'pc', 'toy'] toy: tiny-c/PC with MC 99 (a test dialect)",
                                        b"toy!", b" 42", b"0"]


def test_without_the_distribution_the_name_is_unknown(tmp_path):
    (tmp_path / "t.tc").write_text(PROGRAM)
    done = tinyc(dict(os.environ), "run", "--dialect", "toy", "t.tc", cwd=tmp_path)
    assert done.returncode == 2 and b"invalid choice: 'toy'" in done.stderr and b"Traceback" not in done.stderr


def test_an_entry_point_that_is_no_dialect_is_a_clear_error(monkeypatch):
    from importlib.metadata import EntryPoint

    import tinyc.driver.dialect as registry
    points = {"gone": EntryPoint("gone", "tinyc_no_such_module:DIALECT", registry.GROUP),
              "odd": EntryPoint("odd", "os:sep", registry.GROUP),
              "pc": EntryPoint("pc", "os:sep", registry.GROUP)}  # a shipped name is not taken over
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    assert registry.names() == [*registry._shipped(), "gone", "odd"]
    assert registry.find("pc").title.startswith("tiny-c/PC")
    with pytest.raises(registry.UnknownDialect, match="cannot be loaded"):
        registry.find("gone")
    with pytest.raises(registry.UnknownDialect, match="is not a tinyc.driver.dialect.Dialect"):
        registry.find("odd")
    with pytest.raises(registry.UnknownDialect, match="the dialects: pc, gibson, gone, odd"):
        registry.find("cobol")
    assert "odd" in registry.Choices() and "cobol" not in registry.Choices()
