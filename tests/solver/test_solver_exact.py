"""The exact search in several processes and resumable from a checkpoint (issue 29)."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from tinyc.solver.cli import main
from tinyc.solver.exact import Checkpoint, exact_tree
from tinyc.solver.exact_tasks import solve_part
from tinyc.solver.games import Game, GameError, get_game
from tinyc.solver.optimal import OptimalSearch, optimal_tree
from tinyc.solver.tree import packaged_tree

MM = get_game("mastermind")


def _bare(doc):
    doc = dict(doc)
    doc.pop("search", None)
    return doc


def test_parts_in_two_processes_give_the_one_process_tree():
    serial = optimal_tree(OptimalSearch(MM), MM.code_id("1123"))
    par = exact_tree(MM, MM.code_id("1123"), jobs=2, split_part=10**6)   # no part split
    assert par["total"] == 5625 and _bare(par) == serial
    assert par["search"]["parts"] == 13 and par["search"]["resumed"] == 0


@pytest.mark.parametrize("game,opening,total", [
    (Game("mm3", "123", 4, repeats=True), None, 246),           # 4 pegs, 3 colours
    (Game("d16", "123456", 4, repeats=False), "1234", 1446),    # 4 distinct digits of 1-6
])
def test_small_games_optima(game, opening, total):
    op = None if opening is None else game.code_id(opening)
    doc = exact_tree(game, op, jobs=2)
    assert doc["total"] == total
    assert _bare(doc) == optimal_tree(OptimalSearch(game), op)


@pytest.mark.slow  # a whole search split by second guesses (6 s)
def test_a_guess_limit_split_by_second_guesses_gives_koyama_and_lais_5626():
    # Mastermind within 5 guesses: 5626 (Koyama and Lai 1993), every part of 100 codes or
    # more split by its second guesses, those that leave a part too large never sent
    one = exact_tree(MM, MM.code_id("1123"), max_depth=5, jobs=1, split_part=10**6)
    two = exact_tree(MM, MM.code_id("1123"), max_depth=5, jobs=2, split_part=100)
    assert one["total"] == two["total"] == 5626
    assert one["search"]["totals"] == two["search"]["totals"]
    from tinyc.solver.exact import _parts
    from tinyc.solver.exact_tasks import _Split
    search = OptimalSearch(MM, max_depth=5)
    part = max(_parts(search, [MM.code_id("1123")]), key=lambda p: len(p[2]))
    split = _Split(search, part, {})
    cap = search._cap[3]          # a part after the second guess has 3 guesses left
    largest = [np.bincount(search.full[g, part[2]]).max() for g in split.guesses]
    assert split.guesses and max(largest) <= cap
    assert len(split.guesses) < len(search._candidate_guesses(part[2], (part[0],))[0])


def test_parts_of_bc_tc_game_match_the_published_optimum():
    # bulls-cows-1to9 from 1234 (total 14914): five of its thirteen first-level parts,
    # solved alone, give their documented totals and the shipped tree's subtrees
    g = get_game("bulls-cows-1to9")
    shipped = packaged_tree(g.name, None, None)["tree"]
    assert shipped["guess"] == "1234"
    opening = g.code_id("1234")
    row = OptimalSearch(g).full[opening]
    for answer, size, total in [("3,0", 20, 57), ("2,1", 60, 189), ("0,4", 9, 23),
                                ("1,3", 8, 22), ("2,2", 6, 15)]:
        b, c = map(int, answer.split(","))
        cands = np.flatnonzero(row == g.score_id(b, c))
        got, tree, _, _ = solve_part(g, opening, cands, None, 2)
        assert (len(cands), got) == (size, total)
        assert tree == shipped["answers"][answer]


def test_checkpoint_resumes_without_solving_again(tmp_path):
    path = str(tmp_path / "mm.sqlite")
    first = exact_tree(MM, MM.code_id("1123"), checkpoint=path)
    again = exact_tree(MM, MM.code_id("1123"), checkpoint=path, jobs=2)
    assert again["search"]["resumed"] == 13 and _bare(again) == _bare(first)
    assert again["search"]["nodes"] == first["search"]["nodes"]


def test_checkpoint_of_another_search_is_refused(tmp_path):
    path = str(tmp_path / "mm.sqlite")
    exact_tree(Game("mm3", "123", 4, repeats=True), None, checkpoint=path)
    with pytest.raises(GameError, match=r"another search: max_depth 'None' \(this run: '4'\)"):
        exact_tree(Game("mm3", "123", 4, repeats=True), None, max_depth=4, checkpoint=path)
    with pytest.raises(GameError, match="another search: game 'mm3 .*this run: 'mm4'"):
        Checkpoint(path, {**_identity_of(path), "game": "mm4"})
    with sqlite3.connect(path) as db:                # a file of another tinyc version
        db.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'tinyc'")
    with pytest.raises(GameError, match="tinyc '0.0.1'"):
        exact_tree(Game("mm3", "123", 4, repeats=True), None, checkpoint=path)
    bad = tmp_path / "notes.txt"
    bad.write_text("not a checkpoint\n")
    with pytest.raises(GameError, match="cannot use .* as a checkpoint"):
        exact_tree(MM, MM.code_id("1123"), checkpoint=str(bad))
    other = str(tmp_path / "other.sqlite")            # another program's database: untouched
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(GameError, match="something else"):
        exact_tree(MM, MM.code_id("1123"), checkpoint=other)
    with sqlite3.connect(other) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["notes"]


def _identity_of(path):
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT key, value FROM meta").fetchall())


def test_cli_checkpoint_needs_optimal(capsys):
    assert main(["tree", "--game", "mastermind", "--strategy", "knuth",
                 "--checkpoint", "x.sqlite"]) == 2
    assert "optimal strategy only" in capsys.readouterr().err


def _parts_in(path):
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM parts").fetchone()[0]
    except sqlite3.Error:
        return 0


def _start(path):
    cmd = [sys.executable, "-P", "-m", "tinyc.solver", "tree", "--game", "mastermind", "--strategy",
           "optimal", "--jobs", "2", "--checkpoint", path, "--json"]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _stop_when(p, path, parts, sig):
    deadline = time.time() + 120
    while _parts_in(path) < parts and p.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert p.poll() is None, "the search ended before it could be stopped"
    if sig is None:                                   # one worker process dies
        os.kill(worker_of(p.pid), signal.SIGKILL)
    else:
        os.killpg(p.pid, sig)
    return p.communicate(timeout=60)


def worker_of(pid):
    """A child process of ``pid`` (Linux /proc)."""
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return int(f.read().split()[0])


@pytest.mark.slow  # an exact search killed and resumed: run by .ci/run
def test_a_killed_search_resumes_to_the_same_total(tmp_path):
    # all five Mastermind opening classes, 52 first-level parts
    path = str(tmp_path / "mm.sqlite")
    p = _start(path)
    _, err = _stop_when(p, path, 3, signal.SIGINT)          # Ctrl-C: exit 130, file kept
    assert p.returncode == 130 and err.endswith("stopped\n")
    after_ctrl_c = _parts_in(path)
    assert after_ctrl_c >= 3
    p = _start(path)
    _, err = _stop_when(p, path, after_ctrl_c + 3, None)    # one worker killed
    assert p.returncode == 2 and "a worker process was lost" in err
    assert "keeps the" in err and "run the same command again" in err
    lost = _parts_in(path)
    p = _start(path)
    _stop_when(p, path, lost + 3, signal.SIGKILL)           # killed outright
    assert p.returncode == -signal.SIGKILL
    done = _parts_in(path)
    assert done >= lost + 3
    p = _start(path)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    doc = json.loads(out)
    assert doc["total"] == 5625 and doc["opening"] == "1123"
    assert doc["search"]["resumed"] >= done and doc["search"]["parts"] == 52
    assert doc["search"]["totals"] == {"1111": 6318, "1112": 5791, "1122": 5702,
                                       "1123": 5625, "1234": 5673}
    assert _replay(MM, doc) == (5625, 0)          # split parts: same total, ties may differ


# ---- large parts split by their second guesses ------------------------------------------

def _replay(game, doc):
    from tinyc.solver.evaluate import evaluate
    from tinyc.solver.strategies import make_strategy
    ev = evaluate(game, make_strategy("tree", game, doc=_bare(doc)))
    return ev.total, ev.unsolved


@pytest.mark.slow  # an exact search split into parts: run by .ci/run
def test_split_parts_give_the_same_totals():
    doc = exact_tree(MM, None, jobs=2, split_part=20)     # 41 of the 52 parts are split
    assert doc["search"]["totals"] == {"1111": 6318, "1112": 5791, "1122": 5702,
                                       "1123": 5625, "1234": 5673}
    assert doc["total"] == 5625 and _replay(MM, doc) == (5625, 0)
    mm3 = Game("mm3", "123", 4, repeats=True)
    assert exact_tree(mm3, None, jobs=2, split_part=5)["total"] == 246


def test_split_parts_of_bc_tc_game():
    from tinyc.solver.exact_tasks import run_parts
    g = get_game("bulls-cows-1to9")
    search = OptimalSearch(g)
    opening = g.code_id("1234")
    row = search.full[opening]
    for answer, total in [("2,0", 410), ("0,0", 446)]:
        b, c = map(int, answer.split(","))
        part = (opening, answer, np.flatnonzero(row == g.score_id(b, c)))
        got, tried = [], []
        run_parts(search, [part], 2, None, 2, lambda p, r: got.append(r), 50, {},
                  lambda p, guess, t: tried.append(t))
        assert got[0][0] == total and len(tried) > 1
        assert min(t[0] for t in tried if t[1]) == total


def test_split_part_resumes_from_its_second_guesses(tmp_path):
    path = str(tmp_path / "mm.sqlite")
    first = exact_tree(MM, MM.code_id("1123"), jobs=2, checkpoint=path, split_part=40)
    with sqlite3.connect(path) as db:                 # as if killed before the parts ended
        split = db.execute("SELECT COUNT(DISTINCT answer) FROM guesses").fetchone()[0]
        tried = db.execute("SELECT COUNT(*) FROM guesses").fetchone()[0]
        db.execute("DELETE FROM parts WHERE answer IN (SELECT answer FROM guesses)")
    assert split >= 3
    again = exact_tree(MM, MM.code_id("1123"), jobs=2, checkpoint=path, split_part=40)
    assert again["total"] == first["total"] == 5625 and _bare(again) == _bare(first)
    assert again["search"]["resumed"] == 13 - split
    with sqlite3.connect(path) as db:                 # no second guess was tried again
        assert db.execute("SELECT COUNT(*) FROM guesses").fetchone()[0] == tried
