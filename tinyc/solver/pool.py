"""Worker processes for ``evaluate --jobs`` (``parallel``) and the exact search (``exact``):
a ``ProcessPoolExecutor`` that answers Ctrl-C in the parent alone and reports a lost worker
as a ``GameError`` (issue 29). Inside ``cluster.dask_cluster`` (``--dask``) the pool is the
Dask client's executor instead."""
from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterator

from .cluster import CLIENT, InitialisingExecutor   # imports no Dask
from .games import GameError

__all__ = ["worker_pool", "ignore_ctrl_c", "WorkerLost"]


class WorkerLost(GameError):
    """A worker process died (killed, out of memory) before its task ended."""


def ignore_ctrl_c() -> None:
    """Worker initialiser: Ctrl-C reaches the whole process group, the parent alone answers
    it (``worker_pool``). A Dask worker runs tasks in a thread, where signals cannot be set
    (its nanny handles them)."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None] = ignore_ctrl_c,
                initargs: tuple = ()) -> Iterator[Executor]:
    """A ``ProcessPoolExecutor`` of ``jobs`` processes (``initializer`` should call
    ``ignore_ctrl_c``). If the caller stops with an exception (Ctrl-C, a worker's error),
    the queued tasks are cancelled and the workers of this pool are terminated at once rather
    than left to finish their tasks. A worker that dies raises ``WorkerLost``. Within
``cluster.dask_cluster`` the tasks go to the Dask cluster (``jobs`` is then the number of
tasks the caller keeps in flight); a task Dask gave up on (its workers died) raises
``WorkerLost``."""
    if CLIENT:
        yield from _dask_pool(initializer, initargs)
        return
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


def _dask_pool(initializer: Callable[..., None], initargs: tuple) -> Iterator[Executor]:
    pool = InitialisingExecutor(CLIENT[-1], initializer, initargs)
    try:
        yield pool
    except Exception as exc:
        pool.shutdown(wait=False, cancel_futures=True)
        if type(exc).__name__ == "KilledWorker":
            raise WorkerLost(f"Dask gave a task up, its workers died ({exc})") from None
        raise
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
