"""Coverage-guided fuzzing of the lexer, parser and both engines with atheris (an optional extra).

    pip install -e '.[fuzz]'
    python tests/fuzz/atheris_fuzz.py [corpus_dir] -max_total_time=3600 -rss_limit_mb=4096

Each input is a program (bytes); its first byte picks the dialect (bit 1: Gibson's, else tiny-c/PC) and,
for tiny-c/PC, 16- or 32-bit ints (bit 0).  It runs on both engines (CPU-limited, each in a fresh
temporary directory, :mod:`fuzz.runner`); a Python exception, a difference between the engines or the
fast engine running out of time where the reference did not raises, and atheris saves the input.  Seed
the corpus with ``python tests/fuzz/atheris_fuzz.py --seed-corpus DIR`` (programs from ``fuzz.gen``,
file-call programs and Gibson programs from ``fuzz.gen_gibson``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE.parent)]

from fuzz import gen_gibson  # noqa: E402
from fuzz.gen import mutate, program  # noqa: E402
from fuzz.gen_files import file_program  # noqa: E402
from fuzz.runner import differential, gibson_differential  # noqa: E402


class Finding(Exception):
    """A failure the fuzzer found (atheris reports the input that raised it)."""


def test_one_input(data: bytes) -> None:
    if not data:
        return
    if data[0] & 2:
        outcome = gibson_differential(data[1:], b"5\n7\nabc\n", seconds=2.0)
    else:
        outcome = differential(data[1:], b"5\n7\nabc\n", int_bits=16 if data[0] & 1 else 32, seconds=2.0)
    if outcome.failed:
        raise Finding(f"{outcome.kind}: {outcome.detail} ref={outcome.ref} fast={outcome.fast}")


def seed_corpus(directory: str, n: int = 300) -> None:
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    r = random.Random(0)
    for k in range(n):
        if k % 4 == 3:  # Gibson's dialect
            src = gen_gibson.program(r)
            data = gen_gibson.mutate(r, src) if k % 3 == 0 else src.encode("latin-1")
            (d / f"seed-{k}").write_bytes(bytes([2]) + data)
            continue
        src = file_program(r) if k % 4 == 2 else program(r)
        data = mutate(r, src) if k % 3 == 0 else src.encode("latin-1")
        (d / f"seed-{k}").write_bytes(bytes([k & 1]) + data)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--seed-corpus":
        seed_corpus(sys.argv[2])
        return
    import atheris  # the optional extra: pip install -e '.[fuzz]'
    with atheris.instrument_imports():
        import tinyc.engines.codegen  # noqa: F401
        import tinyc.engines.compiler  # noqa: F401
        import tinyc.engines.evaluator  # noqa: F401
        import tinyc.dialects.gibson.compiler  # noqa: F401
        import tinyc.dialects.gibson.evaluator  # noqa: F401
        import tinyc.dialects.gibson.machine  # noqa: F401
        import tinyc.dialects.gibson.syntax  # noqa: F401
        import tinyc.syntax.lexer  # noqa: F401
        import tinyc.syntax.parser  # noqa: F401
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
