"""Nothing below the command line sees argparse or ends the process (issue 36, "one options record"): the
driver takes :class:`tinyc.driver.options.MachineOptions`, and a run or a boot that fails is an
:class:`~tinyc.driver.outcome.Outcome`, not ``SystemExit``.  Read from the source with :mod:`ast`, so an
import under ``TYPE_CHECKING`` or inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BELOW_CLI = ["driver", "syntax", "link", "machine", "engines", "debug"]


def offences(source: str) -> list[str]:
    """``line: what`` for each ``import argparse`` / ``from argparse import ...`` and each ``raise
    SystemExit`` (bare, called, or ``sys.exit(...)``) in the Python ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "argparse" for a in node.names):
            found.append(f"{node.lineno}: import argparse")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "argparse":
            found.append(f"{node.lineno}: from argparse import")
        elif isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name) and target.id == "SystemExit":
                found.append(f"{node.lineno}: raise SystemExit")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "exit" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "sys":
            found.append(f"{node.lineno}: sys.exit")
    return found


def test_the_check_finds_what_it_looks_for():
    source = ("import argparse\nfrom argparse import Namespace\nimport sys\n"
              "def f():\n    raise SystemExit(2)\ndef g():\n    raise SystemExit\ndef h():\n    sys.exit(1)\n")
    assert [o.split(": ")[1] for o in offences(source)] == [
        "import argparse", "from argparse import", "raise SystemExit", "raise SystemExit", "sys.exit"]
    assert offences("raise ValueError('argparse')\nimport argparsex\n") == []


@pytest.mark.parametrize("package", BELOW_CLI)
def test_no_argparse_or_system_exit_below_the_command_line(package):
    bad = [f"{path.relative_to(ROOT)}:{o}" for path in sorted((ROOT / "tinyc" / package).rglob("*.py"))
           for o in offences(path.read_text(encoding="utf-8"))]
    assert not bad, "argparse or SystemExit below tinyc/cli:\n" + "\n".join(bad)
