"""The syntax stage as one pipeline (issue 36): one driver runs each pass once, in order, passing data
forward; the modules call only downward; Gibson's front end goes through the same driver."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from tinyc import ast
from tinyc.errors import ErrorCode, TinyCError
from tinyc.syntax import pipeline

ROOT = Path(__file__).resolve().parents[2]
# the syntax modules from the top (the driver, 0) down, as the layer contract in pyproject.toml orders them
RANK = {"pipeline.py": 0, "to_ast.py": 1, "runtime_names.py": 1, "recovery.py": 2, "parser.py": 3, "lexer.py": 4,
        "toplevel.py": 5, "positions.py": 6}

BROKEN = "int g\nf [\n  pn 1 +\n  if (\n  x = 2\n]\nmain [ f ]\n"  # two statements that do not parse


def _noting(calls: list[str], name: str, fn):
    """``fn``, noting ``name`` in ``calls`` each time it is called."""
    def wrapped(*args):
        calls.append(name)
        return fn(*args)
    return wrapped


def _recording(front: pipeline.FrontEnd, calls: list[str]) -> pipeline.FrontEnd:
    """``front`` with each of its functions noting its name in ``calls`` when called."""
    fields = {f.name: _noting(calls, f.name, getattr(front, f.name)) for f in dataclasses.fields(front) if f.name != "name"}
    return dataclasses.replace(front, **fields)


def test_each_pass_runs_once_in_order(monkeypatch):
    calls: list[str] = []
    for name in ("parse", "recover"):
        monkeypatch.setattr(pipeline, name, _noting(calls, name, getattr(pipeline, name)))
    front = _recording(pipeline.PROGRAM, calls)
    program = pipeline.run(front, pipeline.Source(BROKEN, 0, pipeline.ProgramContext()))
    passes = [c for c in calls if c not in ("parser", "syntax_error")]  # the front end's tables, asked for
    assert passes == ["lex", "scan", "classify", "parse", "recover", "build"]
    assert program == pipeline.parse_program(BROKEN)


def test_the_passes_hand_their_data_forward():
    source = pipeline.Source(BROKEN, 0, pipeline.ProgramContext())
    front = pipeline.PROGRAM
    tokens = front.lex(source)
    top = front.scan(source, tokens)
    assert [item.kind for item in top.items] == ["decl", "func", "func"]
    assert top.levels[0].names == {"g": False, "f": True, "main": True}
    pieces = pipeline.recover(front, source, pipeline.parse(front, source, front.classify(source, top)))
    assert all(p.tree is not None and p.failure is None for p in pieces)
    assert pieces[1].prefixes, "f's two broken statements were recovered"
    program = front.build(source, top, pieces)
    errors = [s for s in program.items[1].body.body if isinstance(s, ast.ErrorStmt)]
    assert errors and errors[0].code == ErrorCode.SYNXERR and errors[0].address == BROKEN.index("\n  if")


def test_errors_are_raised_in_the_order_of_the_text():
    deep = "f [ x = " + "(" * 1001 + "1" + ")" * 1001 + " ]\n"
    bad_decl = "int a(1+)\n"
    with pytest.raises(TinyCError) as first:
        pipeline.parse_program(deep + bad_decl)
    assert first.value.code == ErrorCode.PUSHERR
    with pytest.raises(TinyCError) as second:
        pipeline.parse_program(bad_decl + deep)
    assert second.value.code != ErrorCode.PUSHERR and second.value.address < len(bad_decl)


def test_the_syntax_modules_call_only_downward():
    """Every call from one module of tinyc/syntax into another goes down the contract's order: no pass
    calls back into the driver or into a pass above it (the ring issue 36 removed)."""
    text = (ROOT / "programs" / "bc.tc").read_text(encoding="latin-1") + "\nbad [ pn 1 +\n x=(2 ]\n"
    pipeline.parse_program(text)  # Lark's tables loaded outside the profile
    upward: set[tuple[str, str, str]] = set()

    def module(frame) -> str | None:
        path = frame.f_code.co_filename
        name = os.path.basename(path)
        return name if os.sep + os.path.join("tinyc", "syntax") + os.sep in path and name in RANK else None

    def profile(frame, event, arg):
        if event != "call" or frame.f_back is None:
            return
        callee, caller = module(frame), module(frame.f_back)
        if callee and caller and callee != caller and RANK[caller] >= RANK[callee]:
            upward.add((caller, callee, frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        pipeline.parse_program(text)
        pipeline.reparse("pn 1 +\nx = 2\n", [])
    finally:
        sys.setprofile(None)
    assert upward == set()


def test_gibson_goes_through_the_same_driver(monkeypatch, tmp_path):
    from tinyc.dialects.gibson import machine, syntax
    calls: list[str] = []
    for name in ("parse", "recover"):
        monkeypatch.setattr(pipeline, name, _noting(calls, name, getattr(pipeline, name)))
    monkeypatch.setattr(syntax, "FRONT_END", _recording(syntax.FRONT_END, calls))
    app = tmp_path / "app.tc"
    app.write_text("main [\n  pn 1 + ;\n  pl \"ok\"\n]\n")
    program, seed = machine.parse_memory(machine.load(app))
    passes = [c for c in calls if c not in ("parser", "syntax_error")]
    assert passes == ["lex", "scan", "classify", "parse", "recover", "build"]
    main = next(f for f in program.items if isinstance(f, ast.Function) and f.name == "main")
    assert isinstance(main.body.body[0], ast.ErrorStmt)
    assert isinstance(seed, ast.Block) and seed.body[0].expr.name == "main"  # the seed: [main();]
