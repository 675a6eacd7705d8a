"""Evaluation by decision tree and its split over processes by subtree (issue 29).

The per-secret player (``evaluate.play``, ``by="secret"``) is the reference: the tree walk
must give every secret the same game, and ``--jobs N`` the same as one process.
"""
import copy
import json

import numpy as np
import pytest

from tinyc.solver.cli import main
from tinyc.solver.evaluate import evaluate, play
from tinyc.solver.games import GameError, get_game
from tinyc.solver.parallel import by_subtree
from tinyc.solver.strategies import make_strategy
from tinyc.solver.table import score_table
from tinyc.solver.treewalk import root_node, walk

# (game, strategy, options, first N secrets, guess limit)
CASES = [
    ("mastermind", "knuth", {}, None, 60),
    ("mastermind", "most-parts", {}, 700, 60),            # only the first 700 secrets
    ("mastermind", "knuth", {}, None, 4),                 # 694 games stop at the limit
    ("bulls-cows-1to9", "entropy-consistent", {}, None, 60),
    ("bulls-cows-1to9", "expected-size", {"opening": "1357"}, 1000, 60),
    ("mastermind", "optimal", {}, None, 60),              # the shipped 5625 tree
]


def _games(ev):
    return [(r.secret, r.guesses, r.solved, r.reason) for r in ev.games]


def _summary(ev):
    return ev.histogram, ev.total, ev.worst, ev.unsolved, ev.strategy, len(ev.repeated)


@pytest.mark.parametrize("game,name,opts,first,limit", CASES)
def test_tree_walk_and_jobs_give_every_secret_the_same_game(game, name, opts, first, limit):
    g = get_game(game)
    kw = dict(first=first, max_guesses=limit, keep_games=True, **opts)
    ref = evaluate(g, name, by="secret", **kw)
    one = evaluate(g, name, **kw)                    # the tree walk, one process
    two = evaluate(g, name, jobs=2, **kw)            # split by subtree
    three = evaluate(g, name, jobs=3, **kw)
    assert _summary(ref) == _summary(one) == _summary(two) == _summary(three)
    assert _games(ref) == _games(one) == _games(two) == _games(three)
    assert [r.secret for r in one.failed] == [r.secret for r in two.failed]
    if limit == 4:
        assert one.unsolved == 694 and one.failed[0].reason == "not solved in 4 guesses"


def test_known_figures_hold_with_jobs():
    ev = evaluate(get_game("mastermind"), "knuth", jobs=2)
    assert ev.histogram == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694} and ev.total == 5801
    ev = evaluate(get_game("mastermind"), "optimal", jobs=2)
    assert ev.total == 5625 and ev.worst == 6


class Counting:
    """Wraps a strategy and counts the guesses it is asked for."""

    def __init__(self, strat):
        self.strat, self.calls = strat, 0

    def __getattr__(self, name):
        return getattr(self.strat, name)

    def next_guess(self, cands, history):
        self.calls += 1
        return self.strat.next_guess(cands, history)


@pytest.mark.parametrize("game,name", [("mastermind", "knuth"), ("bulls-cows-1to9", "most-parts")])
def test_every_node_computes_its_guess_once(game, name):
    g = get_game(game)
    table = score_table(g)
    # the per-secret player with its cache: one entry per node of the decision tree
    cache: dict = {}
    strat = make_strategy(name, g, table)
    for s in range(g.size):
        play(strat, table, s, cache=cache)
    counting = Counting(make_strategy(name, g, table))
    serial: dict = {}
    walk(counting, table, root_node(g.size, g.size), 60, stats=serial)
    assert counting.calls == serial["nodes"] == len(cache)
    stats: dict = {}
    results = by_subtree(g, strat, root_node(g.size, g.size), 60, 2, stats=stats)
    assert len(results) == g.size
    assert stats["nodes"] == len(cache)             # no node computed twice over processes
    assert stats["expanded"] >= 2                   # the first levels were split ...
    assert stats["subtrees"] and max(stats["subtrees"]) <= stats["split"]   # ... to a size
    solved_at_expanded = g.size - sum(stats["subtrees"])
    assert 0 <= solved_at_expanded <= stats["expanded"]


def _mastermind_tree():
    from tinyc.solver.tree import packaged_tree
    return copy.deepcopy(packaged_tree("mastermind", None, None))


def test_tree_gap_is_the_same_unsolved_games_with_jobs():
    g = get_game("mastermind")
    doc = _mastermind_tree()
    answers = doc["tree"]["answers"]
    gone = sorted(answers)[3]
    del answers[gone]                                 # a branch the tree lacks
    del doc["total"]
    strat = make_strategy("tree", g, doc=doc)
    ref = evaluate(g, strat, by="secret", keep_games=True)
    two = evaluate(g, strat, jobs=2, keep_games=True)
    assert ref.unsolved > 0 and "no branch" in ref.failed[0].reason
    assert _games(ref) == _games(two) and _summary(ref) == _summary(two)


def test_a_malformed_tree_is_an_error_from_a_worker_too():
    g = get_game("mastermind")
    doc = _mastermind_tree()
    first = sorted(doc["tree"]["answers"])[0]
    doc["tree"]["answers"][first]["guess"] = "9999"
    strat = make_strategy("tree", g, doc=doc)
    with pytest.raises(GameError, match="not a mastermind code"):
        evaluate(g, strat, jobs=2)


def test_walk_refuses_a_strategy_without_a_tree():
    with pytest.raises(ValueError, match="no decision tree"):
        evaluate(get_game("hex"), "phase", first=3, by="tree")


def test_cli_jobs_prints_the_same_json(capsys):
    out = []
    for jobs in ("1", "2"):
        assert main(["evaluate", "--game", "bulls-cows-1to9", "--strategy", "knuth",
                     "--jobs", jobs, "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        doc.pop("seconds")
        out.append(doc)
    assert out[0] == out[1] and out[0]["total"] == 15311


def test_root_node_marks_the_first_secrets():
    node = root_node(10, 4)
    assert node.weight == 4 and list(node.secrets()) == [0, 1, 2, 3]
    assert np.array_equal(node.cands, np.arange(10)) and node.path == []


def test_ctrl_c_stops_the_workers_too():
    import os
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-P", "-m", "tinyc.solver", "evaluate", "--game", "hex",
                          "--strategy", "knuth", "--jobs", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(3)
    os.killpg(p.pid, signal.SIGINT)                  # what Ctrl-C does: the whole group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err == "stopped\n"
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):          # no worker left behind
        os.killpg(p.pid, 0)


def test_a_lost_worker_is_a_clear_error():
    import os
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-P", "-m", "tinyc.solver", "evaluate", "--game", "hex",
                          "--strategy", "knuth", "--jobs", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(3)
    with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:   # a worker process
        os.kill(int(f.read().split()[0]), signal.SIGKILL)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2
    assert err.startswith("tinyc-solver: error: a worker process was lost")
