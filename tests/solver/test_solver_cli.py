"""The tinyc-solver command line."""
import io
import json
import os
import subprocess
import sys

import pytest

from tinyc.solver.cli import main
from tinyc.solver.games import get_game, score

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_evaluate_json_keys_exactly(capsys):
    code, out, err = run(capsys, "evaluate", "--game", "mastermind", "--strategy", "knuth", "--json")
    assert code == 0
    obj = json.loads(out)
    assert list(obj) == ["game", "strategy", "secrets", "solved", "unsolved", "histogram", "total",
                         "average", "worst", "seconds", "seed", "divisor", "int_bits", "first", "max_guesses"]
    assert obj["solved"] == 1296 and obj["unsolved"] == 0
    assert obj["seed"] is None and obj["first"] is None and obj["max_guesses"] == 60
    assert obj["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert obj["total"] == 5801 and obj["worst"] == 5 and obj["secrets"] == 1296
    assert err == ""                                   # no progress bar off a terminal


def test_evaluate_text_bca(capsys):
    code, out, _ = run(capsys, "evaluate", "--strategy", "random", "--seed", "3141",
                       "--first", "300", "--show-last", "4")
    assert code == 0
    assert " 296 1925 6598 1654 2964 2681 1936 1925 6 tries!" in out
    assert "    5    135" in out
    assert "(1529/300)" in out


def test_evaluate_reports_unsolved_and_exits_1(capsys):
    code, out, _ = run(capsys, "evaluate", "--game", "hex", "--strategy", "phase", "--first", "40")
    assert code == 1
    assert "NOT SOLVED" in out
    solved = sum(int(line.split()[1]) for line in out.splitlines()
                 if line.strip() and line.split()[0].isdigit() and len(line.split()) == 2)
    assert f"solved {solved} of 40, unsolved {40 - solved}" in out and solved < 40
    code, out, err = run(capsys, "evaluate", "--game", "hex", "--strategy", "phase",
                         "--secrets", "40", "--json")
    obj = json.loads(out)
    assert code == 1 and obj["solved"] == solved and obj["unsolved"] == 40 - solved
    assert "NOT SOLVED" in err


def test_secrets_option_and_its_old_name_first(capsys):
    a = run(capsys, "evaluate", "--game", "mastermind", "--secrets", "7", "--json")
    b = run(capsys, "evaluate", "--game", "mastermind", "--first", "7", "--json")
    assert a[0] == b[0] == 0
    ja, jb = json.loads(a[1]), json.loads(b[1])
    ja.pop("seconds"), jb.pop("seconds")
    assert ja == jb and ja["secrets"] == 7


@pytest.mark.parametrize("argv,needle", [
    (["evaluate", "--game", "chess"], "unknown game"),
    (["evaluate", "--strategy", "guess"], "unknown strategy"),
    (["evaluate", "--strategy", "knuth", "--seed", "4"], "random strategy only"),
    (["evaluate", "--first", "0"], "--first"),
    (["evaluate", "--game", "mastermind", "--strategy", "phase"], "hex"),
    (["score", "12345", "1234"], "not a bulls-cows-1to9 code"),
    (["score", "1123", "1234"], "repeat"),
    (["hint", "--game", "mastermind", "1122=1,0", "1122=2,0"], "inconsistent"),
    (["hint", "--game", "mastermind", "1122=3,1"], "impossible score"),
    (["hint", "--game", "mastermind", "1122"], "GUESS=BULLS,COWS"),
    (["hint", "1234=x"], "score"),
    (["bogus"], "invalid choice"),
    ([], "required"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("tinyc-solver: error:")
    assert needle in err
    assert "Traceback" not in err


def test_score(capsys):
    code, out, _ = run(capsys, "score", "--game", "hits-strikes", "1234", "1122")
    assert code == 0 and out.strip() == "1234 1122: 1 bull 1 cow (bc.tc score 6)"


def test_hint(capsys):
    code, out, _ = run(capsys, "hint", "--game", "mastermind", "1122=1,0", "1344=2,2")
    assert code == 0
    assert out.splitlines() == ["3 candidates: 1434 1443 3144", "next guess (knuth): 1434"]


def test_hint_phase_replays_its_own_game(capsys):
    code, out, _ = run(capsys, "hint", "--game", "hex", "--strategy", "phase",
                       "0123=0,1", "4567=1,1", "89AB=0,0", "CDEF=0,1")
    assert code == 0 and out.splitlines()[-1] == "next guess (phase): 0567"
    code, _, err = run(capsys, "hint", "--game", "hex", "--strategy", "phase", "4567=0,1")
    assert code == 2 and "would have guessed 0123" in err


def test_play(capsys, monkeypatch):
    # the user thinks of 2178 and scores each guess (read from the prompt) as "BbCc"
    from tinyc.solver import interactive as play
    from tinyc.solver.games import score
    secret, guesses = "2178", []

    def answer(prompt):
        guess = prompt.split()[2]          # "guess N: CODE  score? "
        guesses.append(guess)
        return "%db%dc\n" % score(guess, secret)

    monkeypatch.setattr(play, "_read_line", answer)
    code, out, _ = run(capsys, "play", "--strategy", "knuth")
    assert code == 0 and guesses[0] == "1234" and guesses[-1] == secret
    assert f"Got it in {len(guesses)} guesses." in out


def test_play_bc_codes_and_inconsistency(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("9\n9\n9\n"))
    code, out, err = run(capsys, "play", "--bc", "--strategy", "random", "--seed", "7")
    assert code == 0 and "inconsistent" in out and "undo, new or quit? " in out and err == ""


def test_play_input_ends_quietly(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "play")
    assert code == 0 and err == "" and out.endswith("score? \n")


def test_plot(capsys, tmp_path):
    target = tmp_path / "h.png"
    code, out, err = run(capsys, "evaluate", "--game", "mastermind", "--plot", str(target))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert code == 2 and "matplotlib" in err and out == ""
    else:
        assert code == 0 and target.stat().st_size > 1000


def test_python_dash_m():
    env = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-P", "-m", "tinyc.solver", "score", "--game", "mastermind",
                        "1122", "1221"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert p.returncode == 0 and p.stdout.strip() == "1122 1221: 2 bulls 2 cows (bc.tc score 4)"


def test_solver_does_not_import_interpreter():
    env = dict(os.environ, PYTHONPATH=ROOT)
    code = ("import sys, tinyc.solver.cli, tinyc.solver.seeds; "
            "print(sorted(m for m in sys.modules if m.startswith('tinyc') "
            "and not m.startswith('tinyc.solver')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert p.returncode == 0 and p.stdout.strip() == "['tinyc']"


# ---- issue 14 item 9

def test_json_names_the_seed_divisor_and_first(capsys):
    code, out, _ = run(capsys, "evaluate", "--strategy", "random", "--seed", "3141", "--first", "30", "--json")
    obj = json.loads(out)
    assert code == 0 and (obj["seed"], obj["divisor"], obj["int_bits"], obj["first"]) == (3141, 8, 32, 30)
    code, out, _ = run(capsys, "evaluate", "--strategy", "random", "--first", "5", "--json")
    assert json.loads(out)["seed"] == 99  # the default in effect, not null


def test_play_asks_again_after_a_typo(capsys, monkeypatch):
    from tinyc.solver import interactive as play
    from tinyc.solver.games import score
    answers = iter(["oops\n", "1,2,3\n"])

    def answer(prompt):
        guess = prompt.split()[2]
        return next(answers, "%d,%d\n" % score(guess, "2178"))
    monkeypatch.setattr(play, "_read_line", answer)
    code, out, _ = run(capsys, "play", "--strategy", "knuth")
    assert code == 0 and "Got it" in out and out.count("try again") == 2


def test_plot_into_a_directory_writes_inside_it(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    code, _, err = run(capsys, "evaluate", "--game", "mastermind", "--first", "20", "--plot", str(tmp_path))
    assert code == 0 and (tmp_path / "mastermind-knuth.png").stat().st_size > 1000
    assert not tmp_path.with_suffix(".png").exists() and "mastermind-knuth.png" in err


def test_plot_refuses_a_name_without_an_image_suffix(capsys, tmp_path):
    code, out, err = run(capsys, "evaluate", "--first", "5", "--plot", str(tmp_path / "histogram"))
    assert code == 2 and "give a file ending in .png" in err and out == ""


def test_missing_matplotlib_hint_says_how_from_a_checkout():
    from tinyc.solver.plot import _MISSING
    assert "pip install '.[test,plot]'" in _MISSING and "pip install -e '.[test,plot]'" in _MISSING
    assert "tinyc[plot]'\"" not in _MISSING


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and "tinyc-solver" in capsys.readouterr().out


def test_one_bull_is_singular(capsys):
    code, out, _ = run(capsys, "score", "1234", "1325")
    assert out.strip().startswith("1234 1325: 1 bull 2 cows")


def test_codemaker_scores_guesses_reasks_and_hints(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1234\n12\nhint\n1135\n1555\n"))
    code, out, _ = run(capsys, "play", "--game", "mastermind", "--codemaker", "--secret", "1555",
                       "--strategy", "expected-size")
    assert code == 0
    assert "1234: 1 bull 0 cows" in out
    assert "'12' is not a mastermind code" in out and "try again" in out
    assert "Found in 3 guesses." in out
    # the hint after 1234=1,0 lists the candidate count and expected-size's own best guess first
    lines = out.splitlines()
    k = next(i for i, line in enumerate(lines) if "codes fit" in line)
    n = int(lines[k].split("? ")[-1].split()[0])
    assert n == sum(1 for c in get_game("mastermind").codes if score("1234", c) == (1, 0))
    from tinyc.solver.strategies import make_strategy
    g = get_game("mastermind")
    import numpy as np
    cands = np.array([i for i, c in enumerate(g.codes) if score("1234", c) == (1, 0)])
    best = make_strategy("expected-size", g).next_guess(cands, [(g.code_id("1234"), g.score_id(1, 0))])
    assert lines[k + 1].split()[0] == g.codes[best]


def test_codemaker_draw_is_reproducible_and_quit_tells_the_code(capsys, monkeypatch):
    outs = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        code, out, _ = run(capsys, "play", "--codemaker", "--draw", "5")
        assert code == 0
        outs.append(out.splitlines()[-1])
    assert outs[0] == outs[1] and outs[0].startswith("guess 1? The code was ")


# ---- issue 26 items 19-21

@pytest.mark.parametrize("argv", [["hint", "--limit", "-1"], ["evaluate", "--show-last", "-3"],
                                  ["evaluate", "--first", "0"], ["tree", "--levels", "-1"],
                                  ["evaluate", "--max-guesses", "0"]])
def test_bad_values_are_usage_errors(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "must be at least" in err


def test_json_keeps_the_last_games(capsys):
    code, out, _ = run(capsys, "evaluate", "--game", "mastermind", "--first", "10", "--json", "--show-last", "2")
    games = json.loads(out)["last_games"]
    assert code == 0 and [g["index"] for g in games] == [8, 9]
    assert games[-1]["guesses"][-1] == games[-1]["secret"] and games[-1]["tries"] == len(games[-1]["guesses"])


def test_play_bad_score_shows_the_input_without_its_newline(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("one\nquit\n"))
    code, out, _ = run(capsys, "play")
    assert code == 0 and "score 'one': give bulls and cows" in out and "\\n" not in out


def test_play_undo_takes_a_wrong_score_back(capsys, monkeypatch):
    from tinyc.solver import interactive as play
    from tinyc.solver.games import score
    secret, prompts, answers = "2178", [], iter(["0,0\n", "undo\n"])  # a wrong score for 1234, taken back

    def answer(prompt):
        prompts.append(prompt)
        return next(answers, None) or "%d,%d\n" % score(prompt.split()[2], secret)
    monkeypatch.setattr(play, "_read_line", answer)
    code, out, _ = run(capsys, "play", "--strategy", "knuth")
    assert code == 0 and prompts[0] == prompts[2] == "guess 1: 1234  score? "  # asked again after undo
    assert "Got it in" in out and prompts[-1].split()[2] == secret


def test_play_new_starts_again_and_quit_ends(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("0,0\n0,0\n0,0\nnew\nquit\n"))
    code, out, _ = run(capsys, "play", "--game", "mastermind")
    assert code == 0 and out.count("guess 1: 1122") == 2


def test_evaluate_tree_reads_its_game_from_the_file(capsys, tmp_path):
    path = tmp_path / "t.json.gz"
    assert run(capsys, "tree", "--game", "mastermind", "--json", "-o", str(path))[0] == 0
    code, out, err = run(capsys, "evaluate", "--tree", str(path), "--first", "20")
    assert code == 0, err
    assert out.startswith("game mastermind, strategy")


@pytest.mark.parametrize("command", ["tree", "play", "hint"])
def test_help_mentions_only_the_options_the_command_has(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "--tree" not in capsys.readouterr().out


def test_score_help_describes_its_codes(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = capsys.readouterr().out
    assert "the secret code" in out and "the guess" in out


def test_a_repeated_guess_is_a_note_not_an_error(capsys):
    code, out, err = run(capsys, "evaluate", "--game", "hex", "--strategy", "phase-fixed", "--secrets", "300")
    assert code == 0
    assert "REPEATED" not in out + err
    assert "note: the strategy repeated a guess in 32 of 300 games" in out + err
