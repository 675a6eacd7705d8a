"""Search for the "random number" that bca.tc was run with (seed 004).

bca.tc plays the secrets of ``bulls-cows-1to9`` in ascending order (game 0 is 1234) with
bc.tc's random consistent guess and one tiny-c generator seeded once with ``seed=last=N``.
Seed 004 publishes the histogram of the first 300 games and the guesses of games 296-299.
``find_seed`` tries N = start, start+1, ... and returns every N whose play reproduces all of
it. It is a dedicated, pruned copy of the ``random`` strategy's loop (the tests check that the
strategy itself gives the same games for the seed found).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .games import Game, get_game
from .rng import c_div, c_mod, wrap
from .table import score_table

__all__ = ["PUBLISHED", "Published", "play_random", "find_seed", "matches"]


@dataclass(frozen=True)
class Published:
    """Seed 004's figures: histogram tries -> games (300 games) and the printed last games."""

    games: int = 300
    histogram: dict[int, int] = field(default_factory=lambda: {
        1: 0, 2: 2, 3: 12, 4: 54, 5: 135, 6: 82, 7: 14, 8: 1, 9: 0})
    # game number -> (secret, guesses)
    printed: dict[int, tuple[str, tuple[str, ...]]] = field(default_factory=lambda: {
        296: ("1925", ("6598", "1654", "2964", "2681", "1936", "1925")),
        297: ("1926", ("4239", "6892", "8426", "1926")),
        298: ("1927", ("7536", "1859", "6812", "2389", "4258", "1927")),
        299: ("1928", ("1597", "7893", "3529", "1289", "1928")),
    })
    average_truncated: str = "5.09666"


PUBLISHED = Published()


def play_random(seed: int, games: int = 300, game: Game | None = None, divisor: int = 8,
                bits: int = 32, draw_single: bool = True, limit: dict[int, int] | None = None,
                keep_guesses: bool = False):
    """Play bca.tc's random strategy on the first ``games`` secrets with ``seed=last=seed``.

    Returns (tries per game: list[int], guesses per game: list[list[int]] or None), or None
    as soon as a histogram bucket exceeds ``limit`` (tries -> max count; a pruning aid).
    ``draw_single=False`` is a variant that guesses the last candidate without calling
    ``random``. Codes are ids of ``game`` (default ``bulls-cows-1to9``).
    """
    game = game or get_game("bulls-cows-1to9")
    table = score_table(game)
    full = table.full
    if full is None:
        raise ValueError(f"play_random needs the full score table, and {game.name} is too large for one")
    n = game.size
    everything = np.arange(n)
    first_cache: dict[tuple[int, int], np.ndarray] = _FIRST_CACHE.setdefault(game.name, {})
    last = s = wrap(seed, bits)
    hist: dict[int, int] = {}
    all_tries: list[int] = []
    all_guesses: list[list[int]] | None = [] if keep_guesses else None
    for secret in range(games):
        cands = everything
        tries = 0
        guesses: list[int] = []
        while True:
            m = len(cands)
            if m == 1 and not draw_single:
                g = int(cands[0])
            else:
                if not last:
                    last = s = 99
                last = wrap(last * s, bits)
                if last < 0:
                    last = wrap(-last, bits)
                g = int(cands[c_mod(c_div(last, divisor), m)])
            tries += 1
            if keep_guesses:
                guesses.append(g)
            if g == secret:
                break
            sc = full[g, secret]
            if tries == 1:
                key = (g, int(sc))
                nxt = first_cache.get(key)
                if nxt is None:
                    nxt = first_cache[key] = everything[full[g] == sc]
                cands = nxt
            else:
                cands = cands[full[g, cands] == sc]
            if tries > 200:
                raise RuntimeError("random strategy did not finish")
        hist[tries] = hist.get(tries, 0) + 1
        if limit is not None and hist[tries] > limit.get(tries, 0):
            return None
        all_tries.append(tries)
        if all_guesses is not None:
            all_guesses.append(guesses)
    return all_tries, all_guesses


_FIRST_CACHE: dict[str, dict] = {}


def matches(seed: int, published: Published = PUBLISHED, **variant) -> bool:
    """True if ``seed`` reproduces the published histogram and printed games exactly."""
    game = get_game("bulls-cows-1to9")
    res = play_random(seed, published.games, game, limit=published.histogram,
                      keep_guesses=True, **variant)
    if res is None:
        return False
    tries, guesses = res
    hist = {k: 0 for k in published.histogram}
    for t in tries:
        hist[t] = hist.get(t, 0) + 1
    if hist != published.histogram:
        return False
    for number, (secret, seq) in published.printed.items():
        if game.codes[number] != secret:
            return False
        if tuple(game.codes[g] for g in guesses[number]) != seq:
            return False
    return True


def find_seed(start: int = 1, stop: int = 100000, published: Published = PUBLISHED,
              first_only: bool = True, **variant) -> list[int]:
    """Seeds N in [start, stop) for which ``seed=last=N`` reproduces seed 004 exactly.

    ``variant`` is passed to ``play_random`` (divisor, bits, draw_single). With
    ``first_only`` the search stops at the first match. Cost: about a millisecond or two
    per seed on this machine (most seeds are pruned before game 300).
    """
    found = []
    for n in range(start, stop):
        if matches(n, published, **variant):
            found.append(n)
            if first_only:
                break
    return found
