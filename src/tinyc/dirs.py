"""Where tinyc keeps files of its own: the platform's user directories, through ``platformdirs``.

* the shell's command history: the user *state* directory (``~/.local/state/tinyc/history`` on Linux);
* caches (parsed system files, Lark's grammar analysis): the user *cache* directory
  (``~/.cache/tinyc``), where :func:`prune` removes entries that no current source would ask for.

Both follow ``XDG_STATE_HOME``/``XDG_CACHE_HOME`` on Linux, which the test suite points at a temporary
directory (tests/conftest.py), so tests never write to the real user directories.  Every ``tinyc run``
asks for the cache directory, and importing platformdirs costs a start milliseconds (its Unix module loads
``tempfile``, ``random`` and more): so on Linux, where the answer is the XDG rule, :func:`cache_dir`
follows that rule itself when the variable or the home directory is an absolute path (the cases in which
platformdirs answers the same, as tests/test_startup.py checks), and asks platformdirs otherwise.  A history file left
by earlier versions in ``~/.tinyc_history`` is still read if there is no new one.
"""

from __future__ import annotations

import os
import sys
import time
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from pathlib import Path  # imported where a Path is made: pathlib costs a start 2 ms (cache_path)

APP = "tinyc"


def _platform_dirs():
    from platformdirs import PlatformDirs
    return PlatformDirs(APP, appauthor=False)


def cache_path() -> str:
    """The user cache directory as a string: ``$XDG_CACHE_HOME/tinyc``, else ``~/.cache/tinyc`` on Linux."""
    if sys.platform == "linux":
        for base in (os.environ.get("XDG_CACHE_HOME", ""), os.path.join(os.environ.get("HOME", ""), ".cache")):
            if os.path.isabs(base):
                return os.path.join(base, APP)
    return _platform_dirs().user_cache_dir


def cache_dir() -> Path:
    """The user cache directory (:func:`cache_path`) as a Path."""
    from pathlib import Path
    return Path(cache_path())


def state_dir() -> Path:
    """The user state directory (``~/.local/state/tinyc`` on Linux), from platformdirs."""
    from pathlib import Path
    return Path(_platform_dirs().user_state_dir)


def history_file() -> Path:
    """The ``tc>`` history; the old ``~/.tinyc_history`` while no new file exists."""
    from pathlib import Path
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
