"""Statement-level error recovery for the LALR parser (reference section 14 item 16).

The original parsed a statement when it ran it, so a statement that does not parse is an error only
when it runs, after everything before it has run.  :func:`parse_recovering` gets the same effect from
Lark: when the parse fails it finds the statement that failed, replaces its tokens by one ERRSTMT
token that carries the error number and cursor, and goes on parsing from that statement, with what
the parser had built before it kept (the result of parsing the changed token list again from the start,
in linear time).

* **Which statement.** If a statement could begin at the token that failed (the statement before it
  is complete, as in ``x=3<2<1``), the new statement starts there.  Otherwise it is the innermost
  statement still open on the parser's stack: the values above the topmost state that has a ``stmt``
  transition.  No such state means the error is in a function's header.
* **How far it reaches.** As the original skipped a statement: brackets and parentheses balanced, up
  to a ``;`` or the end of a line outside them, or the ``]`` that closes the enclosing block; an
  ``if`` takes its ``else`` along.
* **Which error.** The number and cursor the parse error maps to, except that a statement failing at
  its first token is error 9 (the original's factor error came first; 1 for a stray keyword), and a
  character no token starts with is 9, an unclosed quote 2.
* **What runs first.** The original evaluated as it parsed, so what the statement had parsed before the
  failure ran: the complete operands on the parser's stack are kept with the error statement (its
  ``prefix``) and evaluated, left to right, before the error is raised.  A name still waiting for its
  ``(`` is looked up (error 26 if no level declares it, 7 if it names a scalar).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, Callable, Protocol, TypeAlias

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_parser_state import ParserState

from .. import ast
from ..errors import ErrorCode, TinyCError
from .positions import start_of

# A value on the parser's stack when a statement failed: a token, a subtree, a list of them; after a
# transform (tinyc.syntax.to_ast), a node.
PrefixValue: TypeAlias = "Token | Tree[Token] | ast.Node | list[PrefixValue]"
# What recovery gives for one token list: (tree, None, prefixes), or (None, the header's error, []).
Recovered: TypeAlias = "tuple[Tree[Token] | None, ast.ErrorStmt | None, list[list[PrefixValue]]]"


class Tokens(Protocol):
    """Tokens read by index: a list, or :class:`_Joined`."""

    def __len__(self) -> int: ...

    def __getitem__(self, k: int) -> Token: ...


SyntaxErrorMap = Callable[[UnexpectedInput, list[Token], int, str], TinyCError]


def parse_recovering(parser: Lark, tokens: list[Token], start: str, text: str, base: int,
                     syntax_error: SyntaxErrorMap) -> Recovered:
    """Parse classified ``tokens`` from ``start``, turning each statement that fails into ERRSTMT: Lark's
    plain parse, then :func:`recover` if it fails (for the views; the pipeline runs the two as passes).

    Returns ``(tree, None, prefixes)``, or ``(None, error, [])`` when the failure is outside any
    statement (a function's header); see :func:`recover`."""
    try:
        return parser.parse(tokens, start=start), None, []
    except UnexpectedInput:
        return recover(parser, tokens, start, text, base, syntax_error)


def recover(parser: Lark, tokens: list[Token], start: str, text: str, base: int,
            syntax_error: SyntaxErrorMap) -> Recovered:
    """The recovery pass: the parse of classified ``tokens`` (offsets in ``text``, at address ``base``),
    whose plain parse from ``start`` failed, with each statement that fails turned into ERRSTMT.

    Returns ``(tree, None, prefixes)``, or ``(None, error, [])`` when the failure is outside any
    statement (a function's header).  The value of each ERRSTMT token is ``code:address:k``, and
    ``prefixes[k]`` the parse-tree values the statement had parsed (see the module's docstring).
    ``syntax_error`` maps a Lark error to the tiny-c error (number, address): the front end's mapping
    (:func:`tinyc.syntax.parser.syntax_error` for tiny-c/PC).

    The result is the parse of the token list with each failed statement replaced by its ERRSTMT, as
    if the list were parsed again from the start after each replacement; but the parse goes on from
    where the statement began (:class:`_Feeder` undoes what came after), so the cost stays linear.
    Raises nothing of its own (Lark's errors become ERRSTMT or the header's error).
    """
    return _recover(_Feeder(parser, start), tokens, text, base, syntax_error)


def _recover(feeder: _Feeder, tokens: list[Token], text: str, base: int, syntax_error: SyntaxErrorMap
             ) -> Recovered:
    """:func:`recover` once the plain parse has failed: token by token through ``feeder``."""
    out: list[Token] = []          # the tokens fed so far (ERRSTMT marks among them)
    undo_at: list[int] = []        # the journal's length before each of ``out`` was fed
    rest = deque(tokens)           # the tokens still to feed; ``out`` + ``rest`` is the current list
    prefixes: list[list[PrefixValue]] = []
    for _ in range(2 * len(tokens) + 2):
        before = feeder.mark()
        try:
            while rest:
                t = rest[0]
                before = feeder.mark()
                feeder.feed(t)
                out.append(rest.popleft())
                undo_at.append(before)
            before = feeder.mark()
            end_token = Token.new_borrow_pos("$END", "", out[-1]) if out else Token("$END", "", 0, 1, 1)
            return feeder.feed(end_token, is_end=True), None, prefixes
        except UnexpectedToken as e:
            failed = len(out)
            err = syntax_error(e, out[-1:] + ([] if e.token.type == "$END" else [e.token]), base, text)
            found = _statement_start(feeder.state, out, failed)
            if found is None:
                return None, ast.ErrorStmt(err.address, err.address, int(err.code), err.address), []
            first, values = found
            current = _Joined(out, rest)
            end = _statement_end(current, first, failed, text)
            code, address = _error(err, current, first, failed, base)
            at = current[first] if first < len(current) else None
            pos = at.start_pos if at is not None else len(text)
            prefixes.append(values)
            mark = Token("ERRSTMT", f"{code}:{address}:{len(prefixes) - 1}", start_pos=pos,
                         end_pos=current[end - 1].end_pos if end > first else pos,
                         line=getattr(at, "line", 1), column=getattr(at, "column", 1),
                         end_line=getattr(at, "line", 1), end_column=getattr(at, "column", 1))
            # the current list becomes current[:first] + [mark] + current[end:]
            feeder.undo(undo_at[first] if first < len(out) else before)
            if end <= len(out):
                rest.extendleft(reversed(out[end:]))  # fed after the statement's end: fed again
            else:
                for _ in range(end - len(out)):
                    rest.popleft()
            del out[first:], undo_at[first:]
            rest.appendleft(mark)
    raise TinyCError(ErrorCode.STATERR, base)  # not reached: each round consumes or passes a token


class _Joined:
    """``a + b`` (a list and a deque) read by index, without copying them."""

    def __init__(self, a: list[Token], b: deque[Token]) -> None:
        self.a, self.b = a, b

    def __len__(self) -> int:
        return len(self.a) + len(self.b)

    def __getitem__(self, k: int) -> Token:
        n = len(self.a)
        return self.a[k] if k < n else self.b[k - n]


class _Feeder:
    """Lark's LALR step (``ParserState.feed_token``), keeping a journal of what each step popped, so
    that :meth:`undo` can take the parser back to any earlier point exactly, in the time the steps
    since then took.  (Lark's own ``copy`` deep-copies the whole value stack instead.)"""

    def __init__(self, parser: Lark, start: str) -> None:
        self.state: ParserState[int] = parser.parse_interactive([], start=start).parser_state
        conf = self.state.parse_conf
        self.states, self.callbacks, self.end_state = conf.states, conf.callbacks, conf.end_state
        # per step: None for a shift, else (states popped, values popped, their children's lengths)
        self.journal: list[tuple[list[int], tuple[PrefixValue, ...], list[int]] | None] = []

    def mark(self) -> int:
        """A point to :meth:`undo` to."""
        return len(self.journal)

    def feed(self, token: Token, is_end: bool = False) -> Tree[Token] | None:
        """Feed one token (UnexpectedToken as Lark raises it); with ``is_end``, the parse tree."""
        st = self.state
        ss, vs, states, callbacks = st.state_stack, st.value_stack, self.states, self.callbacks
        while True:
            try:
                action, arg = states[ss[-1]][token.type]
            except KeyError:
                expected = {s for s in states[ss[-1]] if s.isupper()}
                raise UnexpectedToken(  # type: ignore[no-untyped-call]  # Lark leaves its __init__ unannotated
                    token, expected, state=st, interactive_parser=None) from None
            if action is Shift:
                ss.append(arg)
                vs.append(token if token.type not in callbacks else callbacks[token.type](token))
                self.journal.append(None)
                return None
            size = len(arg.expansion)
            popped = tuple(vs[-size:]) if size else ()
            popped_states = ss[-size:] if size else []
            if size:
                del ss[-size:], vs[-size:]
            # a reduction may extend its first child's children in place (Lark's left-recursion shortcut)
            lengths = [len(v.children) if isinstance(v, Tree) else -1 for v in popped]
            value = callbacks[arg](list(popped)) if callbacks else list(popped)
            ss.append(states[ss[-1]][arg.origin.name][1])
            vs.append(value)
            self.journal.append((popped_states, popped, lengths))
            if is_end and ss[-1] == self.end_state:
                tree: Tree[Token] = vs[-1]
                return tree

    def undo(self, mark: int) -> None:
        """Take the parser back to the point :meth:`mark` returned."""
        ss, vs = self.state.state_stack, self.state.value_stack
        grown: dict[int, tuple[Tree[Token], int]] = {}  # values back on the stack whose children grew since
        while len(self.journal) > mark:
            step = self.journal.pop()
            ss.pop()
            grown.pop(id(vs.pop()), None)
            if step is not None:
                popped_states, popped, lengths = step
                ss.extend(popped_states)
                vs.extend(popped)
                for v, n in zip(popped, lengths):
                    if n >= 0 and isinstance(v, Tree):  # n >= 0: it was a tree
                        grown[id(v)] = (v, n)
        for v, n in grown.values():
            del v.children[n:]


def _accepts(states: dict[int, dict[str, tuple[Any, Any]]], stack: list[int], kind: str) -> bool:
    """Whether the LALR automaton on ``stack`` would shift a token of type ``kind`` (no values built)."""
    base = len(stack)
    extra: list[int] = []
    while True:
        step = states[extra[-1] if extra else stack[base - 1]].get(kind)
        if step is None:
            return False
        action, rule = step
        if action is Shift:
            return True
        size = len(rule.expansion)
        k = min(size, len(extra))
        del extra[len(extra) - k:]
        base -= size - k
        extra.append(states[extra[-1] if extra else stack[base - 1]][rule.origin.name][1])


def _statement_start(state: ParserState[int], out: list[Token], failed: int
                     ) -> tuple[int, list[PrefixValue]] | None:
    """The index of the first token of the statement that failed and the values the parser holds for
    it, or None outside any statement."""
    states = state.parse_conf.states
    stack = state.state_stack
    if _accepts(states, stack, "BREAK"):
        return failed, []  # a statement may begin here: the one before it is complete
    for k in range(len(stack) - 1, -1, -1):
        if "stmt" in states[stack[k]]:
            values = list(state.value_stack[k:])
            first = _leftmost(values)
            if first is None:
                return failed, []
            return next((j for j in range(len(out) - 1, -1, -1) if out[j] is first), failed), values
    return None


def _leftmost(values: Sequence[PrefixValue]) -> Token | None:
    for v in values:
        if isinstance(v, Token):
            return v
        if isinstance(v, Tree):
            t = _leftmost(v.children)
            if t is not None:
                return t
        elif isinstance(v, list):
            t = _leftmost(v)
            if t is not None:
                return t
    return None


def _newline_before(tokens: Tokens, j: int, text: str) -> bool:
    return "\n" in text[tokens[j - 1].end_pos:tokens[j].start_pos]


def _statement_end(tokens: Tokens, first: int, failed: int, text: str) -> int:
    """The index just after the failed statement, as the original would skip it: a simple statement
    up to the first ``;`` or line end, an ``if``/``while``/``for`` with its parentheses and branch."""
    compound = first < len(tokens) and tokens[first].type in ("IF", "WHILE", "FOR")
    end = _extent(tokens, first, failed if compound else first + 1, text, not compound)
    while first < len(tokens) and tokens[first].type == "IF" and end < len(tokens) and tokens[end].type == "ELSE":
        end = _extent(tokens, end, end + 1, text)
    return end


def _extent(tokens: Tokens, first: int, must: int, text: str, simple: bool = False) -> int:
    """From ``first``, tokens up to ``must`` always, then to a ``;`` or a line end outside brackets
    and parentheses, or before the ``]`` that closes the enclosing block (an open ``(`` does not
    hold a ``]``: the statement's parentheses were left unbalanced).  A ``simple`` statement ends at
    the first ``;`` or line end whatever is open, as the original's skip did."""
    open_: list[str] = []
    j = first
    while j < len(tokens):
        t = tokens[j]
        if j > first and j >= must and (simple or not open_) and _newline_before(tokens, j, text):
            return j
        if simple and j > first and t.type == "SEMICOLON":
            return j + 1
        if t.type in ("LSQB", "LPAR", "CPAREN", "CALLPAREN"):
            open_.append("[" if t.type == "LSQB" else "(")
        elif t.type == "RSQB":
            while open_ and open_[-1] == "(":
                open_.pop()
            if not open_:
                return j
            open_.pop()
        elif t.type == "RPAR":
            if open_ and open_[-1] == "(":
                open_.pop()
            elif not open_ and j >= must and j > first:
                return j
        elif t.type == "SEMICOLON" and not open_ and j >= must:
            return j + 1
        j += 1
    return j


def _error(err: TinyCError, tokens: Tokens, first: int, failed: int, base: int) -> tuple[int, int]:
    """The error number and address the statement raises when it runs."""
    if failed < len(tokens) and tokens[failed].type in ("BADCHAR", "BADQUOTE"):
        t = tokens[failed]  # text no token starts with: 9, or a literal with no closing quote: 2
        return int(ErrorCode.CURSERR if t.type == "BADQUOTE" else ErrorCode.SYNXERR), base + start_of(t)
    if failed == first and failed < len(tokens):
        t = tokens[failed]
        code = ErrorCode.STATERR if t.type in ("ELSE", "ENDLIBRARY") else ErrorCode.SYNXERR
        return int(code), base + start_of(t)
    return int(err.code), err.address
