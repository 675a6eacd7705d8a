"""What the tests of the tiny-c guessers (bck.tc, bce.tc, bchex.tc) share: running a program through
``tinyc run``, and bca.tc's report of an automated run written from the solver's evaluation, to compare
game for game (issue 40)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tinyc.solver import bc_code, get_game, score

ROOT = Path(__file__).resolve().parents[2]


def tinyc_run(program: str, entry: str, typed: str, engine: str = "fast", timeout: int = 600) -> str:
    """``tinyc run programs/PROGRAM --entry ENTRY`` with ``typed`` as standard input; its output (LF lines).
    Fails the test on a non-zero exit, with the program's stderr."""
    r = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "--engine", engine,
                        str(ROOT / "programs" / program), "--entry", entry],
                       input=typed.encode(), capture_output=True, timeout=timeout)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    return r.stdout.decode().replace("\r\n", "\n")


def report(ev, n: int, shown: int) -> str:
    """bca.tc's layout from the solver's evaluation ``ev`` of the first ``n`` secrets: the last ``shown``
    games (index, secret, guesses, tries), the histogram (1-9 and any above), the average (5 decimals, cut)."""
    game = get_game(ev.game)
    lines = []
    for g in range(max(0, n - shown), n):
        r = ev.games[g]
        words = [str(g), game.codes[r.secret]] + [game.codes[x] for x in r.guesses]
        lines.append(" " + " ".join(words) + f" {len(r.guesses)} tries!")
    lines.append("")
    lines += [f" {k} {ev.histogram.get(k, 0)}" for k in sorted(set(range(1, 10)) | set(ev.histogram))]
    lines.append("")
    whole, rest = divmod(ev.total, n)
    lines.append(f"Average number of tries was {whole}.{rest * 10**5 // n:05d}")
    return "\n".join(lines) + "\n"


def games_shown(out: str, code: str = r"\d{4}") -> list[tuple[int, str, list[str]]]:
    """(index, secret, guesses) of every game line of an automated run whose codes match ``code``; each
    line's try count is checked against its guesses."""
    line_re = re.compile(rf"^ (\d+) ({code})((?: {code})+) (\d+) tries!$")
    seen = []
    for line in out.splitlines():
        m = line_re.match(line)
        if m:
            guesses = m.group(3).split()
            assert int(m.group(4)) == len(guesses)
            seen.append((int(m.group(1)), m.group(2), guesses))
    return seen


def compare(out: str, ev, n: int, shown: int, code: str = r"\d{4}") -> None:
    """The automated run's output ``out`` against the solver's ``ev``: game for game, then the whole
    report, byte for byte."""
    game = get_game(ev.game)
    expected = [(g, game.codes[ev.games[g].secret], [game.codes[x] for x in ev.games[g].guesses])
                for g in range(max(0, n - shown), n)]
    assert games_shown(out, code) == expected
    assert out.endswith(" \n" + report(ev, n, shown))


def scorer(secret: str, lies: dict[int, str] | None = None):
    """Answers for a guesser's interactive dialogue: each ``Guess k: XXXX   score?`` gets the true code for
    ``secret`` (or ``lies[k]`` as typed)."""
    lies = lies or {}

    def answers(guesses: list[str]) -> str:
        return "".join(lies.get(k + 1, "%d" % bc_code(*score(g, secret))) + "\n" for k, g in enumerate(guesses))
    return answers
