"""The exact search: the best total of a split part shared live between its workers, and
its progress (parts done, bound, incumbent, rate) as JSON lines and a tqdm bar (issue 29)."""
import json

import numpy as np
import pytest

from tinyc.solver import exact_tasks
from tinyc.solver.exact import exact_tree
from tinyc.solver.exact_tasks import Incumbents, solve_guesses
from tinyc.solver.games import get_game
from tinyc.solver.optimal import OptimalSearch

MM = get_game("mastermind")
OPENING = MM.code_id("1123")


@pytest.fixture()
def part():
    """Mastermind after 1123 answered 0,1 (276 codes): its second guesses in trial order
    total 976, 980, 975, 976, ... (solved alone), so 975 is the part's optimum."""
    search = OptimalSearch(MM)
    cands = np.flatnonzero(search.full[OPENING] == MM.score_id(0, 1))
    guesses, _ = search._candidate_guesses(cands, (OPENING,))
    exact_tasks._SEARCH.clear()
    yield cands, guesses.tolist()
    exact_tasks._SEARCH.clear()
    exact_tasks._SHARED[0] = None


def _alone(cands, guess, shared=None, slot_index=None):
    exact_tasks._SEARCH.clear()
    exact_tasks._SHARED[0] = shared
    live = None if shared is None else (0, [slot_index])
    return solve_guesses(MM, OPENING, cands, [guess], 1 << 60, None, 2, live)[0]


def test_incumbents_keep_the_least_total_and_count_later_ties_one_more():
    inc = Incumbents(2)
    assert inc.ceiling(0, 5, 99) == 99                 # nothing yet
    inc.offer(0, 976, 3)
    inc.offer(0, 980, 1)                               # worse: ignored
    assert inc.ceiling(0, 5, 99) == 976                # found by an earlier guess
    assert inc.ceiling(0, 2, 99) == 977                # by a later one: a tie must not prune
    inc.offer(0, 976, 0)                               # same total, earlier guess
    assert inc.ceiling(0, 2, 99) == 976 and inc.ceiling(1, 0, 99) == 99


def test_a_shared_total_prunes_a_guess_that_cannot_beat_it(part):
    cands, guesses = part
    alone = _alone(cands, guesses[1])                  # total 980, exact
    assert alone[:2] == (980, True)
    shared = Incumbents(1)
    shared.offer(0, 975, 2)                            # guess 2 found 975 elsewhere
    pruned = _alone(cands, guesses[1], shared, 1)
    assert pruned[:3] == (976, False, None)            # a lower bound: cannot get below 976
    assert pruned[3] < alone[3]                        # fewer search nodes


def test_a_tie_with_a_later_guess_keeps_the_earlier_guess_exact(part):
    cands, guesses = part
    shared = Incumbents(1)
    shared.offer(0, 976, 3)                            # the later guess 3 found 976
    assert _alone(cands, guesses[0], shared, 0)[:2] == (976, True)
    shared = Incumbents(1)
    shared.offer(0, 976, 0)                            # the earlier guess 0 found 976
    assert _alone(cands, guesses[3], shared, 3)[:2] == (976, False)
    assert shared.ceiling(0, 99, 0) == 976             # its own total was not offered


def test_the_search_reads_the_shared_total_while_it_runs(part):
    cands, guesses = part
    search = OptimalSearch(MM)
    full = search._expand(cands, search.INF, (OPENING,), None, fixed=guesses[1])
    whole_nodes = search.nodes
    calls = []

    def ceiling():                                     # 975 arrives after a few reads
        calls.append(1)
        return search.INF if len(calls) < 4 else 975

    search = OptimalSearch(MM)
    search.ceiling = ceiling
    got = search._expand(cands, search.INF, (OPENING,), None, fixed=guesses[1])
    assert full == (980, guesses[1]) and got == (975, -1)
    assert search.nodes < whole_nodes and len(calls) >= 4


