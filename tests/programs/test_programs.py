"""programs/bc.tc and programs/bca.tc (issue 5), interpreted through the tc> shell, checked against the solver.

The shell runs in-process with a Console whose input is a *driver*: each time the program (or the
shell) reads, the driver looks at the output written so far and types the answer a player would:
the random number, bc.tc's 0-13 score code of the guess just shown (computed with the solver's
``score``), or the next shell command.  So the games are really played against bc.tc's own guesses,
and the guess sequences are then compared with the solver's ``random`` strategy for the same seed.
"""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path
from typing import Callable

import pytest

from tinyc.cli.options import machine_options
from tinyc.cli.options import boot
from tinyc.machine.console import Console
from tinyc.shell.shell import Shell
from tinyc.solver import bc_code, evaluate, get_game, make_strategy, play, score, score_table

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("bulls-cows-1to9")
TABLE = score_table(GAME)
GUESS = re.compile(rb"Guess (\d+): (\d{4})   score\? $")  # the prompt waiting for an answer
SHOWN = re.compile(rb"Guess (\d+): (\d{4})")


class Driver:
    """A console input stream that answers lazily: ``respond(output so far)`` gives the next line
    (bytes without LF) or None for end of input.  Only ``readline``/``read`` are used by Console."""

    def __init__(self, respond: Callable[[bytes], bytes | None]):
        self.respond = respond
        self.out = io.BytesIO()
        self.pending = b""
        self.ended = False

    def _fill(self) -> None:
        if not self.pending and not self.ended:
            line = self.respond(self.out.getvalue())
            if line is None:
                self.ended = True
            else:
                self.pending = line + b"\n"

    def readline(self) -> bytes:
        self._fill()
        line, sep, rest = self.pending.partition(b"\n")
        self.pending = rest
        return line + sep

    def read(self, n: int = 1) -> bytes:
        self._fill()
        data, self.pending = self.pending[:n], self.pending[n:]
        return data


def run_shell(respond: Callable[[bytes], bytes | None], engine: str = "fast",
              options: tuple[str, ...] = ()) -> tuple[Shell, bytes]:
    """The tc> shell (as ``tinyc`` starts it, with command-line ``options``) driven by ``respond``;
    returns the shell and all its output."""
    p = argparse.ArgumentParser()
    machine_options(p)
    args = p.parse_args(["--engine", engine, *options])
    driver = Driver(respond)
    machine, ws = boot(args, Console(driver, driver.out))
    shell = Shell(machine, ws)
    assert shell.loop() == 0
    return shell, driver.out.getvalue()


def commands(*lines: bytes) -> Callable[[bytes], bytes | None]:
    """A respond function that types ``lines`` in order, then ends the input."""
    queue = list(lines)
    return lambda out: queue.pop(0) if queue else None


def solver_guesses(seed: int, secrets: list[str]) -> list[list[str]]:
    """The solver's ``random`` strategy: one generator (seed=last=seed), the given secrets in turn."""
    strat = make_strategy("random", GAME, TABLE, seed=seed)
    return [[GAME.codes[g] for g in play(strat, TABLE, GAME.index[s]).guesses] for s in secrets]


def code_of(guess: bytes, secret: str) -> bytes:
    """bc.tc's score code of ``guess`` against ``secret``, as typed."""
    return b"%d" % bc_code(*score(guess.decode(), secret))


@pytest.fixture(autouse=True)
def at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # .r programs/bc.tc, as the README says


# ---- bc.tc: the computer guesses, a driver scores ----------------------------------------------------

def play_bc(games: list[tuple[int, str]], engine: str = "fast") -> tuple[list[list[str]], bytes, Shell]:
    """Load bc.tc once, then run ``.bullcow`` for each (random number, secret); the driver answers each
    ``Guess k: XXXX   score?`` with the true score code.  Returns the guesses seen per game."""
    todo = list(games)
    seen: list[list[str]] = []
    state = {"loaded": False, "secret": ""}

    def respond(out: bytes) -> bytes | None:
        if out.endswith(b"tc>"):
            if not state["loaded"]:
                state["loaded"] = True
                return b".r programs/bc.tc"
            return b".bullcow" if todo else b".x"
        if out.endswith(b"Type a random number: "):
            seed, state["secret"] = todo.pop(0)
            seen.append([])
            return b"%d" % seed
        m = GUESS.search(out)
        if m:
            assert int(m.group(1)) == len(seen[-1]) + 1
            seen[-1].append(m.group(2).decode())
            return code_of(m.group(2), state["secret"])
        return None  # an unexpected prompt: end the input, the test then fails on the transcript

    shell, out = run_shell(respond, engine)
    return seen, out, shell


