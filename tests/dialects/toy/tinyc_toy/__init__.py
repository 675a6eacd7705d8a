"""A third dialect for the tests: tiny-c/PC's front end, library and engines, plus one machine call.

``MC 99`` prints ``toy!`` and gives 42: a program that calls it runs otherwise than in tiny-c/PC, where
``MC 99`` is error 24.  It is installed by no
edit under ``tinyc/``: ``tests/dialects/test_third_dialect.py`` puts a fake distribution (``toy-0.dist-info``
whose ``entry_points.txt`` names :data:`DIALECT` in the group ``tinyc.dialects``) on ``PYTHONPATH``.
"""

from __future__ import annotations

from tinyc.dialects.pc import PcDialect
from tinyc.machine.machine_calls import ROUTINES, MachineCalls, machine_call

TOY_CALL = 99


def mc_toy(m, node) -> int:
    """``MC 99``: print ``toy!`` and give 42."""
    m.console.write(b"toy!")
    return 42


def toy_call(m, values: list[int], node) -> int:
    """``MC values...``: MC 99 here, every other number as tiny-c/PC runs it."""
    if values and values[-1] == TOY_CALL:
        return mc_toy(m, node)
    return machine_call(m, values, node)


CALLS = MachineCalls(toy_call, {**ROUTINES, TOY_CALL: mc_toy})


class ToyDialect(PcDialect):
    """tiny-c/PC with MC 99."""

    name = "toy"
    title = "toy: tiny-c/PC with MC 99 (a test dialect)"

    def machine_calls(self) -> MachineCalls:
        return CALLS


DIALECT = ToyDialect()
