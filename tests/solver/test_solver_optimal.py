"""The exact optimal strategy (issue 16): branch-and-bound against a separate brute force,
symmetry classes against explicit group orbits, trees replayed with the plain scorer."""
import gzip
import itertools
import json
import os

import numpy as np
import pytest

from tinyc.solver.cli import main
from tinyc.solver.evaluate import evaluate
from tinyc.solver.games import Game, get_game, score
from tinyc.solver.optimal import OptimalSearch, Symmetry, lower_bounds, optimal_tree
from tinyc.solver.strategies import make_strategy
from tinyc.solver.tree import packaged_tree, tree_stats

MM = get_game("mastermind")
MM3 = Game("mm-4x3", "123", 4, repeats=True, description="test: 4 pegs, 3 colours")
MM4 = Game("mm-4x4", "1234", 4, repeats=True, description="test: 4 pegs, 4 colours")
D16 = Game("distinct-1to6", "123456", 4, repeats=False, description="test: 4 distinct of 1-6")


# ---- a separate brute force: every guess of every node, plain Python scoring -----------------

def brute_optimum(game: Game) -> int:
    """Least total guesses over all secrets, by exhaustive search over every code as guess at
    every node: plain Python scores, memoised on the candidate set, guesses with the same
    partition tried once, a candidate that tells all others apart taken at once (2m - 1 is
    the least possible), and a guess dropped once its parts' 2k - 1 bounds reach the best
    total so far. No symmetry, no ordering, none of the module's code but ``score``."""
    codes = game.codes
    n = len(codes)

    def pegs(a, b):
        bulls, cows = score(a, b)
        return 10 * bulls + cows

    win = 10 * game.length
    tbl = [[pegs(a, b) for b in codes] for a in codes]
    exact, lower = {}, {}

    def T(S, budget):
        # exact total of S if below budget, else a value >= budget; a part of k codes needs
        # at least 2k - 1 guesses (1 + 2 + 2 + ... at best), the only bound used here
        m = len(S)
        if m <= 2:
            return 2 * m - 1
        if S in exact:
            return exact[S]
        if lower.get(S, 0) >= budget:
            return lower[S]
        for g in S:
            if len({tbl[g][c] for c in S}) == m:
                exact[S] = 2 * m - 1
                return exact[S]
        best, seen = budget, set()
        for g in range(n):
            parts = {}
            for c in S:
                r = tbl[g][c]
                if r != win:
                    parts.setdefault(r, []).append(c)
            if len(parts) == 1 and len(next(iter(parts.values()))) == m:
                continue
            sig = tuple(sorted(tuple(p) for p in parts.values()))
            if sig in seen:
                continue
            seen.add(sig)
            t = m + sum(2 * len(p) - 1 for p in sig)
            for p in sig:
                if t >= best:
                    break
                t += T(p, best - t + 2 * len(p) - 1) - (2 * len(p) - 1)
            if t < best:
                best = t
        if best < budget:
            exact[S] = best
        else:
            lower[S] = budget
        return best

    return T(tuple(range(n)), 10 ** 9)


def test_brute_force_equals_branch_and_bound_mastermind_4x3():
    search = OptimalSearch(MM3)
    best, totals = search.best_opening()
    assert min(totals.values()) == search.best_with_opening(best) == brute_optimum(MM3)


def test_known_optima_of_the_small_games():
    # 4x4 Mastermind: 905, found by brute_optimum (204 s here, run with TINYC_SLOW_TESTS=1)
    assert OptimalSearch(MM4).best_opening()[1] == {
        MM4.code_id("1111"): 1035, MM4.code_id("1112"): 932, MM4.code_id("1122"): 912,
        MM4.code_id("1123"): 905, MM4.code_id("1234"): 954}
    assert OptimalSearch(D16).best_opening()[1] == {D16.code_id("1234"): 1446}


