"""``tinyc-solver`` (also ``python -m tinyc.solver``): evaluate, play, hint, tree, score.

Bad input (unknown game or strategy, malformed code, impossible or inconsistent scores)
prints one line ``tinyc-solver: error: ...`` on stderr and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import re
import sys

import numpy as np

from .games import GAMES, GameError, bc_code, get_game, score
from .strategies import STRATEGIES, make_strategy
from .table import score_table

from .common import UsageError, _strategy_options, parse_score, plural

PROG = "tinyc-solver"


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        raise UsageError(message)


def _make_strategy(args, game, table=None):
    """The strategy of the command line; ``--tree FILE`` gives the ``tree`` strategy."""
    if getattr(args, "tree", None):
        if args.strategy not in ("knuth", "tree"):      # knuth is the default
            raise UsageError("--tree replays a tree file; it takes no --strategy")
        from .tree import load_tree_file
        doc = load_tree_file(args.tree)
        return make_strategy("tree", game, table, doc=doc)
    return make_strategy(args.strategy, game, table, **_strategy_options(args))


def at_least(low: int):
    """An argparse type: a whole number of at least ``low`` (a usage error otherwise)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value
    return parse


DEFAULT_GAME = "bulls-cows-1to9"


def _add_game(p, strategy=True, tree=False):
    from_tree = "; with --tree, the file's game" if tree else ""
    p.add_argument("--game", "-g", default=None,
                   help=f"one of {', '.join(GAMES)} (default {DEFAULT_GAME}{from_tree})")
    if strategy:
        p.add_argument("--strategy", "-s", default="knuth",
                       help=f"one of {', '.join(STRATEGIES)} (default knuth)")
        p.add_argument("--seed", type=int, help="random: seed=last=N (default 99)")
        p.add_argument("--divisor", type=int, choices=(7, 8), help="random: RNG divisor (default 8)")
        p.add_argument("--int-bits", type=int, choices=(16, 32), help="random: int width (default 32)")
        p.add_argument("--opening", metavar="CODE",
                       help="fix the first guess (optimal and the look-ahead strategies)")
        p.add_argument("--depth-limit", type=int, metavar="N",
                       help="optimal: best average among trees that need at most N guesses")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__
    p = _Parser(prog=PROG, description="Bulls-and-Cows / Mastermind solver (tinyc project).")
    p.add_argument("--version", action="version", version=f"{PROG} (tinyc {__version__})")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    e = sub.add_parser("evaluate", help="play every secret and summarise the tries")
    _add_game(e, tree=True)
    e.add_argument("--secrets", "--first", type=at_least(1), dest="secrets", metavar="N",
                   help="only the first N secrets, ascending (--first is the old name)")
    e.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="N processes: a deterministic strategy's decision tree split by "
                        "subtree, else the secrets in chunks (same result as 1); "
                        "optimal: also its search, one task per first-level part")
    e.add_argument("--dask", metavar="ADDRESS",
                   help="run the --jobs tasks on the Dask scheduler at ADDRESS (host:port), "
                        "or local:N for a local cluster of N workers (extra: dask)")
    e.add_argument("--checkpoint", metavar="FILE",
                   help="optimal: search, keeping the solved parts in FILE (SQLite) to resume")
    e.add_argument("--tree", metavar="FILE.json",
                   help="replay a decision tree (from 'tree --json') over the secrets")
    e.add_argument("--max-guesses", type=at_least(1), default=60, metavar="N", help="give a game up after N guesses")
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.add_argument("--plot", metavar="FILE.png|DIR",
                   help="draw the histogram into FILE.png (.svg, .pdf), or into DIR/GAME-STRATEGY.png "
                        "(needs matplotlib)")
    e.add_argument("--show-last", type=at_least(0), default=0, metavar="K",
                   help="print the guesses of the last K games, as bca.tc does (with --json: as last_games)")

    pl = sub.add_parser("play", help="the computer guesses the code you think of")
    _add_game(pl)
    pl.add_argument("--bc", action="store_true", help="answer with bc.tc's 0-13 score codes")
    pl.add_argument("--codemaker", action="store_true",
                    help="the computer keeps a secret and scores your guesses ('hint' ranks "
                         "the best next guesses by the strategy)")
    pl.add_argument("--secret", metavar="CODE", help="codemaker: this secret (default: drawn)")
    pl.add_argument("--draw", type=int, metavar="N",
                    help="codemaker: draw the secret with Python's random.Random(N)")

    h = sub.add_parser("hint", help="remaining candidates and the next guess after GUESS=B,C ...")
    _add_game(h)
    h.add_argument("moves", nargs="*", metavar="GUESS=B,C", help="guesses with their scores")
    h.add_argument("--limit", type=at_least(0), default=20, metavar="N", help="list at most N candidates")

    t = sub.add_parser("tree", help="the decision tree of a deterministic strategy")
    _add_game(t)
    fmt = t.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the tree document as JSON")
    fmt.add_argument("--dot", action="store_true", help="Graphviz DOT")
    t.add_argument("--levels", type=at_least(0), default=2, metavar="K",
                   help="text outline: show K levels (default 2; 0 = all)")
    t.add_argument("--output", "-o", metavar="FILE", help="write to FILE (.gz: compressed)")
    t.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="optimal: search in N processes, one task per first-level part")
    t.add_argument("--dask", metavar="ADDRESS",
                   help="run the --jobs tasks on the Dask scheduler at ADDRESS (host:port), "
                        "or local:N for a local cluster of N workers (extra: dask)")
    t.add_argument("--checkpoint", metavar="FILE",
                   help="optimal: search, keeping the solved parts in FILE (SQLite) to resume")

    s = sub.add_parser("score", help="score code A against code B")
    _add_game(s, strategy=False)
    s.add_argument("a", metavar="A", help="the secret code, such as 1234")
    s.add_argument("b", metavar="B", help="the guess scored against it")

    c = sub.add_parser("completion", help='print a shell completion script: eval "$(tinyc-solver completion bash)"')
    c.add_argument("shell", choices=("bash", "zsh", "tcsh"), metavar="SHELL", help="bash, zsh or tcsh")
    return p


