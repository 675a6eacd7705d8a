"""Strategies of tinyc.solver against published figures and their own definitions."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tinyc.solver.evaluate import evaluate, play
from tinyc.solver.games import get_game, score
from tinyc.solver.strategies import STRATEGIES, make_strategy
from tinyc.solver.table import score_table

MM = get_game("mastermind")


def test_knuth_mastermind_published_figures():
    # Knuth 1977 / seed 003: all 1296 codes in at most 5 guesses, total 5801
    ev = evaluate(MM, "knuth")
    assert ev.histogram == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}
    assert ev.total == 5801 and ev.worst == 5 and ev.secrets == 1296
    assert round(ev.average, 3) == 4.476
    assert not ev.failed and not ev.repeated


def test_knuth_opening_is_1122():
    s = make_strategy("knuth", MM)
    assert MM.codes[s.next_guess(np.arange(MM.size), [])] == "1122"


@pytest.mark.parametrize("name,total,worst", [
    ("expected-size", 5696, 6),   # Irving 1978: 4.395
    ("entropy", 5722, 6),         # Neuwirth 1982: 4.415
    ("most-parts", 5668, 6),      # Kooi 2005: 4.373
])
def test_lookahead_strategies_mastermind(name, total, worst):
    ev = evaluate(MM, name)
    assert ev.total == total and ev.worst == worst and not ev.failed


def _brute_best(pool, cands, key):
    """Reference: best guess by plain Python scoring; key(parts) lower is better."""
    best, best_key = None, None
    for g in pool:
        parts = {}
        for c in cands:
            sc = score(g, c)
            parts[sc] = parts.get(sc, 0) + 1
        k = key(list(parts.values()))
        if best_key is None or k < best_key:
            best, best_key = g, k
    return best


def test_knuth_002_form_second_guess_is_least_minimax_code():
    # seed 002 form: minimax over all codes, least numeric, no preference for candidates
    s = make_strategy("knuth", MM, form="002")
    table = score_table(MM)
    g0 = MM.code_id("1122")
    sid = MM.score_id(1, 0)
    cands = np.flatnonzero(table.row(g0) == sid)
    got = MM.codes[s.next_guess(cands, [(g0, sid)])]
    want = _brute_best(MM.codes, [MM.codes[c] for c in cands], max)
    assert got == want


def test_knuth_002_on_hits_strikes_opens_with_1122_and_solves():
    g = get_game("hits-strikes")
    s = make_strategy("knuth", g)
    assert s.form == "002"
    r = play(s, score_table(g), g.code_id("1234"))
    assert r.solved and g.codes[r.guesses[0]] == "1122" and g.codes[r.guesses[-1]] == "1234"


@pytest.mark.slow  # a whole game family evaluated: run by .ci/run
def test_entropy_consistent_prefers_least_n_ln_n():
    g = get_game("bulls-cows")
    s = make_strategy("entropy-consistent", g)
    table = score_table(g)
    g0 = g.code_id("0123")
    sid = g.score_id(0, 2)
    cands = np.flatnonzero(table.row(g0) == sid)
    got = g.codes[s.next_guess(cands, [(g0, sid)])]
    import math
    want = _brute_best([g.codes[c] for c in cands], [g.codes[c] for c in cands],
                       lambda parts: round(sum(n * math.log(n) for n in parts), 9))
    assert got == want


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["random", "entropy-consistent"]), st.integers(0, 1295), st.integers(1, 10**6))
def test_consistent_strategies_only_guess_consistent_codes(name, secret, seed):
    opts = {"seed": seed} if name == "random" else {}
    s = make_strategy(name, MM, **opts)
    r = play(s, score_table(MM), secret)
    assert r.solved
    codes = [MM.codes[x] for x in r.guesses]
    for k, guess in enumerate(codes):
        for prev in codes[:k]:
            assert score(prev, guess) == score(prev, MM.codes[secret])


def test_cached_tree_equals_plain_play():
    ev = evaluate(MM, "expected-size", keep_games=True)
    s = make_strategy("expected-size", MM)
    for secret in (0, 77, 500, 1295):
        assert play(s, score_table(MM), secret).guesses == ev.games[secret].guesses


def test_random_on_hex_uses_rows_on_demand():
    ev = evaluate(get_game("hex"), "random", first=15, seed=5)
    assert ev.secrets == 15 and not ev.failed and sum(ev.histogram.values()) == 15


def test_first_and_exact_average():
    ev = evaluate(MM, "knuth", first=10)
    assert ev.secrets == 10
    assert ev.total == sum(k * v for k, v in ev.histogram.items())
    assert ev.average_exact == Fraction(ev.total, 10)
    assert ev.average == pytest.approx(ev.total / 10)


def test_every_strategy_has_docstring_and_name():
    for name, cls in STRATEGIES.items():
        assert cls.name == name and cls.__doc__ and cls.summary


# ---- evaluate --jobs (issue 16) ------------------------------------------------------------

@pytest.mark.parametrize("game,name,first", [
    ("mastermind", "knuth", None),
    ("hex", "phase", 300),            # unsolved games must come out the same too
    ("mastermind", "optimal", None),
])
def test_jobs_2_equals_jobs_1(game, name, first):
    g = get_game(game)
    a = evaluate(g, name, first=first, keep_games=True)
    b = evaluate(g, name, first=first, keep_games=True, jobs=2)
    assert (a.histogram, a.total, a.worst, a.strategy) == (b.histogram, b.total, b.worst, b.strategy)
    assert [(r.secret, r.guesses, r.reason) for r in a.games] == \
        [(r.secret, r.guesses, r.reason) for r in b.games]
    assert [r.secret for r in a.failed] == [r.secret for r in b.failed]


# ---- symmetry in the look-ahead strategies (issue 16) ----------------------------------------

@pytest.mark.parametrize("game,name,moves", [
    ("bulls-cows-1to9", "knuth", []),
    ("bulls-cows-1to9", "entropy", [("1234", 0, 1)]),
    ("bulls-cows-1to9", "expected-size", [("1234", 1, 1), ("1356", 0, 2)]),
    ("mastermind", "most-parts", [("1122", 1, 0)]),
    ("mastermind", "knuth", [("1123", 0, 2), ("2456", 1, 1)]),
    ("bulls-cows", "entropy-consistent", [("0123", 0, 2)]),
])
def test_symmetry_reduction_chooses_what_the_whole_pool_chooses(game, name, moves):
    g = get_game(game)
    table = score_table(g)
    history, cands = [], np.arange(g.size)
    for code, b, c in moves:
        gid, sid = g.code_id(code), g.score_id(b, c)
        history.append((gid, sid))
        cands = cands[table.row(gid)[cands] == sid]
    reduced = make_strategy(name, g)
    whole = make_strategy(name, g)
    whole.symmetry_depth = -1
    assert reduced.next_guess(cands, history) == whole.next_guess(cands, history)
