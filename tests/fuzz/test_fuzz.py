"""The fuzzing in the normal test run: a derandomized, bounded subset (issue 13).

Valid programs, mutated programs and shell sessions from :mod:`fuzz.gen` run through both engines
(:mod:`fuzz.runner`); any Python exception, ``internal error``, difference between the engines (output,
error number, error address) or run-out CPU budget of the fast engine fails.  The long campaign is
``python -m tests.fuzz.campaign`` and the coverage-guided one ``tests/fuzz/atheris_fuzz.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz import gen
from fuzz.runner import differential, piped_session, shell_differential
from fuzz.strategies import frames, mutated, programs, sessions

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
