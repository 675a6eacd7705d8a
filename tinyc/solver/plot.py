"""Histogram plot of an evaluation (``tinyc-solver evaluate --plot FILE.png``).

matplotlib is an optional extra (``pip install tinyc[plot]``); it is imported only here,
and only when a plot is asked for.
"""
from __future__ import annotations

import importlib.util

__all__ = ["plot_histogram", "require_matplotlib", "PlotUnavailable"]

_MISSING = "--plot needs matplotlib: pip install 'tinyc[plot]'"


class PlotUnavailable(ValueError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    """Raise PlotUnavailable now (before a long evaluation) if matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotUnavailable(_MISSING)


def plot_histogram(ev, path: str) -> None:
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
    ax.bar(xs, ys, color="#4a7ab5")
    ax.set_xlabel("tries")
    ax.set_ylabel("games")
    ax.set_xticks(xs)
    ax.set_title(f"{ev.game} / {ev.strategy}: average {ev.average:.4f}, worst {ev.worst}")
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise PlotUnavailable(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
