"""Histogram plot of an evaluation (``tinyc-solver evaluate --plot FILE.png``).

matplotlib is an optional extra (``pip install tinyc[plot]``); it is imported only here,
and only when a plot is asked for.
"""
from __future__ import annotations

import importlib.util

__all__ = ["plot_histogram", "require_matplotlib", "PlotUnavailable"]

_MISSING = ("--plot needs matplotlib: `pip install matplotlib` in tinyc's environment "
            "(or, in a tinyc checkout, `pip install '.[test,plot]'` as the README installs; "
            "`pip install -e '.[test,plot]'` for an editable install)")
FORMATS = (".png", ".svg", ".pdf")


class PlotUnavailable(ValueError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Raise PlotUnavailable now (before a long evaluation) if matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotUnavailable(_MISSING)


def plot_target(given: str, game: str, strategy: str):
    """Where ``--plot given`` writes: ``given`` itself (a .png/.svg/.pdf file), or ``GAME-STRATEGY.png``
    inside ``given`` when it is a directory.  Anything else is refused (PlotUnavailable) before the run."""
    from pathlib import Path
    path = Path(given)
    if path.is_dir():
        return path / f"{game}-{strategy}.png"
    if path.suffix.lower() not in FORMATS:
        raise PlotUnavailable(f"--plot {given}: give a file ending in {', '.join(FORMATS)} or an existing "
                              "directory")
    if not path.parent.is_dir():
        raise PlotUnavailable(f"--plot {given}: no directory {path.parent}")
    return path


def plot_histogram(ev, path: str, seed: int | None = None) -> None:
    """Draw tries (x) against number of games (y) of an ``Evaluation`` into ``path`` (PNG)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable(_MISSING) from None
    xs = list(range(1, ev.worst + 1))
    ys = [ev.histogram.get(x, 0) for x in xs]
    fig, ax = plt.subplots(figsize=(6, 4))
    bars = ax.bar(xs, ys, color="#4a7ab5")
    ax.bar_label(bars, labels=[str(y) if y else "" for y in ys], padding=2, fontsize=8)
    ax.margins(y=0.12)
    ax.set_xlabel("tries")
    ax.set_ylabel("games")
    ax.set_xticks(xs)
    strategy = ev.strategy + (f" (seed {seed})" if seed is not None else "")
    ax.set_title(f"{ev.game} / {strategy}, {ev.secrets} secrets\n"
                 f"average {ev.average:.4f}, worst {ev.worst}", fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise PlotUnavailable(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