@pytest.mark.skipif(not os.environ.get("TINYC_SLOW_TESTS"), reason="minutes: TINYC_SLOW_TESTS=1")
@pytest.mark.parametrize("game", [MM4, D16], ids=lambda g: g.name)
def test_brute_force_equals_branch_and_bound_slow(game):
    assert brute_optimum(game) == min(OptimalSearch(game).best_opening()[1].values())


@pytest.mark.parametrize("game", [MM3, MM4, D16], ids=lambda g: g.name)
def test_tree_replays_to_claimed_total(game):
    search = OptimalSearch(game)
    doc = optimal_tree(search)
    found, total, hist = tree_stats(doc["tree"])
    assert found == game.size and total == doc["total"]
    ev = evaluate(game, make_strategy("tree", game, doc=doc))
    assert ev.unsolved == 0 and ev.total == doc["total"] and ev.histogram == hist


def test_lower_bounds():
    # R = 13 answers: 1 secret at guess 1, 13 at guess 2, 169 at guess 3
    lb = lower_bounds(200, 13)
    assert lb[1] == 1 and lb[2] == 3 and lb[14] == 27 and lb[15] == 30
    assert lb[183] == 1 + 2 * 13 + 3 * 169 and lb[184] == lb[183] + 4


def _bound_over_every_guess(search: OptimalSearch, S: np.ndarray) -> int:
    """The least first-guess bound of S, every code tried as a guess, in plain Python."""
    m = len(S)
    best = None
    for g in range(search.n):
        sizes: dict[int, int] = {}
        for s in S.tolist():
            a = int(search.full[g, s])
            if a != search.win:
                sizes[a] = sizes.get(a, 0) + 1
        b = m + sum(int(search.lb[c]) for c in sizes.values())
        best = b if best is None else min(best, b)
    return max(best, int(search.lb[m]))


@pytest.mark.parametrize("game", ["mastermind", "bulls-cows-1to9"])
def test_a_parts_bound_is_the_least_over_every_guess(game):
    """``_part_bound`` settles small parts from their own codes when it can (a guess from
    outside cannot beat them) and counts every guess otherwise: both give the least bound
    over every guess, on real candidate sets (after one or two guesses) and random ones."""
    g = get_game(game)
    search = OptimalSearch(g)
    rng = np.random.default_rng(29)
    sets = []
    for _ in range(40):
        S = np.arange(g.size)
        for _ in range(int(rng.integers(1, 3))):
            row = search.full[int(rng.integers(g.size)), S]
            S = S[row == row[int(rng.integers(len(S)))]]
        sets.append(S)
        sets.append(np.sort(rng.choice(g.size, int(rng.integers(4, 60)), replace=False)))
    sets = [S for S in sets if 4 <= len(S) <= 120][:50]
    assert any(len(S) <= search.SMALL_PART and search._candidates_bound(S) is not None
               for S in sets)            # the shortcut is taken by some of them
    for S in sets:
        assert search._part_bound(S) == _bound_over_every_guess(search, S), S.tolist()


def test_small_parts_of_mastermind_against_exhaustive_search():
    # parts of 4 to 8 codes after one guess: every code as next guess, no bounds (guesses
    # that split the same way, and are both candidates or both not, tried once)
    search = OptimalSearch(MM)
    full = search.full

    memo = {}

    def exhaustive(S):
        m = len(S)
        if m == 1:
            return 1
        key = tuple(S.tolist())
        if key in memo:
            return memo[key]
        best, seen = None, set()
        for g in range(MM.size):
            row = full[g, S]
            sig = tuple(row.tolist()) if g not in key else (g,) + tuple(row.tolist())
            if sig in seen:
                continue
            seen.add(sig)
            parts = [S[row == sid] for sid in np.unique(row) if sid != MM.win]
            if len(parts) == 1 and len(parts[0]) == m:
                continue
            t = m + sum(exhaustive(p) for p in parts)
            best = t if best is None or t < best else best
        memo[key] = best
        return best

    S = np.arange(MM.size)
    checked = 0
    for opening in ("1122", "3456", "1123"):
        g = MM.code_id(opening)
        row = full[g, S]
        for sid in np.unique(row):
            part = S[row == sid]
            if sid == MM.win or not 4 <= len(part) <= 8:
                continue
            t, guess = search.best_guess(part, (g,))
            assert t == exhaustive(part) >= search.lb[len(part)]
            checked += 1
    assert checked >= 3