def cmd_completion(args) -> int:
    """``completion SHELL``: the shell completion script of this command line, made by shtab."""
    import shtab
    parser = build_parser()
    # --game and --strategy check their names themselves (a message listing the known ones); the
    # script is told the names here, so that it offers them, without argparse's own choice check
    for sub in (a for a in parser._actions if isinstance(a, argparse._SubParsersAction)):
        for command in sub.choices.values():
            for action in command._actions:
                if action.dest in ("game", "strategy"):
                    action.choices = list(GAMES if action.dest == "game" else STRATEGIES)
                elif action.metavar in ("FILE", "FILE.json"):
                    action.complete = shtab.FILE  # read by shtab
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    return 0


# ---- commands -------------------------------------------------------------------------------

def cmd_evaluate(args) -> int:
    """``evaluate``: play every secret (or --first N) and print the summary."""
    from .evaluate import evaluate
    if args.game is None and args.tree:  # the tree file names its game
        from .tree import load_tree_file
        args.game = load_tree_file(args.tree)["game"]
    game = get_game(args.game)
    if args.secrets is not None and args.secrets < 1:
        raise UsageError("--secrets (--first) must be at least 1")
    if args.max_guesses < 1:
        raise UsageError("--max-guesses must be at least 1")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    opts = {} if args.tree else _strategy_options(args)
    opts.pop("progress", None)
    opts.pop("report", None)
    strat = _make_strategy(args, game)
    plot_path = None
    if args.plot:
        from .plot import plot_target, require_matplotlib
        plot_path = plot_target(args.plot, game.name, strat.name)
        require_matplotlib()
    n = game.size if args.secrets is None else min(args.secrets, game.size)
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=n, desc=f"{game.name}/{strat.name}", unit="game", file=sys.stderr)
    try:
        ev = evaluate(game, strat, first=n, max_guesses=args.max_guesses,
                      keep_games=args.show_last > 0, progress=bar.update if bar else None,
                      jobs=args.jobs)
    finally:
        if bar:
            bar.close()
    if args.json:
        last = {"last_games": _last_games(ev, game, args.show_last)} if args.show_last else {}
        print(json.dumps({**ev.as_json(), **_random_settings(args), "first": args.secrets,
                          "max_guesses": args.max_guesses, **last}))
    else:
        _print_evaluation(ev, game, args, opts)
    if ev.failed or ev.repeated:
        stream = sys.stderr if args.json else sys.stdout
        _print_problems(ev, game, stream)
    claimed = getattr(strat, "doc", {}).get("total") if args.secrets is None else None
    if claimed is not None and not ev.failed:
        verdict = "agrees" if claimed == ev.total else "DISAGREES"
        print(f"the tree claims total {claimed}: the replay {verdict}",
              file=sys.stderr if args.json else sys.stdout)
        if claimed != ev.total:
            return 1
    if plot_path is not None:
        from .plot import plot_histogram
        plot_histogram(ev, str(plot_path), seed=_random_settings(args)["seed"])
        sys.stdout.flush()
        print(f"histogram written to {plot_path}", file=sys.stderr)
    return 1 if ev.failed else 0


