"""``--dask ADDRESS``: the tasks of ``evaluate --jobs`` and of the exact search run on a Dask
cluster instead of local processes (issue 29). Dask is an optional extra (``dask``) and is
imported here alone, only when ``--dask`` is given.

``dask_cluster(address)`` connects a ``distributed.Client`` (``local:N`` starts a
``LocalCluster`` of N one-thread worker processes) and, while it is open, ``pool.worker_pool``
hands out the client's ``concurrent.futures`` executor rather than a process pool. A Dask
executor has no worker initialiser, so each task carries the initialiser and its arguments
with a token, and runs it once per worker process (``run_initialised``).
"""
from __future__ import annotations

import contextlib
from concurrent.futures import Executor, Future
from typing import Any, Callable, Iterator

from .games import GameError

__all__ = ["dask_cluster", "InitialisingExecutor", "run_initialised", "DaskMissing"]

EXTRA = "pip install '.[test,dask]'"

#: the Dask client of the open ``dask_cluster`` block, if any (``pool.worker_pool`` reads it)
CLIENT: list[Any] = []

_STATE: dict = {}       # per worker process: the token of the initialiser last run


class DaskMissing(GameError):
    """--dask was given but Dask's distributed package is not installed."""


def run_initialised(token: str, init: Callable[..., None], initargs: tuple,
                    fn: Callable[..., Any], *args: Any) -> Any:
    """A task on a Dask worker: ``init(*initargs)`` first if this process has not run it
    for ``token`` (one pool, one token), then ``fn(*args)``."""
    if _STATE.get("token") != token:
        init(*initargs)
        _STATE["token"] = token
    return fn(*args)


class InitialisingExecutor(Executor):
    """A Dask client's executor whose tasks first run a per-process initialiser, as
    ``ProcessPoolExecutor(initializer=...)`` does."""

    def __init__(self, client: Any, init: Callable[..., None], initargs: tuple):
        import uuid
        self._inner = client.get_executor(pure=False)
        self._init, self._initargs, self._token = init, initargs, uuid.uuid4().hex

    def submit(self, fn, /, *args, **kwargs) -> Future:
        """``fn(*args)`` on a worker, after the initialiser (see ``run_initialised``)."""
        return self._inner.submit(run_initialised, self._token, self._init, self._initargs,
                                  fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel the tasks still queued if ``cancel_futures``; the cluster stays up."""
        if cancel_futures:
            for fut in list(getattr(self._inner, "_futures", ())):
                fut.cancel()
        self._inner.shutdown(wait=wait)


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise DaskMissing(f"--dask needs Dask's distributed package: {EXTRA}") from None
    return distributed


def _local_workers(address: str) -> int | None:
    if not address.startswith("local:"):
        return None
    text = address[len("local:"):]
    if not text.isdigit() or int(text) < 1:
        raise GameError(f"--dask {address}: write local:N with N a number of workers (1 or more)")
    return int(text)


@contextlib.contextmanager
def dask_cluster(address: str, timeout: float = 10) -> Iterator[int]:
    """Connect to the Dask scheduler at ``address`` (host:port, tcp://host:port) or start a
    local cluster (``local:N``: N worker processes of one thread) for the ``with`` block,
    during which ``pool.worker_pool`` uses it; yields the number of worker threads (at least
    1). Raises DaskMissing without Dask, GameError for a bad address or a scheduler that does
    not answer within ``timeout`` seconds."""
    n_local = _local_workers(address)
    distributed = _import_distributed()
    with contextlib.ExitStack() as stack:
        try:
            if n_local is not None:
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=n_local, threads_per_worker=1, processes=True,
                    dashboard_address=None))
                client = stack.enter_context(distributed.Client(cluster))
            else:
                client = stack.enter_context(distributed.Client(address, timeout=timeout))
        except (OSError, ValueError, TypeError) as exc:
            raise GameError(f"--dask {address}: no Dask scheduler answers there "
                            f"({type(exc).__name__}: {exc})") from None
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise GameError(f"--dask {address}: the scheduler has no workers") from None
        threads = max(1, sum(client.nthreads().values()))
        CLIENT.append(client)
        try:
            yield threads
        finally:
            CLIENT.remove(client)