# ---- symmetry ----------------------------------------------------------------------------

def orbit_reps(game: Game, history):
    """Least code of each orbit under the symbol x position permutations fixing history."""
    k, L = len(game.alphabet), game.length
    digits = [tuple(r) for r in game.digits.tolist()]
    index = {d: i for i, d in enumerate(digits)}
    group = []
    for sig in itertools.permutations(range(k)):
        for perm in itertools.permutations(range(L)):
            def act(c, sig=sig, perm=perm):
                return tuple(sig[c[perm[q]]] for q in range(L))
            if all(act(digits[h]) == digits[h] for h in history):
                group.append(act)
    reps = set()
    for i, d in enumerate(digits):
        reps.add(min(index[f(d)] for f in group))
    return sorted(reps)


@pytest.mark.parametrize("game,history", [
    (MM3, ()), (MM3, ("1122",)), (MM3, ("1123", "2213")), (MM4, ("1234",)),
    (MM4, ("1123",)), (D16, ("1234",)), (D16, ("1234", "2156")),
])
def test_symmetry_classes_equal_group_orbits(game, history):
    hist = tuple(game.code_id(h) for h in history)
    got = np.flatnonzero(Symmetry(game).representatives(hist)).tolist()
    assert got == orbit_reps(game, hist)


def test_opening_classes():
    assert [MM.codes[g] for g in OptimalSearch(MM).openings()] == [
        "1111", "1112", "1122", "1123", "1234"]
    assert [get_game("bulls-cows-1to9").codes[g]
            for g in OptimalSearch(get_game("bulls-cows-1to9")).openings()] == ["1234"]


# ---- the shipped mastermind tree (Koyama and Lai 1993: 5625) --------------------------------

def _replay_plain(game, node, secret):
    """Guesses a tree document needs for ``secret``, scored with the plain Python scorer."""
    for k in range(1, 30):
        b, c = score(node["guess"], secret)
        if b == game.length:
            return k
        node = node["answers"][f"{b},{c}"]
    raise AssertionError("no end")


def test_shipped_mastermind_tree_is_5625_from_1123():
    doc = packaged_tree("mastermind")
    assert doc is not None and doc["opening"] == "1123" and doc["total"] == 5625
    total = sum(_replay_plain(MM, doc["tree"], s) for s in MM.codes)
    assert total == 5625
    ev = evaluate(MM, "optimal")
    assert ev.total == 5625 and ev.unsolved == 0 and ev.worst == 6


def test_optimal_depth_limit_5_on_mastermind_4x4_is_not_better():
    free = OptimalSearch(MM4)
    limited = OptimalSearch(MM4, max_depth=3)
    g = MM4.code_id("1123")
    assert limited.best_with_opening(g) >= free.best_with_opening(g)
    doc = optimal_tree(OptimalSearch(MM4, max_depth=4), g)
    assert max(tree_stats(doc["tree"])[2]) <= 4


# ---- command line -------------------------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tree_command_json_dot_and_replay(capsys, tmp_path):
    code, out, _ = run(capsys, "tree", "--game", "mastermind", "--strategy", "knuth", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["opening"] == "1122" and doc["total"] == 5801
    path = tmp_path / "knuth.json"
    path.write_text(out)
    code, out, _ = run(capsys, "evaluate", "--game", "mastermind", "--tree", str(path))
    assert code == 0 and "total 5801" in out and "the replay agrees" in out
    # a tree that claims a wrong total is caught by the replay
    doc["total"] = 5800
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "evaluate", "--game", "mastermind", "--tree", str(path))
    assert code == 1 and "DISAGREES" in out
    # a missing branch leaves its secrets unsolved
    del doc["tree"]["answers"]["0,0"]
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "evaluate", "--game", "mastermind", "--tree", str(path), "--json")
    assert code == 1 and json.loads(out)["unsolved"] == 256
    code, out, _ = run(capsys, "tree", "--game", "mastermind", "--strategy", "optimal", "--dot")
    assert code == 0 and out.startswith("digraph") and 'label="1123\\n1296"' in out
    nodes = out.count("[label=\"") - out.count("-> ")
    assert out.count("-> ") == nodes - 1


