"""programs/bce.tc (issue 40): Lee Bradley's entropy.c in tiny-c with integer n log n, run by ``tinyc run``
and compared game for game, guess for guess, with the solver's ``entropy-int`` strategy (same seed, one
generator for all games, as bca.tc), on bc.tc's game (digits 1-9) and entropy.c's (0-9).

Each entropy guess costs tiny-c about m*m score look-ups (m numbers still possible), some 0.3 s of CPU per
game on the fast engine, so the default run plays a few games per case; the long runs (the first secrets
of each game, the reference engine, every secret of bc.tc's) are in test_programs_bce_long.py, marked
``slow``.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

import pytest

import guessers
from tinyc.solver import bc_code, evaluate, get_game, make_strategy, play, score, score_table
from tinyc.solver.strategies.entropy_int import nlogn_table

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"1to9": get_game("bulls-cows-1to9"), "0to9": get_game("bulls-cows")}
SUFFIX = {"1to9": "", "0to9": "0"}


def tinyc_run(entry: str, typed: str, engine: str = "fast", timeout: int = 600) -> str:
    return guessers.tinyc_run("bce.tc", entry, typed, engine, timeout)


expected_report = guessers.report


def automated(kind: str, seed: int, n: int, shown_all: bool = True, engine: str = "fast", timeout: int = 600):
    game = GAMES[kind]
    entry = ("bcev" if shown_all else "bcea") + SUFFIX[kind]
    out = tinyc_run(entry, f"{seed}\n{n}\n", engine=engine, timeout=timeout)
    ev = evaluate(game, "entropy-int", first=n, keep_games=True, seed=seed)
    shown = n if shown_all else 4
    assert guessers.games_shown(out) == [(g, game.codes[ev.games[g].secret], [game.codes[x] for x in ev.games[g].guesses])
                    for g in range(max(0, n - shown), n)]
    head = f"Type a random number: How many games (1-{game.size})? \n"
    assert out == head + expected_report(ev, n, shown)


# ---- the table --------------------------------------------------------------------------------------

def test_the_tiny_c_table_is_the_solvers_exactly_rounded_table():
    out = tinyc_run("bcet", "")
    assert [int(x) for x in out.split()] == nlogn_table(1440).tolist()[1:]


def test_nlogn_table_is_n_log2_n_times_1024_rounded():
    t = nlogn_table(5040)
    assert t[:5].tolist() == [0, 0, 2048, 4869, 8192]
    for n in range(2, 5041):
        v = n * math.log2(n) * 1024
        if abs(v - math.floor(v) - 0.5) > 1e-6:  # float64 decides those far from a half
            assert t[n] == round(v)


# ---- games ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,seed,n", [("1to9", 3141, 8), ("1to9", 7, 5), ("0to9", 3141, 5)])
def test_bce_automated_games_equal_the_solvers(kind, seed, n):
    automated(kind, seed, n)


def test_bcea_shows_the_last_four_games_and_asks_the_count_again():
    out = tinyc_run("bcea", "99\n0\n3025\n6\n")
    assert out.count("from 1 to 3024, please: ") == 2
    game = GAMES["1to9"]
    ev = evaluate(game, "entropy-int", first=6, keep_games=True, seed=99)
    assert out.endswith("please: \n" + expected_report(ev, 6, 4))


# ---- the dialogue -----------------------------------------------------------------------------------

def solver_game(kind: str, seed: int, secret: str, skip: int = 0) -> list[str]:
    """The solver's entropy-int game for ``secret`` after ``skip`` draws of the generator."""
    game = GAMES[kind]
    strat = make_strategy("entropy-int", game, score_table(game), seed=seed)
    for _ in range(skip):
        strat.rng.random(0, 1)
    return [game.codes[g] for g in play(strat, score_table(game), game.index[secret]).guesses]


def answers(secret: str, guesses: list[str]) -> str:
    return "".join("%d\n" % bc_code(*score(g, secret)) for g in guesses)


def shown(out: str) -> list[str]:
    return [g for _, g in re.findall(r"Guess (\d+): (\d{4})   score\? ", out)]


@pytest.mark.parametrize("kind,seed,secret", [("1to9", 3141, "5831"), ("0to9", 42, "0917")])
def test_bce_dialogue_plays_the_solvers_game(kind, seed, secret):
    guesses = solver_game(kind, seed, secret)
    out = tinyc_run("bce" + SUFFIX[kind], f"{seed}\n" + answers(secret, guesses))
    digits = "1 to 9" if kind == "1to9" else "0 to 9"
    assert f"Use the digits {digits}, none of them twice." in out
    assert " 0B0C  9  0B1C 10  0B2C 11  0B3C 12  0B4C 13\n\nType a random number: \n" in out
    assert shown(out) == guesses
    n = len(guesses)
    assert out.endswith(f"I got it in {n} {'try' if n == 1 else 'tries'}!\n")


def test_bce_bad_scores_are_asked_again():
    guesses = solver_game("1to9", 11, "2468")
    out = tinyc_run("bce", "11\n14\n-1\nabc\n" + answers("2468", guesses))
    assert out.count("the score is a number from 0 to 13, try again: ") == 3
    assert "number required" not in out
    assert shown(out) == guesses


def test_bce_inconsistent_scores_offer_a_restart_and_the_generator_runs_on():
    seed, secret = 31, "5831"
    game = GAMES["1to9"]
    first = solver_game("1to9", seed, secret)[0]
    # the first guess scored 3B0C (1), then the second guess given a code that no number fits
    alive = [x for x in game.codes if bc_code(*score(first, x)) == 1]
    strat = make_strategy("entropy-int", game, score_table(game), seed=seed)
    g1 = game.codes[strat.next_guess(np.arange(game.size), [])]
    assert g1 == first
    second = game.codes[strat.next_guess(np.array([game.index[x] for x in alive]), [(game.index[first], 0)])]
    given = {bc_code(*score(second, x)) for x in alive}
    lie = next(k for k in range(1, 14) if k not in given)
    guesses = solver_game("1to9", seed, secret, skip=2)
    out = tinyc_run("bce", f"{seed}\n1\n{lie}\ny\n" + answers(secret, guesses))
    assert shown(out)[:2] == [first, second]
    assert "No number fits all of those scores: one of them must be wrong.\nStart again (y/n)? " in out
    assert shown(out.split("Start again (y/n)? ", 1)[1]) == guesses
    out = tinyc_run("bce", f"{seed}\n1\n{lie}\n\n")
    assert out.endswith("Start again (y/n)? \n")


def test_bce_end_of_input_stops_the_game_and_keeps_the_program():
    r = subprocess.run([sys.executable, "-P", "-m", "tinyc"], input=b".r programs/bce.tc\n.bce\n3141\n9\n",
                       capture_output=True, timeout=120, cwd=ROOT)
    out = r.stdout.decode().replace("\r\n", "\n")
    assert out.endswith("   score? \nstopped\ntc>\n"), out[-300:]