def tries_line(n: int) -> bytes:
    return b"I got it in %d %s!" % (n, b"try" if n == 1 else b"tries")


SECRETS = [GAME.codes[i] for i in range(0, GAME.size, 151)] + ["9876", "1234", "4321"]


@pytest.mark.parametrize("seed", [3141, 777, 1, 0, 99999, -4321, 65536])
def test_bc_plays_the_solvers_random_strategy_game_for_game(seed):
    # bc.tc seeds the generator from the typed number at every run: one solver game per run
    games = [(seed, s) for s in SECRETS]
    seen, out, _ = play_bc(games)
    expected = [solver_guesses(seed, [s])[0] for s in SECRETS]
    assert seen == expected
    for guesses, secret in zip(seen, SECRETS):
        assert guesses[-1] == secret
    # each run ends with the try count, then the shell's blank line and prompt
    counts = [int(n) for n in re.findall(rb"I got it in (\d+) tr", out)]
    assert counts == [len(g) for g in expected]
    for n in set(counts):
        assert tries_line(n) + b"\r\n\r\ntc>" in out


def test_bc_on_the_reference_engine_too():
    games = [(3141, "1925"), (42, "9876")]
    seen, _, _ = play_bc(games, engine="reference")
    assert seen == [solver_guesses(s, [x])[0] for s, x in games]


def test_bc_explains_the_game_and_prints_the_seed_score_table():
    _, out, _ = play_bc([(5, "5831")])
    text = out.replace(b"\r\n", b"\n")
    assert b"Think of a 4-digit number. Use the digits 1 to 9, none of them twice." in text
    table = (b"\n 4B0C  0\n 3B0C  1\n 2B0C  2  2B1C  3  2B2C  4\n 1B0C  5  1B1C  6  1B2C  7  1B3C  8\n"
             b" 0B0C  9  0B1C 10  0B2C 11  0B3C 12  0B4C 13\n\nType a random number: ")
    assert table in text
    # the table's codes are the solver's (seed 004's) codes
    for b_, c_, code in re.findall(rb"(\d)B(\d)C +(\d+)", text):
        assert bc_code(int(b_), int(c_)) == int(code)
    assert len(re.findall(rb"\dB\dC", text)) == 14


# ---- bca.tc: output lines against the solver --------------------------------------------------------

def bca_expected(seed: int, n: int, bits: int = 32) -> bytes:
    """bca.tc's report for ``n`` games computed from the solver (seed 004's layout)."""
    ev = evaluate(GAME, "random", first=n, keep_games=True, seed=seed, bits=bits)
    lines = []
    for g in range(max(0, n - 4), n):
        r = ev.games[g]
        words = [str(g), GAME.codes[r.secret]] + [GAME.codes[x] for x in r.guesses]
        lines.append(" " + " ".join(words) + f" {len(r.guesses)} tries!")
    lines.append("")
    tries = sorted(set(range(1, 10)) | set(ev.histogram))
    lines += [f" {k} {ev.histogram.get(k, 0)}" for k in tries]
    lines.append("")
    whole, rest = divmod(ev.total, n)
    lines.append(f"Average number of tries was {whole}.{rest * 10**5 // n:05d}")
    return "\r\n".join(lines).encode() + b"\r\n"


def run_bca(*typed: bytes, engine: str = "fast", options: tuple[str, ...] = ()) -> bytes:
    """``.r programs/bca.tc``, ``.bca`` with ``typed`` as its input; the run's output (after the answers)."""
    _, out = run_shell(commands(b".r programs/bca.tc", b".bca", *typed, b".x"), engine, options)
    return out.split(b"tc>")[2]


@pytest.mark.parametrize("seed,n", [(3141, 1), (3141, 4), (99, 5), (71828, 37), (5, 120), (-7, 9)])
def test_bca_report_equals_the_solvers(seed, n):
    out = run_bca(b"%d" % seed, b"%d" % n)
    head = b"Type a random number: How many games (1-3024)? \r\n"
    assert out == head + bca_expected(seed, n) + b"\r\n"