def _last_games(ev, game, k: int) -> list[dict]:
    """The last ``k`` games of ``ev`` for JSON: index, secret, guesses, tries, solved."""
    return [{"index": i, "secret": game.codes[r.secret], "guesses": [game.codes[g] for g in r.guesses],
             "tries": len(r.guesses), "solved": r.solved}
            for i, r in ((i, ev.games[i]) for i in range(max(0, ev.secrets - k), ev.secrets))]


def _random_settings(args) -> dict:
    """The random strategy's seed, divisor and int width in effect (defaults filled in); None otherwise."""
    if args.strategy not in ("random", "entropy-int"):
        return {"seed": None, "divisor": None, "int_bits": None}
    from .strategies.random_consistent import DEFAULT_SEED
    return {"seed": DEFAULT_SEED if args.seed is None else args.seed,
            "divisor": args.divisor or 8, "int_bits": args.int_bits or 32}


def _print_evaluation(ev, game, args, opts):
    extra = f" ({', '.join(f'{k} {v}' for k, v in opts.items())})" if opts else ""
    print(f"game {ev.game}, strategy {ev.strategy}{extra}, {ev.secrets} secrets")
    if args.show_last:
        for k in range(max(0, ev.secrets - args.show_last), ev.secrets):
            r = ev.games[k]
            seq = " ".join(game.codes[g] for g in r.guesses)
            print(f" {k} {game.codes[r.secret]} {seq} {len(r.guesses)} tries!"
                  + ("" if r.solved else f" (not solved: {r.reason})"))
    print("tries  games")
    for t in range(1, ev.worst + 1):
        print(f"{t:5d}  {ev.histogram.get(t, 0):5d}")
    a = ev.average_exact
    print(f"solved {ev.solved} of {ev.secrets}, unsolved {ev.unsolved}")
    print(f"total {ev.total}  average {ev.average:.5f} ({a.numerator}/{a.denominator})  "
          f"worst {ev.worst}  time {ev.seconds:.3f} s")


def _print_problems(ev, game, stream):
    if ev.failed:
        reasons: dict[str, int] = {}
        for r in ev.failed:
            key = re.sub(r"\s*\(.*\)$", "", r.reason)
            reasons[key] = reasons.get(key, 0) + 1
        detail = "; ".join(f"{v} {k}" for k, v in reasons.items())
        example = game.codes[ev.failed[0].secret]
        print(f"NOT SOLVED: {len(ev.failed)} of {ev.secrets} secrets ({detail}; e.g. {example}); "
              "they are left out of the histogram and average; exit status 1", file=stream)
    if ev.repeated:
        # a note, not an error (the games were solved, the status stays 0): lower case, as the
        # summary lines are
        print(f"note: the strategy repeated a guess in {len(ev.repeated)} of {ev.secrets} games "
              "(the tries count the repeats)", file=stream)