def test_tree_command_text_and_errors(capsys, tmp_path):
    code, out, _ = run(capsys, "tree", "--game", "mastermind", "--strategy", "optimal",
                       "--levels", "1")
    assert code == 0 and out.splitlines()[1] == "1123 (1296)"
    code, _, err = run(capsys, "tree", "--game", "mastermind", "--strategy", "random")
    assert code == 2 and "no decision tree" in err
    code, _, err = run(capsys, "tree", "--game", "hex", "--strategy", "optimal")
    assert code == 2 and "too large" in err and err.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, _, err = run(capsys, "evaluate", "--tree", str(bad))
    assert code == 2 and "cannot read tree" in err
    code, _, err = run(capsys, "evaluate", "--game", "bulls-cows-1to9", "--tree",
                       str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read tree" in err


def test_tree_output_gz(capsys, tmp_path):
    target = tmp_path / "t.json.gz"
    code, _, _ = run(capsys, "tree", "--game", "mastermind", "--strategy", "optimal", "--json",
                     "-o", str(target))
    with gzip.open(target, "rt") as f:
        assert json.load(f)["total"] == 5625


def test_opening_option(capsys):
    code, out, _ = run(capsys, "tree", "--game", "mastermind", "--strategy", "expected-size",
                       "--opening", "1234", "--json")
    assert code == 0 and json.loads(out)["opening"] == "1234"
    code, out, _ = run(capsys, "hint", "--game", "mastermind", "--strategy", "knuth",
                       "--opening", "3456")
    assert out.splitlines()[-1] == "next guess (knuth): 3456"
    code, _, err = run(capsys, "evaluate", "--strategy", "random", "--opening", "1234")
    assert code == 2 and "cannot take a fixed opening" in err
    code, _, err = run(capsys, "evaluate", "--game", "mastermind", "--opening", "1237")
    assert code == 2 and "not a mastermind code" in err


def test_optimal_hint_off_the_tree_searches(capsys):
    # 3456 is not the tree's opening: the strategy searches the candidates left instead
    code, out, _ = run(capsys, "hint", "--game", "mastermind", "--strategy", "optimal",
                       "3456=1,0", "1122=1,0")
    assert code == 0
    lines = out.splitlines()
    n = int(lines[0].split()[0])
    guess = lines[-1].split()[-1]
    S = [c for c in MM.codes if score("3456", c) == (1, 0) and score("1122", c) == (1, 0)]
    assert n == len(S) > 10
    parts = {}
    for c in S:
        parts.setdefault(score(guess, c), []).append(c)
    assert len(parts) > 1


def test_shipped_bulls_cows_1to9_tree_is_14914_from_1234():
    # reproduces the prototype figure of issue 16 (benchmarks/solver_optimal.py made the tree)
    g = get_game("bulls-cows-1to9")
    doc = packaged_tree(g.name)
    assert doc is not None and doc["opening"] == "1234" and doc["total"] == 14914
    depths = [_replay_plain(g, doc["tree"], s) for s in g.codes]
    assert sum(depths) == 14914 and max(depths) == 7 and depths.count(7) == 7
    ev = evaluate(g, "optimal")
    assert ev.total == 14914 and ev.unsolved == 0


def test_shipped_bulls_cows_1to9_depth6_tree_is_14916_from_1234():
    # issue 29: the best total among trees that never need more than 6 guesses (issue 16
    # proved it at least 14915); docs/solver.md gives the commands that made the tree
    g = get_game("bulls-cows-1to9")
    doc = packaged_tree(g.name, None, 6)
    assert doc is not None and doc["opening"] == "1234" and doc["max_depth"] == 6
    assert doc["total"] == 14916
    depths = [_replay_plain(g, doc["tree"], s) for s in g.codes]
    assert len(depths) == 3024 and sum(depths) == 14916 and max(depths) == 6
    assert {d: depths.count(d) for d in range(1, 7)} == {1: 1, 2: 5, 3: 79, 4: 634, 5: 1698,
                                                          6: 607}
    ev = evaluate(g, make_strategy("optimal", g, max_depth=6))
    assert ev.total == 14916 and ev.unsolved == 0 and ev.worst == 6


def test_shipped_bulls_cows_tree_is_tanakas_26274():
    # issue 29: Tanaka (1996) found 26274 (5.2131 a game) for Bulls and Cows with digits
    # 0-9; the exact search reproduced it (docs/solver.md: command, CPU time, checkpoint)
    g = get_game("bulls-cows")
    doc = packaged_tree(g.name)
    assert doc is not None and doc["opening"] == "0123" and doc["total"] == 26274
    depths = [_replay_plain(g, doc["tree"], s) for s in g.codes]
    assert len(depths) == 5040 and sum(depths) == 26274 and max(depths) == 7
    assert {d: depths.count(d) for d in range(1, 8)} == {1: 1, 2: 7, 3: 62, 4: 676, 5: 2468,
                                                          6: 1753, 7: 73}
    ev = evaluate(g, "optimal")
    assert ev.total == 26274 and ev.unsolved == 0 and ev.worst == 7


def test_malformed_tree_is_a_one_line_error(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "mastermind", "tree": {"candidates": 1296}}))
    code, _, err = run(capsys, "evaluate", "--game", "mastermind", "--tree", str(bad))
    assert code == 2 and "malformed tree" in err and err.count("\n") == 1
    bad.write_text(json.dumps({"game": "bulls-cows", "tree": {}}))
    code, _, err = run(capsys, "evaluate", "--game", "mastermind", "--tree", str(bad))
    assert code == 2 and "for game 'bulls-cows'" in err


