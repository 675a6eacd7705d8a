"""programs/bce.tc's long runs (issue 40), a file of their own so that the test workers share them out
(``--dist loadfile`` gives a file to one worker): the first secrets of both games, the reference engine,
every secret of bc.tc's game (by hand).  The dialogue and the short runs: test_programs_bce.py."""

from __future__ import annotations

import os

import pytest

from test_programs_bce import automated


@pytest.mark.slow
def test_bce_on_the_reference_engine_too():
    # slow: the reference evaluator needs about 3 minutes for the start-up table alone
    automated("1to9", 3141, 2, engine="reference", timeout=3600)


@pytest.mark.slow
@pytest.mark.parametrize("kind, n", [("1to9", 300), ("0to9", 100)])
def test_bce_first_secrets(kind, n):
    # 0-9's games cost about three times 1-9's (5040 numbers): 100 of them, some 90 s
    automated(kind, 3141, n, timeout=3600)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("TINYC_LONG") != "1",
                    reason="about 14 CPU minutes on the fast engine: run by hand with TINYC_LONG=1 (not in CI)")
def test_bce_every_secret_of_bc_tcs_game():
    automated("1to9", 3141, 3024, shown_all=False, timeout=4 * 3600)
