"""``tinyc-solver --dask``: the parallel evaluation and the exact search on a Dask cluster
(issue 29). The cluster tests start a LocalCluster of 2 worker processes (``local:2``)."""
import json
import subprocess
import sys

import pytest

from tinyc.solver.cli import main
from tinyc.solver.games import GameError

# A local Dask cluster, started per test: .ci/run runs it, the README's test command leaves it out.
pytestmark = pytest.mark.slow


@pytest.fixture
def distributed():
    return pytest.importorskip("distributed")


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_evaluate_on_a_local_cluster_equals_one_process(distributed, capsys):
    argv = ["evaluate", "--game", "bulls-cows", "--strategy", "knuth", "--json"]
    one = _json(capsys, argv + ["--jobs", "1"])
    dask = _json(capsys, argv + ["--dask", "local:2"])
    for key in ("total", "histogram", "worst", "solved", "secrets"):
        assert dask[key] == one[key], key
    assert one["total"] == 27139


def test_exact_search_on_a_local_cluster_equals_one_process(distributed, capsys, tmp_path):
    # --checkpoint makes the optimal strategy search rather than load its shipped tree
    argv = ["tree", "--game", "mastermind", "--strategy", "optimal", "--opening", "1123", "--json"]
    one = _json(capsys, argv + ["--checkpoint", str(tmp_path / "one.db")])
    dask = _json(capsys, argv + ["--checkpoint", str(tmp_path / "dask.db"), "--dask", "local:2"])
    assert one["total"] == dask["total"] == 5625
    assert dask["search"]["jobs"] == 2 and dask["search"]["parts"] == one["search"]["parts"]
    assert dask["search"]["totals"] == one["search"]["totals"]


@pytest.mark.parametrize("address", ["local:0", "local:x", "local:"])
def test_a_bad_local_address_is_one_line_and_exit_2(distributed, capsys, address):
    assert main(["evaluate", "--game", "bulls-cows", "--dask", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "local:N" in err and "Traceback" not in err


def test_an_unreachable_scheduler_is_a_game_error(distributed):
    from tinyc.solver.cluster import dask_cluster
    with pytest.raises(GameError, match="no Dask scheduler answers"):
        with dask_cluster("tcp://127.0.0.1:1", timeout=1):
            pass


def test_missing_dask_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)    # import distributed fails
    assert main(["evaluate", "--game", "bulls-cows", "--dask", "local:2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "[test,dask]" in err


def test_other_commands_do_not_import_dask():
    code = ("import sys; from tinyc.solver.cli import main; "
            "main(['evaluate', '--game', 'bulls-cows', '--secrets', '20', '--jobs', '2']); "
            "main(['score', '1234', '1243']); "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]; "
            "assert not bad, bad")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
