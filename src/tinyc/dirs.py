"""Where tinyc keeps files of its own: the platform's user directories, through ``platformdirs``.

* the shell's command history: the user *state* directory (``~/.local/state/tinyc/history`` on Linux);
* caches (parsed system files, Lark's grammar analysis): the user *cache* directory
  (``~/.cache/tinyc``), where :func:`prune` removes entries that no current source would ask for.

Both follow ``XDG_STATE_HOME``/``XDG_CACHE_HOME`` on Linux, which the test suite points at a temporary
directory (tests/conftest.py), so tests never write to the real user directories.  A history file left
by earlier versions in ``~/.tinyc_history`` is still read if there is no new one.
"""

from __future__ import annotations

import time
from pathlib import Path

from platformdirs import PlatformDirs

_DIRS = PlatformDirs("tinyc", appauthor=False)


def cache_dir() -> Path:
    return Path(_DIRS.user_cache_dir)


def state_dir() -> Path:
    return Path(_DIRS.user_state_dir)


def history_file() -> Path:
    """The ``tc>`` history; the old ``~/.tinyc_history`` while no new file exists."""
    new = state_dir() / "history"
    old = Path.home() / ".tinyc_history"
    if not new.exists() and old.is_file():
        return old
    try:
        new.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    return new


def prune(directory: Path, keep: set[str], pattern: str = "*", max_age_days: float = 30.0) -> list[Path]:
    """Delete cache files in ``directory`` matching ``pattern`` that are not in ``keep`` (names) and were
    not used for ``max_age_days``; returns what was removed.  Never fails: a cache is only a cache."""
    removed = []
    limit = time.time() - max_age_days * 86400
    try:
        for path in directory.glob(pattern):
            try:
                if path.name not in keep and path.is_file() and path.stat().st_atime < limit:
                    path.unlink()
                    removed.append(path)
            except OSError:
                continue
    except OSError:
        pass
    return removed
