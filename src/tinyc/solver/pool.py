"""Worker processes for ``evaluate --jobs`` (``parallel``) and the exact search (``exact``):
a ``ProcessPoolExecutor`` that answers Ctrl-C in the parent alone and reports a lost worker
as a ``GameError`` (issue 29)."""
from __future__ import annotations

import contextlib
import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterator

from .games import GameError

__all__ = ["worker_pool", "ignore_ctrl_c", "WorkerLost"]


class WorkerLost(GameError):
    """A worker process died (killed, out of memory) before its task ended."""


def ignore_ctrl_c() -> None:
    """Worker initialiser: Ctrl-C reaches the whole process group, the parent alone answers
    it (``worker_pool``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None] = ignore_ctrl_c,
                initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``jobs`` processes (``initializer`` should call
    ``ignore_ctrl_c``). If the caller stops with an exception (Ctrl-C, a worker's error),
    the queued tasks are cancelled and the workers of this pool are terminated at once rather
    than left to finish their tasks. A worker that dies raises ``WorkerLost``."""
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=initializer, initargs=initargs)
    try:
        try:
            yield pool
        except BrokenProcessPool as exc:
            raise WorkerLost(f"a worker process was lost ({exc})") from None
    except BaseException:
        workers = [p for p in multiprocessing.active_children() if p not in before]
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            proc.terminate()
        raise
    pool.shutdown(wait=True)