def cmd_hint(args) -> int:
    """``hint``: remaining candidates and the strategy's next guess after GUESS=B,C moves."""
    game = get_game(args.game)
    table = score_table(game)
    strat = make_strategy(args.strategy, game, table, **_strategy_options(args))
    history = []
    for mv in args.moves:
        if "=" not in mv:
            raise GameError(f"move {mv!r}: write GUESS=BULLS,COWS, e.g. 1234=1,2")
        code, sc = mv.split("=", 1)
        g = game.code_id(code)
        bulls, cows = parse_score(sc, game)
        history.append((g, game.score_id(bulls, cows)))
    cands = np.arange(game.size)
    for g, sid in history:
        cands = cands[table.block([g], cands)[0] == sid]
    if len(cands) == 0:
        raise GameError("inconsistent scores: no code fits them all")
    strat.reset()
    if not strat.deterministic and not strat.uses_candidates:
        # a stateful strategy (phase) must replay its own game to know where it is
        for k, (g, _) in enumerate(history):
            own = strat.next_guess(None, history[:k])
            if own != g:
                raise GameError(f"the {strat.name} strategy would have guessed "
                                f"{game.codes[own]} at move {k + 1}, not {game.codes[g]}")
    if any(sid == game.win for _, sid in history):
        print("solved")
        return 0
    nxt = strat.next_guess(cands if strat.uses_candidates else None, history)
    shown = " ".join(game.codes[c] for c in cands[:args.limit])
    more = f" ... (+{len(cands) - args.limit})" if len(cands) > args.limit else ""
    print(f"{len(cands)} candidates: {shown}{more}")
    print(f"next guess ({strat.name}): {game.codes[nxt]}")
    return 0


def cmd_tree(args) -> int:
    """``tree``: the decision tree of a deterministic strategy (text outline, JSON or DOT)."""
    from .tree import save_tree, strategy_tree, tree_to_dot, tree_to_text
    game = get_game(args.game)
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    table = score_table(game)
    strat = make_strategy(args.strategy, game, table, **_strategy_options(args))
    doc = getattr(strat, "doc", None)
    if doc is None:
        if table.full is None:
            raise GameError(f"trees of {game.name} ({game.size} codes) are too large to build")
        doc = strategy_tree(game, strat)
    if args.levels < 0:
        raise UsageError("--levels must be 0 or more")
    if args.json:
        text = json.dumps(doc, separators=(",", ":")) + "\n"
    elif args.dot:
        text = tree_to_dot(doc)
    else:
        text = (f"game {doc['game']}, strategy {doc['strategy']}, opening {doc['opening']}, "
                f"total {doc['total']} over {doc['secrets']} secrets\n"
                + tree_to_text(doc, args.levels or None))
    if args.output:
        if args.json and args.output.endswith(".gz"):
            save_tree(doc, args.output)
        else:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError as exc:
                raise UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


def cmd_score(args) -> int:
    """``score``: bulls, cows and bc.tc's 0-13 code of two codes."""
    game = get_game(args.game)
    a, b = game.normalize(args.a), game.normalize(args.b)
    bulls, cows = score(a, b)
    code = f" (bc.tc score {bc_code(bulls, cows)})" if game.length == 4 else ""
    print(f"{a} {b}: {plural(bulls, 'bull')} {plural(cows, 'cow')}{code}")
    return 0


def cmd_play(args) -> int:
    """``play`` (:mod:`tinyc.solver.interactive`, imported only for it)."""
    from .interactive import cmd_play as play
    return play(args)


COMMANDS = {"evaluate": cmd_evaluate, "play": cmd_play, "hint": cmd_hint, "tree": cmd_tree,
            "score": cmd_score, "completion": cmd_completion}


def _on_dask(args) -> int:
    """The command with its parallel tasks on the Dask cluster of ``--dask`` (imported only
    then); as many tasks in flight as the cluster has worker threads."""
    from .cluster import dask_cluster
    with dask_cluster(args.dask) as threads:
        args.jobs = max(2, threads)   # 1 would run the exact search in this process
        return COMMANDS[args.command](args)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``tinyc-solver``; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "game", "") is None and not getattr(args, "tree", None):
            args.game = DEFAULT_GAME
        if getattr(args, "dask", None):
            return _on_dask(args)
        return COMMANDS[args.command](args)
    except (UsageError, ValueError, RuntimeError) as exc:  # GameError is a ValueError;
        # RuntimeError: PhaseStuck, TreeGap, bc.tc's RANGERR in play/hint
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # "stopped", 130: as tinyc's every door says Ctrl-C (issue 35 item 8)
        newline = "\n" if sys.stderr.isatty() else ""  # not after the terminal's ^C on the prompt's line
        print(f"{newline}stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
