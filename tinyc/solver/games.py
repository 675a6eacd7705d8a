"""Games of the Bulls-and-Cows family: alphabet, length, repeats, leading-zero rule, scoring.

A code is held two ways: as text (``"1234"``, ``"83AD"``) for people, and as its index in
``Game.codes`` (ascending numeric order) for the NumPy tables. Scoring counts bulls (right
symbol, right place) and cows (right symbol, wrong place) with multiplicity, exactly like
Mastermind's black and white pegs (Knuth 1977); for codes with distinct symbols this is the
plain bulls/cows count.

Sources: seed 004 (bc.tc, 3024 codes, the 0-13 score code), seed 002 (hits/strikes on
1000-9999), seed 003 (Mastermind, 1296 codes), seeds 000/001 (hex, 43680 codes).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

__all__ = [
    "Game", "GAMES", "get_game", "score", "bc_code", "from_bc_code", "BC_CODES", "GameError",
]


class GameError(ValueError):
    """Bad user input about a game: unknown name, malformed code, impossible score."""


@dataclass(frozen=True)
class Game:
    """One member of the Bulls-and-Cows family.

    ``alphabet`` lists the symbols in ascending value, so the lexicographic order of codes
    is their numeric order. ``repeats`` allows a symbol more than once; ``leading_zero``
    allows ``alphabet[0]`` as first symbol (False for the 1000-9999 game of seed 002).
    ``knuth_form`` selects how the ``knuth`` strategy plays this game ("003": Knuth 1977
    as seed 003 states it; "002": the hits/strikes form of seed 002, whose opening
    ``knuth_first_guess`` is fixed at 1122 by that seed).
    """

    name: str
    alphabet: str
    length: int
    repeats: bool
    leading_zero: bool = True
    description: str = ""
    knuth_form: str = "003"
    knuth_first_guess: str | None = field(default=None, compare=False)

    # ---- codes -------------------------------------------------------------------------
    @cached_property
    def digits(self) -> np.ndarray:
        """All codes as symbol indices, shape (n_codes, length), uint8, ascending order."""
        k = len(self.alphabet)
        rows = []
        for combo in itertools.product(range(k), repeat=self.length):
            if not self.repeats and len(set(combo)) != self.length:
                continue
            if not self.leading_zero and combo[0] == 0:
                continue
            rows.append(combo)
        return np.array(rows, dtype=np.uint8).reshape(-1, self.length)

    @cached_property
    def codes(self) -> list[str]:
        """All codes as text, ascending numeric order (index = code id)."""
        a = self.alphabet
        return ["".join(a[d] for d in row) for row in self.digits.tolist()]

    @cached_property
    def index(self) -> dict[str, int]:
        """Map code text -> code id."""
        return {c: i for i, c in enumerate(self.codes)}

    @property
    def size(self) -> int:
        """Number of codes."""
        return int(self.digits.shape[0])

    @property
    def n_scores(self) -> int:
        """Number of score ids: a score id is ``bulls * (length + 1) + cows``."""
        return (self.length + 1) ** 2

    @property
    def win(self) -> int:
        """Score id of the all-bulls answer."""
        return self.length * (self.length + 1)

    # ---- parsing -----------------------------------------------------------------------
    def normalize(self, text: str) -> str:
        """Return the canonical text of a code typed by a user; raise GameError if invalid."""
        t = str(text).strip().upper()
        if len(t) != self.length or any(ch not in self.alphabet for ch in t):
            raise GameError(
                f"{text!r} is not a {self.name} code ({self.length} symbols from {self.alphabet})")
        if not self.repeats and len(set(t)) != self.length:
            raise GameError(f"{text!r}: {self.name} codes may not repeat a symbol")
        if not self.leading_zero and t[0] == self.alphabet[0]:
            raise GameError(f"{text!r}: {self.name} codes may not start with {self.alphabet[0]}")
        return t

    def code_id(self, text: str) -> int:
        """Code id of a code text (validated)."""
        return self.index[self.normalize(text)]

    def score_id(self, bulls: int, cows: int) -> int:
        """Score id of a (bulls, cows) pair; raise GameError if it is impossible."""
        if bulls < 0 or cows < 0 or bulls + cows > self.length or (
                bulls == self.length - 1 and cows == 1):
            raise GameError(f"impossible score: {bulls} bulls {cows} cows")
        return bulls * (self.length + 1) + cows

    def split_score(self, sid: int) -> tuple[int, int]:
        """(bulls, cows) of a score id."""
        return divmod(int(sid), self.length + 1)


def score(a: str, b: str) -> tuple[int, int]:
    """Score two code texts: (bulls, cows), counted with multiplicity (black/white pegs).

    Symmetric in a and b. ``bulls + cows <= len(a)``.
    """
    if len(a) != len(b):
        raise GameError(f"codes {a!r} and {b!r} differ in length")
    bulls = sum(x == y for x, y in zip(a, b))
    common = sum(min(a.count(s), b.count(s)) for s in set(a))
    return bulls, common - bulls


#: bc.tc's score code (seed 004): (bulls, cows) -> 0..13 for 4-symbol games.
BC_CODES: dict[tuple[int, int], int] = {
    (4, 0): 0, (3, 0): 1,
    (2, 0): 2, (2, 1): 3, (2, 2): 4,
    (1, 0): 5, (1, 1): 6, (1, 2): 7, (1, 3): 8,
    (0, 0): 9, (0, 1): 10, (0, 2): 11, (0, 3): 12, (0, 4): 13,
}
_FROM_BC = {v: k for k, v in BC_CODES.items()}


def bc_code(bulls: int, cows: int) -> int:
    """bc.tc's 0-13 score code of a 4-symbol score (seed 004's table)."""
    try:
        return BC_CODES[(bulls, cows)]
    except KeyError:
        raise GameError(f"no bc.tc score code for {bulls} bulls {cows} cows") from None


def from_bc_code(code: int) -> tuple[int, int]:
    """(bulls, cows) of bc.tc's 0-13 score code (seed 004)."""
    try:
        return _FROM_BC[int(code)]
    except (KeyError, ValueError):
        raise GameError(f"bc.tc score codes are 0-13, not {code!r}") from None


GAMES: dict[str, Game] = {g.name: g for g in [
    Game("bulls-cows-1to9", "123456789", 4, repeats=False,
         description="4 distinct digits 1-9, 3024 codes (bc.tc, seed 004)"),
    Game("bulls-cows", "0123456789", 4, repeats=False,
         description="4 distinct digits 0-9, 5040 codes (classic; entropy.c)"),
    Game("hits-strikes", "0123456789", 4, repeats=True, leading_zero=False,
         description="numbers 1000-9999, repeats allowed, 9000 codes (seed 002)",
         knuth_form="002", knuth_first_guess="1122"),
    Game("mastermind", "123456", 4, repeats=True,
         description="4 pegs of 6 colours 1-6, 1296 codes (seed 003)"),
    Game("hex", "0123456789ABCDEF", 4, repeats=False,
         description="4 distinct hex digits, 43680 codes (seeds 000/001)"),
]}


def get_game(name: str) -> Game:
    """Named game; raise GameError listing the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise GameError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None
