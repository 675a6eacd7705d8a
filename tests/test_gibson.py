"""The Gibson dialect (issue 15): the conformance cases of ``tests/conformance/gibson/``, on both engines.

Each case is ``NAME.tc`` run as ``tinyc run --dialect gibson NAME.tc`` from the case directory, with
``NAME.out`` the exact stdout bytes (banner, program output, ``done`` or the error report: that dialect
writes everything to stdout), ``NAME.in`` optional stdin, ``NAME.args`` optional options (shell
quoting), ``NAME.status`` the exit status if not 0.  The expected outputs come from the worked examples
of gibson-dialect.md section 8 (the original's own output) and from the rules of sections 2-6.
"""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

from tinyc import cli

HERE = Path(__file__).parent / "conformance" / "gibson"
CASES = sorted(p.stem for p in HERE.glob("*.tc"))
ENGINES = ["reference", "fast"]


def run_case(name: str, engine: str, monkeypatch) -> tuple[int, bytes, str]:
    base = HERE / name
    args = shlex.split(base.with_suffix(".args").read_text()) if base.with_suffix(".args").exists() else []
    stdin_bytes = base.with_suffix(".in").read_bytes() if base.with_suffix(".in").exists() else b""
    stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes))
    out_bytes = io.BytesIO()
    stdout = io.TextIOWrapper(out_bytes, write_through=True)
    stderr = io.StringIO()
    monkeypatch.chdir(HERE)
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    status = cli.main(["run", "--dialect", "gibson", "--engine", engine, *args, f"{name}.tc"])
    stdout.flush()
    return status, out_bytes.getvalue(), stderr.getvalue()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", CASES)
def test_case(name, engine, monkeypatch):
    base = HERE / name
    status, out, err = run_case(name, engine, monkeypatch)
    assert out.decode("latin-1") == base.with_suffix(".out").read_bytes().decode("latin-1")
    expected_status = int(base.with_suffix(".status").read_text()) if base.with_suffix(".status").exists() else 0
    assert status == expected_status, err