def test_part_sizes_are_the_same_with_and_without_the_flat_table(monkeypatch):
    # a game whose flat index table would be too large counts from the score table's
    # columns instead (hits-strikes: 324 MB); both ways give the same part sizes
    g = get_game("bulls-cows-1to9")
    search = OptimalSearch(g)
    S = np.sort(np.random.default_rng(7).choice(g.size, 300, replace=False))
    flat = search._counts(S)
    assert search._flat is not None
    monkeypatch.setattr(OptimalSearch, "FLAT_BYTES", 0)
    fresh = OptimalSearch(g)
    assert (fresh._counts(S) == flat).all() and fresh._flat is None
    assert flat.sum() == g.size * len(S)


@pytest.mark.parametrize("game, opening, total", [
    ("bulls-cows", "9876", 26274),            # every opening of distinct digits: one class
    ("mastermind", "3121", 5625),             # 1123 with its positions and colours permuted
])
def test_a_shipped_tree_moved_to_another_opening_of_its_class(game, opening, total):
    from tinyc.solver.tree import relabel_tree
    g = get_game(game)
    doc = relabel_tree(g, packaged_tree(g.name), opening)
    assert doc is not None and doc["tree"]["guess"] == opening == doc["opening"]
    depths = [_replay_plain(g, doc["tree"], s) for s in g.codes]
    assert sum(depths) == total == doc["total"]
    assert evaluate(g, make_strategy("optimal", g, opening=opening)).total == total


def test_no_symmetry_no_moved_tree():
    from tinyc.solver.symmetry import code_map
    from tinyc.solver.tree import relabel_tree
    assert relabel_tree(MM, packaged_tree(MM.name), "1234") is None       # another opening class
    assert code_map(get_game("hits-strikes"), "1234", "5678") is None     # no leading 0: no symmetry
    move = code_map(get_game("bulls-cows-1to9"), "1234", "5173")
    assert move("1234") == "5173" and score(move("1325"), move("4321")) == score("1325", "4321")
