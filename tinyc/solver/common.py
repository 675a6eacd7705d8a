"""What ``tinyc-solver``'s commands share (:mod:`tinyc.solver.cli` and :mod:`tinyc.solver.interactive`):
the usage error, the strategy options of the command line, reading a typed score, plurals."""
from __future__ import annotations

import re
import sys

from .games import Game, GameError, from_bc_code


class UsageError(Exception):
    """Bad command-line input: reported in one line, exit status 2."""


def _strategy_options(args) -> dict:
    opts = {}
    rnd = {"seed": args.seed, "divisor": args.divisor, "bits": args.int_bits}
    given = {k: v for k, v in rnd.items() if v is not None}
    if args.strategy in ("random", "entropy-int"):
        opts.update(given)
    elif given:
        raise UsageError("--seed, --divisor and --int-bits apply to the random strategy only (and to entropy-int)")
    if getattr(args, "opening", None):
        opts["opening"] = args.opening
    if getattr(args, "depth_limit", None) is not None:
        if args.strategy != "optimal":
            raise UsageError("--depth-limit applies to the optimal strategy only")
        opts["max_depth"] = args.depth_limit
    if getattr(args, "checkpoint", None) is not None:
        if args.strategy != "optimal":
            raise UsageError("--checkpoint applies to the optimal strategy only")
        opts["checkpoint"] = args.checkpoint
    if args.strategy == "optimal" and getattr(args, "jobs", 1) > 1:
        opts["jobs"] = args.jobs
    if args.strategy == "optimal" and sys.stderr.isatty():
        from .strategies.optimal import stderr_progress
        opts["progress"] = stderr_progress
        opts["report"] = "bar"
    elif args.strategy == "optimal" and getattr(args, "json", False):
        opts["report"] = "json"       # the exact search's progress as JSON lines on stderr
    return opts


def parse_score(text: str, game: Game, bc: bool = False) -> tuple[int, int]:
    """A typed score: "B,C", "B C", "1b2c" (bulls, cows), or with ``bc`` bc.tc's 0-13 code."""
    t = text.strip().lower()
    if bc:
        if not t.isdigit():
            raise GameError(f"score {text.strip()!r}: give bc.tc's score code 0-13")
        bulls, cows = from_bc_code(int(t))
    else:
        m = re.fullmatch(r"(\d+)\s*b?\s*[, ]?\s*(\d+)\s*c?", t)
        if not m:
            raise GameError(f"score {text.strip()!r}: give bulls and cows, e.g. '1,2' or '1b2c'")
        bulls, cows = int(m.group(1)), int(m.group(2))
    game.score_id(bulls, cows)  # validates
    return bulls, cows


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
