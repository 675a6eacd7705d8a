"""programs/bck.tc (issue 40): Knuth's minimax in tiny-c, run by ``tinyc run`` and compared game for
game, guess for guess, with the solver's ``knuth`` strategy on bc.tc's game (digits 1-9).

The automated mode that shows every game (``bckv``) plays the first 300 secrets by default; the test
marked ``slow`` plays all 3024 (``pytest -m slow``; about 40 s of CPU on the fast engine). The
dialogue is checked on secrets whose first score leaves few numbers, so that each run is short.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from guessers import compare, scorer, tinyc_run
from tinyc.solver import bc_code, evaluate, get_game, make_strategy, play, score, score_table

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("bulls-cows-1to9")


def knuth(n: int):
    return evaluate(GAME, "knuth", first=n, keep_games=True)


@pytest.mark.slow  # 300 games of the minimax guesser in tiny-c: run by .ci/run
def test_bck_first_300_secrets_game_for_game():
    out = tinyc_run("bck.tc", "bckv", "300\n")
    compare(out, knuth(300), 300, 300)


def test_bck_automated_report_shows_the_last_four_games():
    out = tinyc_run("bck.tc", "bcka", "0\n3025\n7\n")
    assert out.count("from 1 to 3024, please: ") == 2
    compare(out, knuth(7), 7, 4)


def test_bck_on_the_reference_engine_too():
    guesses = knuth_guesses("1243")
    out = tinyc_run("bck.tc", "bck", scorer("1243")(guesses), engine="reference")
    assert [g for _, g in re.findall(r"Guess (\d+): (\d{4})", out)] == guesses


@pytest.mark.slow
def test_bck_every_secret_game_for_game():
    ev = knuth(GAME.size)
    assert (ev.total, ev.worst) == (15311, 7)  # what the solver and the issue say
    out = tinyc_run("bck.tc", "bckv", "3024\n", timeout=3600)
    compare(out, ev, GAME.size, GAME.size)


def knuth_guesses(secret: str) -> list[str]:
    strat = make_strategy("knuth", GAME, score_table(GAME))
    return [GAME.codes[g] for g in play(strat, score_table(GAME), GAME.index[secret]).guesses]


@pytest.mark.parametrize("secret", ["1234", "4321", "1243"])  # parts of 1, 9 and 6 numbers: quick
def test_bck_dialogue_plays_knuths_game(secret):
    guesses = knuth_guesses(secret)
    out = tinyc_run("bck.tc", "bck", scorer(secret)(guesses))
    assert " 0B0C  9  0B1C 10  0B2C 11  0B3C 12  0B4C 13\n" in out
    shown = re.findall(r"Guess (\d+): (\d{4})   score\? ", out)
    assert [g for _, g in shown] == guesses
    assert [int(k) for k, _ in shown] == list(range(1, len(guesses) + 1))
    n = len(guesses)
    assert out.endswith(f"I got it in {n} {'try' if n == 1 else 'tries'}!\n")


def emptying(history: list[tuple[str, int]], guess: str) -> int:
    """A score code (1-13) for ``guess`` that no number scoring ``history`` can give."""
    alive = [x for x in GAME.codes if all(bc_code(*score(g, x)) == c for g, c in history)]
    given = {bc_code(*score(guess, x)) for x in alive}
    return next(k for k in range(1, 14) if k not in given)


def test_bck_bad_scores_are_asked_again_and_inconsistent_ones_offer_a_restart():
    secret = "4321"
    guesses = knuth_guesses(secret)
    # 14, -1 and a word are asked again; the game then goes on with the true scores
    out = tinyc_run("bck.tc", "bck", "14\n-1\nabc\n" + scorer(secret)(guesses))
    assert out.count("the score is a number from 0 to 13, try again: ") == 3
    assert "number required" not in out
    assert [g for _, g in re.findall(r"Guess (\d+): (\d{4})", out)] == guesses
    # 1234 scored 3B0C (1), as for 1235; then a code for the second guess that no number fits
    second = knuth_guesses("1235")[1]
    lie = emptying([("1234", 1)], second)
    out = tinyc_run("bck.tc", "bck", f"1\n{lie}\ny\n" + scorer(secret)(guesses))
    assert "No number fits all of those scores: one of them must be wrong.\nStart again (y/n)? " in out
    after = out.split("Start again (y/n)? ", 1)[1]  # the new game is Knuth's game again
    assert [g for _, g in re.findall(r"Guess (\d+): (\d{4})", after)] == guesses
    assert after.endswith(f"I got it in {len(guesses)} tries!\n")
    # declining the restart ends the run
    out = tinyc_run("bck.tc", "bck", f"1\n{lie}\nn\n")
    assert out.endswith("Start again (y/n)? \n")


def test_bck_end_of_input_stops_the_game_and_keeps_the_program():
    # in the shell, as bc.tc: the game stops and the program stays in the buffer
    r = subprocess.run([sys.executable, "-P", "-m", "tinyc"], input=b".r programs/bck.tc\n.bck\n9\n",
                       capture_output=True, timeout=120, cwd=ROOT)
    out = r.stdout.decode().replace("\r\n", "\n")
    assert out.endswith("   score? \nstopped\ntc>\n"), out[-300:]
