"""The tiny-c library random number generator (reference section 7 and 14.3)."""
from hypothesis import given, strategies as st

from tinyc.solver.rng import TinyRandom, c_div, c_mod


def test_reference_worked_example_32_bit_divisor_7():
    r = TinyRandom(divisor=7)
    assert [r(1, 10) for _ in range(8)] == [1, 5, 1, 2, 2, 8, 3, 1]
    assert r.last == 1200325565


def test_reference_worked_example_16_bit_divisor_7():
    r = TinyRandom(divisor=7, bits=16)
    assert [r(1, 10) for _ in range(8)] == [1, 1, 1, 6, 9, 8, 10, 5]
    assert r.last == 31811


def test_unseeded_sequence_of_last():
    r = TinyRandom()
    lasts = []
    for _ in range(3):
        r(0, 9)
        lasts.append(r.last)
    assert lasts == [9801, 970299, 96059601]
    assert r.seed == 99


def test_default_divisor_is_8():
    r = TinyRandom()
    assert r(0, 1000000) == 9801 // 8


def test_seeding_is_seed_equals_last():
    r = TinyRandom(1234)
    assert r.seed == r.last == 1234
    assert r(0, 99) == (1234 * 1234 // 8) % 100


def test_state_is_carried_across_calls_with_different_ranges():
    a, b = TinyRandom(77), TinyRandom(77)
    xs = [a(0, m) for m in (3023, 200, 17, 3)]
    ys = [b(0, m) for m in (3023, 200, 17, 3)]
    assert xs == ys


@given(st.integers(-10**6, 10**6), st.integers(-1000, 1000).filter(bool))
def test_c_division(a, b):
    q, r = c_div(a, b), c_mod(a, b)
    assert q * b + r == a
    assert abs(r) < abs(b)
    assert r == 0 or (r > 0) == (a > 0)


@given(st.integers(1, 2**31 - 1), st.integers(1, 5000))
def test_results_in_range(seed, m):
    r = TinyRandom(seed)
    for _ in range(5):
        assert 0 <= r(0, m - 1) < m


# ---- a negative index from random (issue 16) -----------------------------------------------

def test_int_min_gives_a_result_below_low():
    # seed 2 (= 2 mod 4): last = 2**(k+1) after call k, INT_MIN at the 30th; -INT_MIN stays
    r = TinyRandom(2)
    results = [r(0, 99) for _ in range(30)]
    assert r.last == -2**31
    assert results[-1] == c_mod(c_div(-2**31, 8), 100) < 0
    assert all(0 <= x < 100 for x in results[:-1])
    assert r(0, 99) == 0 and r.last == 0        # INT_MIN * 2 wraps to 0
    r(0, 99)
    assert r.seed == 99                          # and the next call restarts with 99


def test_random_strategy_stops_like_bc_tc_on_a_negative_index():
    from tinyc.solver.evaluate import evaluate
    from tinyc.solver.games import get_game
    g = get_game("bulls-cows-1to9")
    ev = evaluate(g, "random", first=12, seed=2, keep_games=True)
    assert [r.secret for r in ev.failed] == [8]
    bad = ev.failed[0]
    assert "RANGERR 6" in bad.reason and "gave -16" in bad.reason
    # the failing call made no guess (an index -16 would have taken the 16th code from the end)
    assert len(bad.guesses) == 1 and not bad.solved
    assert ev.solved == 11 and ev.unsolved == 1 and ev.games[9].solved


def test_random_cannot_be_split_over_jobs():
    import pytest
    from tinyc.solver.evaluate import evaluate
    from tinyc.solver.games import GameError, get_game
    with pytest.raises(GameError, match="one sequence"):
        evaluate(get_game("mastermind"), "random", jobs=2)
