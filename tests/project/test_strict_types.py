"""``mypy --strict`` holds for the modules read as the reference (issue 25, item 5; issue 36): the tree,
the errors, the syntax (lexer, parser, tree to AST), the linker, the machine (memory, console, machine
calls, sandbox), the reference evaluator, C division, the fast engine's caches, the driver (the dialect
registry too), the tracer, the stepper and the debugger's commands, memory dump and state.
pyproject.toml sets the same flags for them in an override, so that a plain ``mypy`` reports there what
``--strict`` would."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRICT = ["tinyc.ast", "tinyc.errors", "tinyc.syntax.*", "tinyc.link.*", "tinyc.machine.*", "tinyc.engines.evaluator",
          "tinyc.engines.cdiv", "tinyc.engines.caches", "tinyc.debug.*", "tinyc.driver.*"]


def _files() -> list[str]:
    out = []
    for module in STRICT:
        path = ROOT / Path(*module.split("."))
        out.append(str(path.parent if path.name == "*" else path / "__init__.py" if path.is_dir()
                       else path.with_suffix(".py")))
    return out


def test_pyproject_makes_them_strict():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    overrides = [o for o in config["tool"]["mypy"]["overrides"] if o.get("disallow_untyped_defs")]
    assert len(overrides) == 1 and overrides[0]["module"] == STRICT
    assert overrides[0]["warn_return_any"] and overrides[0]["disallow_any_generics"]


def test_mypy_strict_passes():
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                             "--no-incremental", *_files()], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