def test_bca_reference_engine_agrees():
    out = run_bca(b"3141", b"6", engine="reference")
    assert out.endswith(bca_expected(3141, 6) + b"\r\n")


def test_bca_with_16_bit_ints_follows_the_16_bit_generator():
    out = run_bca(b"3141", b"50", options=("--int-bits", "16"))
    assert out.endswith(bca_expected(3141, 50, bits=16) + b"\r\n")
    assert bca_expected(3141, 50, bits=16) != bca_expected(3141, 50)


def test_bca_games_count_outside_1_to_3024_is_asked_again():
    out = run_bca(b"8", b"0", b"3025", b"x", b"2")
    assert out.count(b"from 1 to 3024, please: ") == 2
    assert b"number required " in out
    assert out.endswith(bca_expected(8, 2) + b"\r\n")


def test_bca_reproduces_seed_004_with_3141_and_300_games():
    # the figures as published in seed 004 (Lee Bradley, bc.html), copied from the document
    published = (b" 296 1925 6598 1654 2964 2681 1936 1925 6 tries!\r\n"
                 b" 297 1926 4239 6892 8426 1926 4 tries!\r\n"
                 b" 298 1927 7536 1859 6812 2389 4258 1927 6 tries!\r\n"
                 b" 299 1928 1597 7893 3529 1289 1928 5 tries!\r\n"
                 b"\r\n 1 0\r\n 2 2\r\n 3 12\r\n 4 54\r\n 5 135\r\n 6 82\r\n 7 14\r\n 8 1\r\n 9 0\r\n"
                 b"\r\nAverage number of tries was 5.09666\r\n")
    out = run_bca(b"3141", b"300")
    assert out.endswith(b"How many games (1-3024)? \r\n" + published + b"\r\n")


# ---- bad input --------------------------------------------------------------------------------------

def test_bc_score_out_of_range_or_not_a_number_is_asked_again():
    secret = "2468"
    answers = [b"14", b"-1", b"abc", b"99"]
    shell_lines = [b".r programs/bc.tc", b".bullcow"]

    def respond(out: bytes) -> bytes | None:
        if out.endswith(b"tc>"):
            return shell_lines.pop(0) if shell_lines else b".x"
        if out.endswith(b"Type a random number: "):
            return b"11"
        if out.endswith((b"score? ", b"try again: ", b"number required ")):
            if answers:
                return answers.pop(0)
            return code_of(SHOWN.findall(out)[-1][1], secret)
        return None

    _, out = run_shell(respond)
    # 14, -1, abc and 99: each asks again with the prompt (issue 26: abc got the library's bare
    # "number required ", and the next input landed on that line with no prompt)
    assert out.count(b"the score is a number from 0 to 13, try again: ") == 4
    assert b"number required " not in out
    guesses = [g.decode() for _, g in SHOWN.findall(out)]
    assert guesses == solver_guesses(11, [secret])[0]
    assert tries_line(len(guesses)) in out


def emptying_code(history: list[tuple[str, int]], guess: str) -> int | None:
    """A score code for ``guess`` that no code consistent with ``history`` can give, if there is one."""
    alive = [c for c in GAME.codes if all(bc_code(*score(g, c)) == s for g, s in history)]
    given = {bc_code(*score(guess, c)) for c in alive}
    free = [k for k in range(1, 14) if k not in given]
    return free[0] if free else None


