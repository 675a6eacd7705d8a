"""``tinyc-solver play``: the computer guesses the code the user thinks of, scored at a prompt, or
(``--codemaker``) keeps a secret and scores the user's guesses.

At a score prompt ``undo`` takes the last score back, ``new`` starts again and ``quit`` ends; a score that
no code fits offers those three (bc.tc offers to start again); the end of input (Ctrl-D) ends quietly.
"""
from __future__ import annotations

import sys

import numpy as np

from .common import UsageError, _strategy_options, parse_score, plural
from .games import GameError, get_game
from .strategies import make_strategy
from .table import score_table

MAX_TURNS = 60


class InputEnded(Exception):
    """The end of standard input (Ctrl-D) at a prompt: the game ends quietly."""


def _read_line(prompt: str) -> str:
    """One line typed after ``prompt``; raises InputEnded at the end of input."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        raise InputEnded
    return line


def rank_guesses(strat, candidates, history, k: int = 5) -> list[tuple[int, str]]:
    """The strategy's best next guesses: [(code id, note)], best first. Look-ahead strategies
    rank every guess by their own rating (at most k); the others give their one guess."""
    from .strategies.partition import PartitionStrategy, partition_counts
    if isinstance(strat, PartitionStrategy) and len(candidates) > 1 and (
            history or strat.first_guess() is None):
        game = strat.game
        pool = np.arange(game.size) if strat.pool == "all" else np.asarray(candidates)
        r = strat.rate(partition_counts(strat.table, pool, candidates), len(candidates))
        cons = np.isin(pool, candidates)
        order = np.lexsort((pool, ~cons, r))[:k]
        return [(int(pool[i]), f"rating {float(r[i]):.4g}"
                 + (", could be the secret" if cons[i] else "")) for i in order]
    g = strat.next_guess(candidates if strat.uses_candidates else None, history)
    return [(g, "the strategy's next guess")]


def _codemaker(args, game, table, strat) -> int:
    import random as _random
    if args.secret:
        secret = game.code_id(args.secret)
    else:
        secret = _random.Random(args.draw).randrange(game.size)
    cands = np.arange(game.size)
    history: list[tuple[int, int]] = []
    print(f"I have a {game.name} code: {game.description}. Type a guess, 'hint' or 'quit'.")
    turn = 1
    while True:
        text = _read_line(f"guess {turn}? ").strip()
        if text.lower() in ("quit", "q"):
            print(f"The code was {game.codes[secret]}.")
            return 0
        if text.lower() in ("hint", "h"):
            if not strat.deterministic or not strat.uses_candidates:
                print(f"the {strat.name} strategy gives no hints here")
                continue
            print(f"{len(cands)} codes fit the scores so far")
            for g, note in rank_guesses(strat, cands, history):
                print(f"  {game.codes[g]}  ({note})")
            continue
        try:
            g = game.code_id(text)
        except GameError as exc:
            print(f"{exc}; try again")
            continue
        sid = table.score(g, secret)
        bulls, cows = game.split_score(sid)
        if sid == game.win:
            print(f"{game.codes[g]}: {plural(bulls, 'bull')}. Found in {turn} "
                  f"{'guess' if turn == 1 else 'guesses'}.")
            return 0
        print(f"{game.codes[g]}: {plural(bulls, 'bull')} {plural(cows, 'cow')}")
        history.append((g, sid))
        cands = cands[table.block([g], cands)[0] == sid]
        turn += 1


def cmd_play(args) -> int:
    """``play``: the computer guesses the code the user thinks of (scores read from stdin);
    with ``--codemaker`` the computer keeps a secret and scores the user's guesses.  Exit status 0, also
    when the input ends or the user quits; GameError (status 2) if the strategy gives up."""
    game = get_game(args.game)
    if args.codemaker and args.bc:
        raise UsageError("--bc is for scoring the computer's guesses, not with --codemaker")
    if not args.codemaker and (args.secret or args.draw is not None):
        raise UsageError("--secret and --draw go with --codemaker")
    table = score_table(game)
    strat = make_strategy(args.strategy, game, table, **_strategy_options(args))
    try:
        return _codemaker(args, game, table, strat) if args.codemaker else _codebreaker(args, game, table, strat)
    except InputEnded:
        print()  # end the prompt's line
        return 0


def _replay(strat, game, table, history: list[tuple[int, int]]):
    """The candidates left after ``history`` and the strategy's next guess, the strategy replayed from
    its start (a stateful one must see its own game again)."""
    strat.reset()
    cands = np.arange(game.size)
    for k, (g, sid) in enumerate(history):
        strat.next_guess(cands if strat.uses_candidates else None, history[:k])
        cands = cands[table.block([g], cands)[0] == sid]
    return cands, strat.next_guess(cands if strat.uses_candidates else None, history)


def _codebreaker(args, game, table, strat) -> int:
    """The computer guesses; the user scores each guess (or types undo, new, quit)."""
    how = "bc.tc score code 0-13" if args.bc else "bulls,cows"
    print(f"Think of a {game.name} code: {game.description}. Score each guess as {how}; "
          "'undo' takes a score back, 'new' starts again, 'quit' ends.")
    history: list[tuple[int, int]] = []
    cands, g = _replay(strat, game, table, history)
    stuck = False  # no code fits the scores: only undo, new or quit
    while True:
        turn = len(history) + 1
        prompt = "undo, new or quit? " if stuck else f"guess {turn}: {game.codes[g]}  score? "
        answer = _read_line(prompt).strip()
        word = answer.lower()
        if word in ("quit", "q"):
            return 0
        if word in ("undo", "u", "new"):
            if word == "new":
                history.clear()
            elif history:
                history.pop()
            else:
                print("  nothing to undo")
            cands, g = _replay(strat, game, table, history)
            stuck = False
            continue
        if stuck:
            continue
        try:
            bulls, cows = parse_score(answer, game, args.bc)
        except GameError as exc:  # a typo asks again, as bc.tc does
            print(f"  {exc}; try again")
            continue
        if bulls == game.length:
            print(f"Got it in {turn} {'guess' if turn == 1 else 'guesses'}.")
            return 0
        sid = game.score_id(bulls, cows)
        history.append((g, sid))
        cands = cands[table.block([g], cands)[0] == sid]
        if len(cands) == 0:
            print("  inconsistent scores: no code fits them all; 'undo' takes the last score back, "
                  "'new' starts again, 'quit' ends")
            stuck = True
        elif turn >= MAX_TURNS:
            raise GameError(f"the {strat.name} strategy gave up after {MAX_TURNS} guesses")
        else:
            g = strat.next_guess(cands if strat.uses_candidates else None, history)
