"""The fuzzing in the normal test run: a derandomized, bounded subset (issue 13).

Valid programs, mutated programs, programs using the file calls and shell sessions from :mod:`fuzz.gen`,
at 32 and at 16 bits, and programs of the Gibson dialect from :mod:`fuzz.gen_gibson`, valid and mutated,
run through both engines (:mod:`fuzz.runner`), each run in a fresh temporary directory; any Python
exception, ``internal error``, difference between the engines (output, error number, error address) or
run-out CPU budget of the fast engine fails.  The long campaign is
``python -m tests.fuzz.campaign`` and the coverage-guided one ``tests/fuzz/atheris_fuzz.py``.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz import gen
from fuzz.runner import differential, gibson_differential, piped_session, poke_differential, shell_differential
from fuzz.strategies import (file_programs, frames, gibson_mutated, gibson_programs, mutated, pokes, programs,
                             sessions)

pytestmark = pytest.mark.slow  # run by .ci/run, not by the README's test command: the fuzz corpora on both
# engines, about a fifth of the whole suite's time

def bounded(n):
    return settings(derandomize=True, deadline=None, database=None, print_blob=True, max_examples=n,
                    suppress_health_check=list(HealthCheck))
STDIN = b"5\n7\nabc\n-3\n"


def check(outcome, what):
    assert not outcome.failed, f"{outcome.kind}: {outcome.detail}\nreference {outcome.ref}\nfast {outcome.fast}\n" \
                               f"{what!r}"


@bounded(600)
@given(programs)
def test_valid_programs_agree(src):
    check(differential(src, STDIN, seconds=3.0), src)


@bounded(100)
@given(programs)
def test_valid_programs_agree_16_bits(src):
    check(differential(src, STDIN, int_bits=16, seconds=3.0), src)


@bounded(200)
@given(frames)
def test_frame_abuse_agrees(src):
    check(differential(src, STDIN, seconds=3.0), src)


@bounded(500)
@given(mutated)
def test_mutated_programs_agree(src):
    check(differential(src, STDIN, seconds=3.0), src)


@bounded(60)
@given(sessions)
def test_shell_sessions(data):
    check(shell_differential(data, seconds=8.0), data)


@pytest.mark.parametrize("seed", range(4))
def test_piped_sessions(seed):
    """A few sessions through ``python -m tinyc`` itself (a subprocess with a CPU limit)."""
    data = gen.session(random.Random(f"piped-{seed}"))
    check(piped_session(data), data)


# ---- issue 24: the file calls in a temporary directory, 16 bits everywhere, the Gibson dialect

@bounded(50)
@given(file_programs)
def test_file_programs_agree(src):
    check(differential(src, STDIN, seconds=3.0), src)


@bounded(60)
@given(mutated)
def test_mutated_programs_agree_16_bits(src):
    check(differential(src, STDIN, int_bits=16, seconds=3.0), src)


@bounded(20)
@given(sessions)
def test_shell_sessions_16_bits(data):
    check(shell_differential(data, seconds=8.0, int_bits=16), data)


@bounded(60)
@given(gibson_programs)
def test_gibson_programs_agree(src):
    check(gibson_differential(src, STDIN, seconds=3.0), src)


@bounded(80)
@given(gibson_mutated)
def test_gibson_mutated_programs_agree(src):
    check(gibson_differential(src, STDIN, seconds=3.0), src)


@pytest.fixture(scope="module")
def own_cache(tmp_path_factory):
    """A start-up cache of this module's own: the poked programs' functions are generated (and checked)
    the first time, and later programs with the same functions run them from it, as users' do."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if saved is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@bounded(40)
@given(pokes)
def test_programs_that_poke_their_text_do_nothing_else(own_cache, src):
    """No generated code but the generator's, no child process, no file outside the run's directory, no
    event raised by generated code (fuzz.oracle); and both engines agree."""
    check(poke_differential(src, gibson=src.startswith(b"#include"), stdin=STDIN, seconds=3.0), src)


def test_the_long_campaign_runs_each_kind(tmp_path, capsys):
    """A few items of each kind through ``python -m tests.fuzz.campaign`` (worker processes), as a long
    campaign runs them (docs/fuzzing.md)."""
    from fuzz import campaign
    status = campaign.main(["--programs", "3", "--files", "3", "--gibson", "4", "--sessions", "2", "--piped", "1",
                            "--pokes", "3", "--jobs", "2", "--out", str(tmp_path)])
    summary = capsys.readouterr().out
    assert status == 0, summary
    for kind in ("program", "files", "gibson", "session", "piped", "pokes"):
        assert f'"{kind}:' in summary


def test_the_atheris_target_runs_its_seed_corpus(tmp_path):
    """The coverage-guided target on a few of its seeds (both dialects, 16 and 32 bits), without atheris."""
    from fuzz import atheris_fuzz as target
    target.seed_corpus(str(tmp_path), n=8)
    for seed in sorted(tmp_path.iterdir()):
        target.test_one_input(seed.read_bytes())