def test_bc_inconsistent_scores_offer_a_restart_and_the_generator_runs_on():
    seed, secret = 31, "5831"
    history: list[tuple[str, int]] = []
    state = {"step": 0, "lied": False, "again": b"y"}
    rounds: list[list[str]] = [[]]

    def respond(out: bytes) -> bytes | None:
        if out.endswith(b"tc>"):
            state["step"] += 1
            return {1: b".r programs/bc.tc", 2: b".bullcow", 3: b"./"}.get(state["step"], b".x")
        if out.endswith(b"Type a random number: "):
            return b"%d" % seed
        if out.endswith(b"Start again (y/n)? "):
            rounds.append([])
            return state["again"]
        m = GUESS.search(out)
        if m:
            guess = m.group(2).decode()
            rounds[-1].append(guess)
            if not state["lied"]:
                bad = emptying_code(history, guess)
                if bad is not None:
                    state["lied"] = True
                    return b"%d" % bad
                code = bc_code(*score(guess, secret))
                history.append((guess, code))
                return b"%d" % code
            return code_of(m.group(2), secret)
        return None

    shell, out = run_shell(respond)
    text = out.replace(b"\r\n", b"\n")
    assert state["lied"]
    assert text.count(b"No number fits all of those scores: one of them must be wrong.\nStart again (y/n)? ") == 1
    # the aborted game used bc.tc's guesses; the new game goes on with the same generator
    # up to the lie the answers were true for the secret, so the guesses are the solver's
    assert rounds[0] == solver_guesses(seed, [secret])[0][:len(rounds[0])]
    strat = make_strategy("random", GAME, TABLE, seed=seed)
    for _ in rounds[0]:
        strat.rng.random(0, 1)  # one draw per guess of the aborted game (the range does not matter)
    assert rounds[1] == [GAME.codes[g] for g in play(strat, TABLE, GAME.index[secret]).guesses]
    assert tries_line(len(rounds[1])) in out
    # the program is still in the shell's buffer afterwards
    assert b"bullcow [" in shell.ws.text
    assert shell.ws.pe == (ROOT / "programs/bc.tc").stat().st_size
    assert b"tc> 0 %d %d %d\r\n" % (shell.buf.la, shell.ws.pe, shell.ws.free) in out


def test_bc_declining_the_restart_returns_to_the_shell():
    seed, secret = 31, "5831"
    history: list[tuple[str, int]] = []
    step = {"n": 0}

    def respond(out: bytes) -> bytes | None:
        if out.endswith(b"tc>"):
            step["n"] += 1
            return {1: b".r programs/bc.tc", 2: b".bullcow"}.get(step["n"], b".x")
        if out.endswith(b"Type a random number: "):
            return b"%d" % seed
        if out.endswith(b"Start again (y/n)? "):
            return b""  # Enter alone is no
        m = GUESS.search(out)
        if m:
            guess = m.group(2).decode()
            bad = emptying_code(history, guess)
            if bad is not None:
                return b"%d" % bad
            code = bc_code(*score(guess, secret))
            history.append((guess, code))
            return b"%d" % code
        return None

    _, out = run_shell(respond)
    assert out.endswith(b"Start again (y/n)? \r\n\r\ntc>\r\n")  # .x: the shell ends
    assert b"I got it" not in out


def test_end_of_input_during_a_game_stops_it_and_keeps_the_program():
    shell, out = run_shell(commands(b".r programs/bc.tc", b".bullcow", b"3141", b"9"))
    assert out.endswith(b"   score? \r\nstopped\r\ntc>\r\n")
    assert shell.ws.text.startswith(b"\n/* bc.tc")
    assert len(shell.ws.text) - 1 == (ROOT / "programs/bc.tc").stat().st_size
    shell, out = run_shell(commands(b".r programs/bca.tc", b".bca", b"3141"))
    assert out.endswith(b"How many games (1-3024)? \r\nstopped\r\ntc>\r\n")


# ---- examples/: the recorded sessions are what the shell prints today -------------------------------

RECORDED = {
    "bc-session.txt": b".r programs/bc.tc\n.bullcow\n777\n10\n11\n10\n11\n8\n8\n0\n.x\n",
    "bc-mistake.txt": b".r programs/bc.tc\n.bullcow\n700\n11\n5\n15\n9\ny\n11\n11\n2\n5\n11\n0\n.x\n",
    "bca-run.txt": b".r programs/bca.tc\n.bca\n3141\n300\n.x\n",
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_examples_are_byte_faithful(name):
    # recorded as `printf ... | tinyc --echo --strip-cr` (examples/README.md)
    p = argparse.ArgumentParser()
    machine_options(p)
    args = p.parse_args(["--echo", "--strip-cr"])
    out = io.BytesIO()
    machine, ws = boot(args, Console(io.BytesIO(RECORDED[name]), out, strip_cr=True, echo=True))
    assert Shell(machine, ws).loop() == 0
    assert out.getvalue() == (ROOT / "examples" / name).read_bytes()