def test_live_sharing_gives_the_same_optimum_as_one_process():
    one = exact_tree(MM, OPENING, jobs=1)
    two = exact_tree(MM, OPENING, jobs=2, split_part=20)    # 11 of 13 parts split, shared
    assert one["total"] == two["total"] == 5625


def _events(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_progress_as_json_lines_bound_rises_to_the_incumbent(capsys):
    doc = exact_tree(MM, OPENING, jobs=2, split_part=100, report="json")
    events = _events(capsys.readouterr().err)
    parts = [e for e in events if e["event"] == "part"]
    guesses = [e for e in events if e["event"] == "guess"]
    assert len(parts) == 13 and guesses                  # 0,1 0,2 1,1 1,0 are split
    bounds = [e["bound"] for e in events]
    assert bounds == sorted(bounds) and bounds[0] < 5625 == bounds[-1]
    assert [e["parts_done"] for e in parts] == list(range(1, 14))
    incumbents = [e["incumbent"] for e in events if e["incumbent"] is not None]
    assert incumbents == [5625]                          # known once every part has a total
    search = doc["search"]
    assert (search["bound"], search["incumbent"], search["parts_done"]) == (5625, 5625, 13)
    assert search["rate_parts_per_hour"] > 0


def test_progress_incumbent_from_the_split_parts_best_guesses(tmp_path, capsys):
    # every part but 0,1 solved first (from the checkpoint): 0,1's best second guess so far
    # gives a complete tree, so an incumbent appears before the part ends
    path = str(tmp_path / "mm.sqlite")
    exact_tree(MM, OPENING, jobs=2, checkpoint=path, split_part=10**6)
    import sqlite3
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM parts WHERE answer = '0,1'")
    capsys.readouterr()
    doc = exact_tree(MM, OPENING, jobs=2, checkpoint=path, split_part=100, report="json")
    events = _events(capsys.readouterr().err)
    first = events[0]
    assert first["event"] == "guess" and first["exact"] and first["resumed"] == 12
    assert first["incumbent"] == 5625 - 975 + first["total"] >= 5625
    assert doc["search"]["incumbent"] == doc["total"] == 5625


def test_progress_bar_on_stderr(capsys):
    exact_tree(MM, OPENING, jobs=1, report="bar")
    err = capsys.readouterr().err
    assert "mastermind exact" in err and "13/13" in err and "bound 5625, incumbent 5625" in err
    assert "1123 answer 0,1: 276 candidates, total 975" in err     # part lines above the bar


def test_cli_json_run_reports_progress_on_stderr(tmp_path, capsys):
    from tinyc.solver.cli import main
    path = str(tmp_path / "mm.sqlite")
    assert main(["tree", "--game", "mastermind", "--strategy", "optimal", "--opening", "1123",
                 "--checkpoint", path, "--json"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["total"] == 5625 and doc["search"]["bound"] == doc["search"]["incumbent"] == 5625
    events = _events(err)
    assert len([e for e in events if e["event"] == "part"]) == 13
    assert events[-1]["parts_done"] == 13


@pytest.mark.slow  # a search to its checkpoint (4 s)
def test_one_process_splits_large_parts_into_the_checkpoint(tmp_path):
    # with one process a large part's second guesses are tried in turn, each kept in the
    # checkpoint, and the tree is the one-process search's own
    import sqlite3
    from tinyc.solver.optimal import optimal_tree
    path = str(tmp_path / "mm.sqlite")
    doc = exact_tree(MM, OPENING, jobs=1, checkpoint=path, split_part=100)
    doc.pop("search")
    assert doc == optimal_tree(OptimalSearch(MM), OPENING)
    with sqlite3.connect(path) as db:
        answers = {a for (a,) in db.execute("SELECT DISTINCT answer FROM guesses")}
    assert answers == {"0,1", "0,2", "1,0", "1,1", "2,0"}   # the parts of 100 codes or more
    assert not exact_tasks._SEARCH                           # no memo left behind
