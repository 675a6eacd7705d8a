"""Value versions of an ``if`` (``StatementGen.value_version``): a condition that subscripts checked arrays
by ``y/d`` and ``y%d`` at two places or more is generated twice, under ``0 <= y < d*L`` with Python's
``//``/``%`` and no range tests, else with them.  Each case runs on both engines, compared byte for byte
(output, error number, cursor); the comment says which part of the version it would catch if wrong."""

from __future__ import annotations

import pytest

from engine_harness import both

SIFT = """int hi(99), lo(99), c(9)
main [
  int i, y, n
  c(0)=%d
  hi(3)=1; lo(45)=2
  while(i<1) [
    y=c(i)
    if(hi(y/100)+lo(y%%100)==%s) ++n
    ++i
  ]
  pn n
]
"""

CASES = [
    (345, "3", "both fast subscripts"),
    (9999, "0", "the last y of the version"),
    (10000, "0", "the first y past it: hi(100) is error 6"),
    (0, "0", "the first y of the version"),
    (-1, "0", "Python's -1//100 and -1%100 are -1 and 99, C's 0 and -1: lo(-1) is error 6"),
    (-5, "0", "y/100 is 0 in C, y%100 is -5: lo(-5) is error 6"),
    (-250, "0", "y/100 is -2: error 6"),
    (-2147483648, "0", "the smallest int"),
]


@pytest.mark.parametrize("y, r, why", CASES, ids=[c[2] for c in CASES])
def test_the_version_and_its_else(y, r, why):
    ref, fast = both(SIFT % (y, r))
    assert fast == ref


def test_an_assignment_inside_the_condition_ends_what_the_test_showed():
    # y is in range when the test runs, then the condition makes it negative before lo(y%100)
    src = ("int hi(99), lo(99)\nmain [ int y, r; y=345\n"
           "  if(hi(y/100)+(y=y-20000)+lo(y%100)==r) pn 1\n  pn y ]\n")
    ref, fast = both(src)
    assert fast == ref
    assert ref[1] == 6


def test_the_version_is_made(compiled):
    code = compiled(SIFT % (345, "3"))
    assert "if 0 <= v_y < 10000:  # y within 0..9999" in code
    assert "e_hi[v_y // 100] + e_lo[v_y % 100]" in code
