"""Hypothesis strategies over the generators of :mod:`fuzz.gen` (Hypothesis drives their Random)."""

from __future__ import annotations

from hypothesis import strategies as st

from . import gen_gibson, gen_pokes
from .gen import frame_program, mutate, program, session
from .gen_files import file_program

randoms = st.randoms(use_true_random=False)

programs = randoms.map(lambda r: program(r, size=r.choice([1, 1, 2])).encode("latin-1"))
"""Valid tiny-c programs (bytes)."""

mutated = st.tuples(randoms, programs).map(lambda t: mutate(t[0], t[1].decode("latin-1")))
"""Mostly invalid programs: a valid one after one to three mutations."""

sessions = randoms.map(session)
"""Shell sessions (bytes to pipe into ``tinyc``)."""

frames = randoms.map(lambda r: frame_program(r).encode("latin-1"))
"""Programs that reach their own and their callers' locals through memory (issue 13 item 6)."""

file_programs = randoms.map(lambda r: file_program(r).encode("latin-1"))
"""Programs that use the file calls (run in a temporary directory: fuzz.runner.sandbox)."""

gibson_programs = randoms.map(lambda r: gen_gibson.program(r).encode("latin-1"))
"""Valid programs of the Gibson dialect."""

gibson_mutated = randoms.map(lambda r: gen_gibson.mutate(r, gen_gibson.program(r)))
"""Gibson-dialect programs after one to three mutations."""

pokes = randoms.map(lambda r: gen_pokes.program(r, gibson=r.random() < 0.25))
"""Programs that poke bytes into their own text before calling its functions (issue 35 item 1); those of
the Gibson dialect start with ``#include``."""
