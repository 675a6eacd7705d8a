"""Parse time of the syntax stage (issue 36, "the syntax stage as one pipeline"): 50 parses of
``programs/bc.tc`` by :func:`tinyc.syntax.pipeline.parse_program`, and 50 parses of a large Gibson program
(its default library and an application of 5 copies of ``examples/gibson/calendar.tc``'s functions,
renamed, about 200 lines) by :func:`tinyc.dialects.gibson.machine.parse_memory`.  No disk cache is
involved (these functions do not use it).  Prints the median and the best wall time of 3 rounds and the
median CPU time (steadier on a shared machine), in ms per parse.

    python benchmarks/syntax_pipeline.py
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS, PARSES = 3, 50


def _pc_parse():
    try:
        from tinyc.syntax.pipeline import parse_program
    except ImportError:  # before the pipeline: the same entry point in the parser module
        from tinyc.syntax.parser import parse_program  # type: ignore[no-redef]
    text = (ROOT / "programs" / "bc.tc").read_text(encoding="latin-1")
    return lambda: parse_program(text)


def _gibson_parse(folder: Path):
    from tinyc.dialects.gibson import machine
    source = (ROOT / "examples" / "gibson" / "calendar.tc").read_text()
    head, body = source.split("\n", 1)
    body = body.replace("main [", "mainx [")
    copies = [re.sub(r"\b(days|leap|weekday|month|mainx)\b", rf"\g<1>{k}", body) for k in range(5)]
    app = folder / "big.tc"
    app.write_text(head + "\n" + "\n".join(copies) + "\nmain [\n  month0 2024, 2\n]\n")
    loaded = machine.load(app)
    return lambda: machine.parse_memory(loaded)


def _time(parse) -> tuple[float, float, float]:
    """(median wall, best wall, median CPU) ms per parse over the rounds."""
    parse()  # Lark's tables built or loaded, outside the timing
    wall, cpu = [], []
    for _ in range(ROUNDS):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(PARSES):
            parse()
        wall.append((time.perf_counter() - t0) / PARSES * 1000)
        cpu.append((time.process_time() - c0) / PARSES * 1000)
    return statistics.median(wall), min(wall), statistics.median(cpu)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, parse in (("programs/bc.tc", _pc_parse()), ("Gibson, 5 x calendar.tc", _gibson_parse(Path(tmp)))):
            median, best, cpu = _time(parse)
            print(f"{name:26} wall: median {median:7.2f}, best {best:7.2f}; CPU: median {cpu:7.2f} ms/parse "
                  f"({ROUNDS} x {PARSES} parses)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
