"""Games, scoring and the score tables of tinyc.solver."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tinyc.solver.games import (BC_CODES, GAMES, GameError, bc_code, from_bc_code, get_game,
                                score)
from tinyc.solver.table import score_table


@pytest.mark.parametrize("name,size,first,last", [
    ("bulls-cows-1to9", 3024, "1234", "9876"),
    ("bulls-cows", 5040, "0123", "9876"),
    ("hits-strikes", 9000, "1000", "9999"),
    ("mastermind", 1296, "1111", "6666"),
    ("hex", 43680, "0123", "FEDC"),
])
def test_named_games(name, size, first, last):
    g = get_game(name)
    assert g.size == size == len(g.codes)
    assert g.codes[0] == first and g.codes[-1] == last
    assert g.codes == sorted(g.codes, key=lambda c: int(c, 16))  # ascending numeric order


def test_bca_game_numbers():
    # seed 004: game 0 is 1234 and game 296 is 1925
    g = get_game("bulls-cows-1to9")
    assert g.codes[0] == "1234"
    assert [g.codes[k] for k in range(296, 300)] == ["1925", "1926", "1927", "1928"]


def test_score_examples():
    assert score("1234", "1122") == (1, 1)          # seed 002 example 1
    assert score("3295", "1122") == (0, 1)          # seed 002 example 2: 1 hit 0 strike
    assert score("1122", "1221") == (2, 2)
    assert score("75C0", "4567") == (1, 1)          # seed 001: "1 cow, 1 bull"
    assert score("83A6", "89AB") == (2, 0)          # seed 000: "2 bulls"


def test_bc_code_table_of_seed_004():
    assert bc_code(2, 2) == 4                       # "2 bulls and 2 cows gets a score of 4"
    assert bc_code(4, 0) == 0 and bc_code(0, 4) == 13 and bc_code(1, 3) == 8
    assert sorted(BC_CODES.values()) == list(range(14))
    for code in range(14):
        assert bc_code(*from_bc_code(code)) == code
    with pytest.raises(GameError):
        bc_code(3, 1)
    with pytest.raises(GameError):
        from_bc_code(14)


def test_validation():
    g = get_game("hits-strikes")
    assert g.normalize("1122") == "1122"
    for bad in ("0123", "123", "12a4"):
        with pytest.raises(GameError):
            g.normalize(bad)
    with pytest.raises(GameError):
        get_game("bulls-cows-1to9").normalize("1123")
    assert get_game("hex").normalize("83ad") == "83AD"
    with pytest.raises(GameError):
        get_game("chess")
    with pytest.raises(GameError):
        get_game("mastermind").score_id(3, 1)


codes_mm = st.text(alphabet="123456", min_size=4, max_size=4)


@given(codes_mm, codes_mm)
def test_score_symmetric_and_bounded(a, b):
    bulls, cows = score(a, b)
    assert score(b, a) == (bulls, cows)
    assert 0 <= bulls and 0 <= cows and bulls + cows <= 4
    assert (bulls == 4) == (a == b)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["mastermind", "bulls-cows-1to9", "hits-strikes", "hex"]), st.data())
def test_table_agrees_with_plain_scoring(name, data):
    g = get_game(name)
    i = data.draw(st.integers(0, g.size - 1))
    j = data.draw(st.integers(0, g.size - 1))
    table = score_table(g)
    b, c = score(g.codes[i], g.codes[j])
    assert table.score(i, j) == b * 5 + c
    assert g.split_score(table.score(i, j)) == (b, c)


def test_hex_table_is_on_demand_and_matches_full():
    g = get_game("hex")
    t = score_table(g)
    assert t.full is None                           # 43680^2 would not fit the budget
    rows = np.array([0, 123, 43679])
    blk = t.block(rows, np.arange(g.size))
    assert blk.shape == (3, g.size) and blk.dtype == np.uint8
    assert (blk[1] == t.row(123)).all()
    assert int(blk[2, 5]) == t.score(43679, 5)
    # diagonal is the win
    assert all(t.score(k, k) == g.win for k in (0, 999, 43679))


def test_full_table_symmetric():
    t = score_table(get_game("mastermind"))
    assert t.full.shape == (1296, 1296)
    assert (t.full == t.full.T).all()
    assert (np.diag(t.full) == 20).all()
