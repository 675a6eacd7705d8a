"""Statement-level recovery (tinyc.syntax.recovery): the parse goes on from the statement that failed, in
linear time, and gives exactly what parsing the whole function again after each failure gave.

``_reparsing`` below is that earlier algorithm (quadratic: a full parse and a deep copy of Lark's value
stack per failing statement), kept here as the oracle.  Every function of generated programs, valid and
mutated, of both dialects is parsed by both; the trees (with every token's type, text and position),
the prefixes kept for the error statements and the header errors must be the same.
"""

from __future__ import annotations

import io
import random

import pytest
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from fuzz import gen, gen_gibson
from tinyc import Session
from tinyc import ast
from tinyc.errors import ErrorCode, TinyCError
from tinyc.machine.console import Console
from tinyc.syntax import pipeline as pc_syntax
from tinyc.syntax import recovery
from tinyc.syntax.recovery import _error, _leftmost, _statement_end


def _reparsing(parser, tokens, start, text, base, syntax_error):
    """The recovery before issue 24: parse everything again after each replacement."""
    tokens = list(tokens)
    prefixes: list[list] = []
    for _ in range(2 * len(tokens) + 2):
        try:
            return parser.parse(tokens, start=start), None, prefixes
        except UnexpectedInput as e:
            bad = getattr(e, "token", None)
            failed = next((k for k, t in enumerate(tokens) if t is bad), len(tokens))
            err = syntax_error(e, tokens, base, text)
            found = _old_statement_start(e, tokens, failed)
            if found is None:
                return None, ast.ErrorStmt(err.address, err.address, int(err.code), err.address), []
            first, values = found
            end = _statement_end(tokens, first, failed, text)
            code, address = _error(err, tokens, first, failed, base)
            at = tokens[first] if first < len(tokens) else None
            pos = at.start_pos if at is not None else len(text)
            prefixes.append(values)
            mark = Token("ERRSTMT", f"{code}:{address}:{len(prefixes) - 1}", start_pos=pos,
                         end_pos=tokens[end - 1].end_pos if end > first else pos,
                         line=getattr(at, "line", 1), column=getattr(at, "column", 1),
                         end_line=getattr(at, "line", 1), end_column=getattr(at, "column", 1))
            tokens[first:end] = [mark]
    raise TinyCError(ErrorCode.STATERR, base)


def _old_statement_start(e, tokens, failed):
    state = e.state
    probe = state.copy()
    try:
        probe.feed_token(Token("BREAK", "break"))
        return failed, []
    except UnexpectedInput:
        pass
    states = state.parse_conf.states
    stack = state.state_stack
    for k in range(len(stack) - 1, -1, -1):
        if "stmt" in states[stack[k]]:
            values = list(state.value_stack[k:])
            first = _leftmost(values)
            if first is None:
                return failed, []
            return next((j for j, t in enumerate(tokens) if t.start_pos == first.start_pos
                         and t.type == first.type), failed), values
    return None


def _dump(v):
    if isinstance(v, Token):
        return ("T", v.type, str(v), v.start_pos, v.end_pos, v.line, v.column)
    if isinstance(v, Tree):
        meta = v.meta
        return ("N", str(v.data), [_dump(c) for c in v.children],
                getattr(meta, "start_pos", None), getattr(meta, "end_pos", None))
    if isinstance(v, list):
        return [_dump(c) for c in v]
    return v


class Compare:
    """Wraps the recovery pass (each front end's, through the pipeline): each call runs the oracle too and
    records whether the results match."""

    def __init__(self):
        self.calls = self.recovered = 0
        self.mismatches: list[str] = []

    def __call__(self, parser, tokens, start, text, base, syntax_error):
        new = recovery.recover(parser, tokens, start, text, base, syntax_error)
        old = _reparsing(parser, tokens, start, text, base, syntax_error)
        self.calls += 1
        self.recovered += bool(old[2]) or old[1] is not None
        got = (_dump(new[0]), new[1], _dump(new[2]))
        want = (_dump(old[0]), old[1], _dump(old[2]))
        if got != want:
            self.mismatches.append(text)
        return new


@pytest.fixture
def compare(monkeypatch):
    c = Compare()
    monkeypatch.setattr(pc_syntax, "recover_piece", c)  # the one recovery pass of both dialects
    monkeypatch.setenv("TINYC_NO_CACHE", "1")
    return c


def _pc_parse(text: bytes) -> None:
    try:
        pc_syntax.parse_program(text.decode("latin-1"))
    except (TinyCError, RecursionError):
        pass


def test_the_pc_dialect_recovers_as_by_parsing_again(compare):
    r = random.Random("recovery-pc")
    for k in range(80):
        src = gen.program(r, size=r.choice([1, 2]))
        _pc_parse(src.encode("latin-1") if k % 5 == 0 else gen.mutate(r, src))
        lines = src.splitlines()  # and statements that do not parse, several to a function
        for _ in range(r.randint(1, 6)):
            at = r.randint(1, len(lines))
            lines.insert(at, r.choice(["@", " x=(1", "if(1) @ else @", ")", "y=1 else", " 1 +", "pn (",
                                       "[ @ ", "while(", "f(1,", "x=3<2<1 @", "]", "int", "return (",
                                       "for(;;", "'", '"a', "a(1", "pn 1; ) pn 2"]))
        _pc_parse("\n".join(lines).encode("latin-1"))
    assert compare.recovered > 60
    assert compare.mismatches == []


def test_the_gibson_dialect_recovers_as_by_parsing_again(compare, tmp_path):
    r = random.Random("recovery-gibson")
    path = tmp_path / "p.tc"
    for k in range(50):
        src = gen_gibson.program(r)
        path.write_bytes(src.encode("latin-1") if k % 5 == 0 else gen_gibson.mutate(r, src))
        out = io.BytesIO()
        Session("gibson", quiet=True, console=Console(io.BytesIO(), out)).run_files([str(path)], code="")
    assert compare.recovered > 20
    assert compare.mismatches == []


def test_many_failing_statements_keep_their_reports(compare):
    text = "main [\n" + " @\n" * 60 + " pn 1 )\n" * 60 + " x=(1\n" * 60 + "]\n"
    fn = pc_syntax.parse_program(text).items[0]
    errors = [s for s in fn.body.body if isinstance(s, ast.ErrorStmt)]
    assert len(errors) == 180 and compare.mismatches == []
    assert {e.code for e in errors[:120]} == {int(ErrorCode.SYNXERR)}
    assert errors[0].address == text.index("@")
    assert errors[119].address == text.rindex(")")  # a statement cannot begin with ")"
    assert errors[-1].code == int(ErrorCode.RPARERR) and errors[-1].address == text.rindex("1") + 1
