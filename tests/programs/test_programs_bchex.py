"""programs/bchex.tc (issue 40): the seeds' hex phase AI (seeds 000 and 001: the Pen, the Field, the
Pasture) in tiny-c, run by ``tinyc run`` and compared game for game, guess for guess, with the solver's
``phase-fixed`` strategy on the hex game (43680 codes).

The automated mode that shows every game (``bchexv``) plays the first 500 secrets, the dialogue a fixed
sample spread over all 43680, one game each; the test marked ``slow`` plays every secret
(about 5 s of CPU on the fast engine, 10 s for the solver's side; ``pytest -m slow``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import guessers
from guessers import scorer
from tinyc.solver import evaluate, get_game, make_strategy, play, score_table

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("hex")
CODE = r"[0-9A-F]{4}"
GUESS = re.compile(rf"Guess (\d+): ({CODE})   score\? ")


def phase_fixed(n: int):
    return evaluate(GAME, "phase-fixed", first=n, keep_games=True)


def compare(out: str, ev, n: int, shown: int) -> None:
    """Game for game, then the whole report (hex codes)."""
    guessers.compare(out, ev, n, shown, CODE)


def tinyc_run(entry: str, typed: str, engine: str = "fast", timeout: int = 600) -> str:
    return guessers.tinyc_run("bchex.tc", entry, typed, engine, timeout)


# ---- the automated mode ----------------------------------------------------------------------------------

def test_bchex_first_500_secrets_game_for_game():
    out = tinyc_run("bchexv", "500\n")
    compare(out, phase_fixed(500), 500, 500)


def test_bchex_automated_report_shows_the_last_four_games():
    out = tinyc_run("bchexa", "0\n43681\n7\n")
    assert out.count("from 1 to 43680, please: ") == 2
    compare(out, phase_fixed(7), 7, 4)


@pytest.mark.slow
def test_bchex_every_secret_game_for_game():
    ev = phase_fixed(GAME.size)
    assert (ev.total, ev.worst) == (609432, 36)  # what the solver and docs/solver.md say
    out = tinyc_run("bchexv", "43680\n", timeout=3600)
    compare(out, ev, GAME.size, GAME.size)


# ---- the dialogue -------------------------------------------------------------------------------------

def phase_guesses(secret: str) -> list[str]:
    strat = make_strategy("phase-fixed", GAME, score_table(GAME))
    return [GAME.codes[g] for g in play(strat, score_table(GAME), GAME.index[secret]).guesses]


# a fixed sample over the whole range: a Pen of 4 (0123 itself, 0132), seed 001's examples (75C0,
# 3601) and seed 000's (83A6), the opposite swap (A68E, docs/solver.md), the fifth set (048C, C840),
# the last code, and the two longest games (15D9, 35DB: 36 tries, the solver's worst)
SAMPLE = ["0123", "0132", "75C0", "3601", "83A6", "A68E", "048C", "C840", "FEDC", "15D9", "35DB"]


@pytest.mark.parametrize("secret", SAMPLE)
def test_bchex_dialogue_plays_the_solvers_game(secret):
    guesses = phase_guesses(secret)
    out = tinyc_run("bchex", scorer(secret)(guesses))
    assert " 0B0C  9  0B1C 10  0B2C 11  0B3C 12  0B4C 13\n" in out
    shown = GUESS.findall(out)
    assert [g for _, g in shown] == guesses
    assert [int(k) for k, _ in shown] == list(range(1, len(guesses) + 1))
    n = len(guesses)
    assert out.endswith(f"I got it in {n} {'try' if n == 1 else 'tries'}!\n")


def test_bchex_on_the_reference_engine_too():
    guesses = phase_guesses("0132")
    out = tinyc_run("bchex", scorer("0132")(guesses), engine="reference")
    assert [g for _, g in GUESS.findall(out)] == guesses


def test_bchex_bad_scores_are_asked_again_and_inconsistent_ones_offer_a_restart():
    secret = "75C0"
    guesses = phase_guesses(secret)
    # 14, -1 and a word are asked again; the game then goes on with the true scores
    out = tinyc_run("bchex", "14\n-1\nabc\n" + scorer(secret)(guesses))
    assert out.count("the score is a number from 0 to 13, try again: ") == 3
    assert "number required" not in out
    assert [g for _, g in GUESS.findall(out)] == guesses
    # 0B0C (9) for each guess of set 0 (0123 4567 89AB CDEF) leaves no digit at all: no number fits
    out = tinyc_run("bchex", "9\n9\n9\n9\ny\n" + scorer(secret)(guesses))
    assert "No number fits all of those scores: one of them must be wrong.\nStart again (y/n)? " in out
    after = out.split("Start again (y/n)? ", 1)[1]  # the new game is the same game again
    assert [g for _, g in GUESS.findall(after)] == guesses
    assert after.endswith(f"I got it in {len(guesses)} tries!\n")
    # declining the restart ends the run
    out = tinyc_run("bchex", "9\n9\n9\n9\nn\n")
    assert out.endswith("Start again (y/n)? \n")


def test_bchex_end_of_input_stops_the_game_and_keeps_the_program():
    # in the shell, as bc.tc: the game stops and the program stays in the buffer
    r = subprocess.run([sys.executable, "-P", "-m", "tinyc"], input=b".r programs/bchex.tc\n.bchex\n9\n",
                       capture_output=True, timeout=120, cwd=ROOT)
    out = r.stdout.decode().replace("\r\n", "\n")
    assert out.endswith("   score? \nstopped\ntc>\n"), out[-300:]


# ---- where it is offered ----------------------------------------------------------------------------

def test_bchex_is_listed_and_in_the_playgrounds_examples():
    r = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "--list"], capture_output=True, timeout=120)
    assert "bchex.tc" in r.stdout.decode().split()
    import importlib.util
    spec = importlib.util.spec_from_file_location("web_build", ROOT / "web" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    offered = {e["name"]: e for e in build.examples()}
    assert (offered["bchex.tc"]["entry"], offered["bchex.tc"]["stdin"]) == ("bchexa", "300\n")
